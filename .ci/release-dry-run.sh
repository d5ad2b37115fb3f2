#!/usr/bin/env bash
# A release, rehearsed (issue 18): on a scratch clone of this checkout, `changeset version`
# applies the pending changesets, then every published package under packages/ (found by
# its package.json, not listed here) is published with `pnpm publish --dry-run`, which
# builds it first (prepack). Each must version and publish on its own: the new version in
# its package.json and CHANGELOG.md, no workspace: specifier left in what it would ship.
# The dry runs skip prepack and pack this commit's build (dist/ restored from turbo's cache
# before versioning, so the packages need not be built a second time: ~75 CPU-s): only the
# `VERSION` constant inside dist/ still names the version before. A real release builds
# after versioning (`pnpm release`); that prepack builds what `pnpm pack` ships is checked
# on a fresh clone by .ci/newcomer.sh, and every tarball by scripts/check-packages.mjs.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/mtpx-release-XXXXXX")"
trap 'rm -rf "$work"' EXIT
scratch="$work/mtpx-ts"
export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1 FORCE_COLOR=0
common="$(cd "$repo" && cd "$(git rev-parse --git-common-dir)/.." && pwd)"
if [ -d "$common/.turbo/cache" ]; then export TURBO_CACHE_DIR="$common/.turbo/cache"; fi
failures=0
fail() {
  echo "  FAIL $*"
  failures=$((failures + 1))
}

if [ -n "${MTPX_FRESH_CLONE:-}" ]; then
  # The clone .ci/fresh-clone.sh installed (and newcomer.sh used, without changing what is
  # tracked): this step changes it, so it runs last.
  scratch="$MTPX_FRESH_CLONE"
  [ -f "$scratch/.installed" ] || { echo "the fresh clone ($scratch) is not installed"; exit 1; }
  cd "$scratch" || exit 1
  [ -z "$(git status --porcelain --untracked-files=no)" ] || { echo "the fresh clone has changes"; exit 1; }
else
  git clone --quiet "$repo" "$scratch" || exit 1
  cd "$scratch" || exit 1
  pnpm install --frozen-lockfile --offline >"$work/install.log" 2>&1 || {
    cat "$work/install.log"
    exit 1
  }
fi

published() {
  for manifest in packages/*/package.json; do
    node -e "const m = require('./$manifest'); if (!m.private) console.log(m.name + ' ' + require('path').dirname('$manifest'))"
  done
}
declare -A before
while read -r name directory; do
  before[$name]="$(node -p "require('./$directory/package.json').version")"
done < <(published)

# dist/ of every package, before versioning changes the package.json files turbo hashes:
# replayed from this checkout's cache when it holds this commit's build, built otherwise.
echo "::: release: this commit's build"
if ! pnpm build >"$work/build.log" 2>&1; then
  tail -40 "$work/build.log"
  exit 1
fi
grep -E '^ *Cached: ' "$work/build.log" | sed 's/^ */  /'

pending="$(ls .changeset/*.md 2>/dev/null | grep -vc README.md)"
echo "::: release: changeset version ($pending pending changesets)"
if ! pnpm changeset version >"$work/version.log" 2>&1; then
  cat "$work/version.log"
  exit 1
fi
[ "$(ls .changeset/*.md 2>/dev/null | grep -vc README.md)" -eq 0 ] || fail "changesets left after changeset version"

while read -r name directory; do
  version="$(node -p "require('./$directory/package.json').version")"
  if grep -qF -- "$name" <<<"$(cat "$work/version.log")" || [ "$version" != "${before[$name]}" ]; then
    grep -q "^## $version" "$directory/CHANGELOG.md" || fail "$name $version has no CHANGELOG.md entry"
  fi
  echo "::: release: pnpm publish --dry-run $name@$version (was ${before[$name]})"
  if ! (cd "$directory" && pnpm publish --dry-run --no-git-checks --ignore-scripts >"$work/publish.log" 2>&1); then
    fail "pnpm publish --dry-run $name"
    sed 's/^/    | /' "$work/publish.log" | tail -20
    continue
  fi
  grep -qF "$name@$version" "$work/publish.log" || fail "$name: the dry run did not publish $version"
  # What it would ship: its tarball's package.json names released versions only.
  (cd "$directory" && pnpm pack --ignore-scripts --pack-destination "$work/tarballs" >/dev/null 2>&1) || fail "pnpm pack $name"
  tarball="$(ls -t "$work"/tarballs/*.tgz | head -1)"
  shipped="$(tar -xzOf "$tarball" package/package.json)"
  if grep -q '"workspace:' <<<"$shipped"; then fail "$name ships a workspace: specifier"; fi
  grep -q '"dist/' <<<"$(tar -tzf "$tarball" | sed 's/^package\//"/')" || fail "$name ships no dist/"
done < <(published)

if [ "$failures" -gt 0 ]; then
  echo "release dry run: $failures problem(s)"
  exit 1
fi
echo "release dry run: every package versions and publishes on its own"

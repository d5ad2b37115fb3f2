#!/usr/bin/env bash
# A newcomer's first hour (issue 18), replayed on a fresh clone of this checkout: the
# README's Quick start, then every documented command a new user types next, each output
# checked. turbo reuses this checkout's build cache when it has one (the clone's sources
# are the same commit), so the step stays within its time budget; everything else — the
# install, the links, the bins, the packing — is the clone's own.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/mtpx-newcomer-XXXXXX")"
trap 'rm -rf "$work"' EXIT
clone="$work/mtpx-ts"
out="$work/out"
err="$work/err"
failures=0

export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1 FORCE_COLOR=0 NO_COLOR=1
common="$(cd "$repo" && cd "$(git rev-parse --git-common-dir)/.." && pwd)"
if [ -d "$common/.turbo/cache" ]; then export TURBO_CACHE_DIR="$common/.turbo/cache"; fi

ok() { echo "  ok   $*"; }
fail() {
  echo "  FAIL $*"
  failures=$((failures + 1))
}
# run NAME COMMAND…: runs in the clone, keeping stdout, stderr and the exit code.
run() {
  local name="$1"
  shift
  echo "::: newcomer: $name: $*"
  local started=$SECONDS
  (cd "$clone" && "$@") >"$out" 2>"$err"
  code=$?
  echo "    ($((SECONDS - started)) s)"
}
show() {
  echo "    exit $code; stdout:"
  sed 's/^/    | /' "$out" | tail -15
  echo "    stderr:"
  sed 's/^/    | /' "$err" | tail -15
}
# expect TEXT WHERE: the output (out, err or both) contains TEXT.
has() { grep -qF -- "$1" "$2"; }
# No pnpm noise beyond its one `[ELIFECYCLE]` line, which pnpm 12 always prints for a failed script.
quiet_pnpm() { ! grep -qE 'ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL|pnpm recursive run' "$err"; }

if [ -n "${MTPX_FRESH_CLONE:-}" ]; then
  # Cloned and installed once by .ci/fresh-clone.sh (the release dry run uses it after us).
  clone="$MTPX_FRESH_CLONE"
  if [ -f "$clone/.installed" ]; then ok "pnpm install (fresh clone, .ci/fresh-clone.sh)"; else
    fail "pnpm install on the fresh clone ($clone): see the fresh-clone step"
    exit 1
  fi
else
  git clone --quiet "$repo" "$clone" || exit 1
  run install pnpm install --frozen-lockfile --offline
  if [ "$code" -eq 0 ]; then ok "pnpm install"; else
    fail "pnpm install"
    show
    exit 1
  fi
fi

# 1. The Quick start's demo.
run demo pnpm demo
if [ "$code" -eq 0 ] && has '= 31.' "$out" && has '6 calls from ONE model response' "$out"; then
  ok "pnpm demo answers 31 in one tool round"
else
  fail "pnpm demo"
  show
fi

# 2. The mpl CLI at the root, with the package's real version.
version="$(node -p "require('$clone/packages/mpl-proxy/package.json').version")"
run mpl-version pnpm mpl --version
if [ "$code" -eq 0 ] && [ "$(tail -1 "$out")" = "$version" ]; then
  ok "pnpm mpl --version prints $version"
else
  fail "pnpm mpl --version (wanted $version)"
  show
fi

# 3. pnpm pack of a package the Quick start did not build ships its code.
run pack sh -c "cd packages/mcp && pnpm pack --pack-destination '$work'"
contents="$(tar -tzf "$work"/mtpx-mcp-*.tgz 2>/dev/null)"
if [ "$code" -eq 0 ] && grep -qx 'package/dist/bin.js' <<<"$contents" &&
  grep -qx 'package/dist/index.js' <<<"$contents"; then
  ok "pnpm pack of @mtpx/mcp holds dist/index.js and dist/bin.js"
else
  fail "pnpm pack of @mtpx/mcp ships no code"
  show
fi

# 4. Every package example, as its README names it.
for manifest in "$clone"/packages/*/package.json; do
  name="$(node -p "require('$manifest').name")"
  for script in $(node -p "Object.keys(require('$manifest').scripts).filter((s) => s.startsWith('example:')).join(' ')"); do
    if [[ "$script" == *-server ]]; then
      # A server example runs until stopped: it must be up (print its URL) within the time.
      echo "::: newcomer: $name $script (a server: up once it prints its URL, then stopped)"
      (cd "$clone" && exec setsid pnpm --filter "$name" run "$script") >"$out" 2>"$err" &
      server=$!
      up=0
      for _ in $(seq 240); do
        if grep -q 'http://127.0.0.1:' "$out" "$err"; then up=1; break; fi
        kill -0 "$server" 2>/dev/null || break
        sleep 0.5
      done
      kill -- -"$server" 2>/dev/null
      wait "$server" 2>/dev/null
      code=$up
      if [ "$up" -eq 1 ]; then
        ok "pnpm --filter $name run $script serves"
      else
        fail "pnpm --filter $name run $script (a server: it should print its URL and keep serving)"
        show
      fi
      continue
    fi
    run "$name $script" timeout 300 pnpm --filter "$name" run "$script"
    if [ "$code" -eq 0 ]; then ok "pnpm --filter $name run $script"; else
      fail "pnpm --filter $name run $script"
      show
    fi
  done
done

# 5. A flag typo: our own advice, exit code 2 at the shell, no pnpm recursion noise.
run typo pnpm demo --providr groq
if [ "$code" -eq 2 ] && has 'Unknown flag --providr: did you mean --provider?' "$err" &&
  ! has "after '--'" "$err" && quiet_pnpm; then
  ok "pnpm demo --providr: exit 2, did you mean --provider?"
else
  fail "pnpm demo --providr"
  show
fi

# 6. An unreachable base URL is named once (pnpm's own `$ …` echo of the command aside).
run unreachable env ANTHROPIC_API_KEY=newcomer-test pnpm demo -- --provider anthropic --base-url http://127.0.0.1:9
named="$(cat "$out" "$err" | grep -v '^\$ ' | grep -cF 'http://127.0.0.1:9')"
if [ "$code" -eq 1 ] && [ "$named" -eq 1 ] && quiet_pnpm; then
  ok "unreachable base URL: exit 1, the URL named once"
else
  fail "unreachable base URL (named $named times)"
  show
fi

# 7. mtpx-mcp serves a TypeScript module, as the README writes it.
cat >"$clone/apps/mcp-multiround/tools.ts" <<'EOF'
import { defineTool } from '@mtpx/executor';
import { z } from 'zod';

export const name = 'newcomer';
export const tools = [
  defineTool({
    name: 'echo',
    description: 'Echoes its text.',
    input_schema: z.object({ text: z.string() }),
    execute: ({ text }: { text: string }) => text,
  }),
];
EOF
run mtpx-mcp sh -c "cd apps/mcp-multiround && printf '%s\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}' | timeout 60 pnpm exec mtpx-mcp ./tools.ts"
if [ "$code" -eq 0 ] && has 'serving newcomer (1 tool) over stdio' "$err" && has '"name":"echo"' "$out"; then
  ok "mtpx-mcp ./tools.ts lists its 1 tool"
else
  fail "mtpx-mcp ./tools.ts"
  show
fi

# 8. mpl provenance without --data names the folder it read and creates nothing.
home="$work/home"
mkdir -p "$home"
# Only HOME moves: corepack's and pnpm's own folders stay where they are.
run provenance env HOME="$home" COREPACK_HOME="${COREPACK_HOME:-$HOME/.cache/node/corepack}" \
  XDG_CACHE_HOME="${XDG_CACHE_HOME:-$HOME/.cache}" XDG_DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}" \
  XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$HOME/.config}" XDG_STATE_HOME="${XDG_STATE_HOME:-$HOME/.local/state}" \
  pnpm mpl provenance 550e8400-e29b-41d4-a716-446655440010 --verify
if [ "$code" -eq 1 ] && has "No provenance database in $home/.mpl" "$err" && [ ! -e "$home/.mpl" ]; then
  ok "mpl provenance without --data names $home/.mpl and creates nothing"
else
  fail "mpl provenance without --data"
  show
fi

# The tarball's bins, installed alone, print the package's version: scripts/check-packages.mjs
# (the check-packages step) runs every bin of every packed package with --help and --version.

if [ "$failures" -gt 0 ]; then
  echo "newcomer: $failures check(s) failed"
  exit 1
fi
echo "newcomer: every documented command works on a fresh clone"

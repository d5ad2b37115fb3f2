#!/usr/bin/env bash
# One fresh clone of this checkout, installed from scratch (frozen lockfile, offline from
# the store), shared by the steps that need one: newcomer.sh replays the README on it, then
# release-dry-run.sh versions and publishes from it (last, since it changes the clone).
# Usage: .ci/fresh-clone.sh DIRECTORY   (DIRECTORY must not exist yet)
# The steps find it through MTPX_FRESH_CLONE; without it, each makes its own, as before.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
clone="${1:?usage: fresh-clone.sh DIRECTORY}"
export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1 FORCE_COLOR=0
git clone --quiet "$repo" "$clone" || exit 1
cd "$clone" || exit 1
started=$SECONDS
if ! pnpm install --frozen-lockfile --offline >"$clone/.install.log" 2>&1; then
  tail -40 "$clone/.install.log"
  exit 1
fi
touch "$clone/.installed"
echo "fresh clone installed in $((SECONDS - started)) s: $clone"

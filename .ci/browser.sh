#!/usr/bin/env bash
# The Inspector's browser test (packages/inspector/src/browser.test.ts, run by `pnpm test`)
# drives Debian's chromium with playwright-core. Install it when it is missing: a browser
# download by a test tool cannot reach the network here, Debian's packages can.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
/usr/bin/chromium --version

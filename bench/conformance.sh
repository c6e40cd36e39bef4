#!/usr/bin/env bash
# The official MCP conformance suites against the example's endpoint, in each
# tools mode: at revision 2026-07-28 and at 2025-11-25, the scenarios a
# stateless server of tools answers (see docs/agents.md for the others and for
# the checks that need the suite's own fixture tools). Starts the built example
# on a free loopback port per mode and fails if any scenario fails.
# `npm run conformance`.
set -u
cd "$(dirname "$0")/.."
MODERN_SUITE="@modelcontextprotocol/conformance@0.2.0-alpha.12"
MODERN_SCENARIOS="server-stateless tools-list caching dns-rebinding-protection http-header-validation input-required-result-unsupported-methods"
LEGACY_SUITE="@modelcontextprotocol/conformance@0.1.16"
LEGACY_SCENARIOS="server-initialize ping tools-list dns-rebinding-protection"
failed=0

free_port () {
  node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close() })"
}

# suite, mode, port, scenario, then the suite's own options.
run () {
  local suite=$1 mode=$2 port=$3 scenario=$4
  shift 4
  echo "== $mode: $scenario ($suite $*)"
  # The suites need Node 22; npx runs them there whatever Node runs the server.
  if ! npx -y -p node@22 -p "$suite" conformance server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario" "$@"; then
    echo "FAILED: $mode $scenario ($suite)"
    failed=1
  fi
}

for mode in routes discovery; do
  port=$(free_port)
  HOST=127.0.0.1 PORT=$port MCP_MODE=$mode LOG_LEVEL=warn node dist/example/main.js &
  server=$!
  for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/api/users/" && break
    sleep 0.2
  done
  for scenario in $MODERN_SCENARIOS; do
    run "$MODERN_SUITE" "$mode" "$port" "$scenario" --spec-version 2026-07-28 --expected-failures bench/conformance-not-applicable.yaml
  done
  for scenario in $LEGACY_SCENARIOS; do run "$LEGACY_SUITE" "$mode" "$port" "$scenario"; done
  kill "$server"
  wait "$server" 2>/dev/null
done
exit $failed

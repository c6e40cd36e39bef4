#!/usr/bin/env bash
# The official MCP conformance suite against the example's endpoint, in each
# tools mode: the scenarios a stateless server of tools answers (see
# docs/agents.md for the others). Starts the built example on a free loopback
# port per mode and fails if any scenario fails. `npm run conformance`.
set -u
cd "$(dirname "$0")/.."
SCENARIOS="server-initialize ping tools-list dns-rebinding-protection"
SUITE="@modelcontextprotocol/conformance@0.1.16"
failed=0

free_port () {
  node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close() })"
}

for mode in routes discovery; do
  port=$(free_port)
  HOST=127.0.0.1 PORT=$port MCP_MODE=$mode LOG_LEVEL=warn node dist/example/main.js &
  server=$!
  for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/api/users/" && break
    sleep 0.2
  done
  for scenario in $SCENARIOS; do
    echo "== $mode: $scenario"
    # The suite needs Node 22; npx runs it there whatever Node runs the server.
    if ! npx -y -p node@22 -p "$SUITE" conformance server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario"; then
      echo "FAILED: $mode $scenario"
      failed=1
    fi
  done
  kill "$server"
  wait "$server" 2>/dev/null
done
exit $failed

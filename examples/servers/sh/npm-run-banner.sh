#!/bin/sh
# npm-run-banner: the lines `npm run start` prints before the script runs, then the (healthy) server (R5). Expect: blank-line + stray-output x2 + blank-line. Mirrors F06 (modelcontextprotocol/servers#133).
printf '\n> demo-server@1.0.0 start\n> node server.mjs\n\n'  # FAULT: npm's lifecycle banner on stdout (use: npm run --silent, or node directly)
exec node "$(dirname "$0")/../node/healthy.mjs"

#!/usr/bin/env node
// mcp-wire: xxd for MCP. The CLI is dist/bundle/mcp-wire.js: src/cli/main.ts as built by `npm run build`
// (tsc, then scripts/bundle.mjs joins the modules into a few chunks so that it starts fast).
// `probe` spawns its server as early as it can: its command loads together with the CLI entry.
if (process.argv[2] === 'probe') import('../dist/bundle/probe-command.js').catch(() => undefined);
const {main} = await import('../dist/bundle/mcp-wire.js');

process.exitCode = await main(process.argv);

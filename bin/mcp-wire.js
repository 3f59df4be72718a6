#!/usr/bin/env node
// mcp-wire: xxd for MCP. The CLI is dist/bundle/mcp-wire.js: src/cli/main.ts as built by `npm run build`
// (tsc, then scripts/bundle.mjs joins the modules into a few chunks so that it starts fast).
// `probe` spawns its server as early as it can: a plain `probe [--json …] -- <command>` starts it before
// the CLI loads (src/cli/probe-early.ts; the probe command takes it over once commander has parsed the same
// command line), and the probe command's chunks load together with the CLI entry.
// The early start's few modules load alone (loading the CLI at the same time would delay the spawn).
let earlyProbe;
if (process.argv[2] === 'probe') {
	earlyProbe = await import('../dist/bundle/probe-early.js').catch(() => undefined);
	earlyProbe?.startEarlyProbe(process.argv);
	import('../dist/bundle/probe-command.js').catch(() => undefined);
}
const {main} = await import('../dist/bundle/mcp-wire.js');

try {
	process.exitCode = await main(process.argv);
} finally {
	// A server started early for a command line that did not run it (a usage error, --help) ends here.
	earlyProbe?.discardEarlyProbe();
}

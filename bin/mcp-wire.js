#!/usr/bin/env node
// mcp-wire: xxd for MCP. The CLI is dist/bundle/mcp-wire.js: src/cli/main.ts as built by `npm run build`
// (tsc, then scripts/bundle.mjs joins the modules into a few chunks so that it starts fast).
// `probe` spawns its server as early as it can: `probe [--json --timeout 5000 …] -- <command>` (no --cwd, no TUI) starts it before
// the CLI loads (src/cli/probe-early.ts; the probe command takes it over once commander has parsed the same
// command line). Such a probe then runs the CLI from dist/bundle/cli.cjs with V8's code cache
// (src/cli/code-cache.ts, in the same file as the early start), and falls back to the ES module build if that cannot run.
// The early start's few modules load alone (loading the CLI at the same time would delay the spawn).
let earlyProbe;
let cached;
if (process.argv[2] === 'probe') {
	earlyProbe = await import('../dist/bundle/probe-early.js').catch(() => undefined);
	earlyProbe?.startEarlyProbe(process.argv);
	if (earlyProbe?.hasEarlyProbe() === true) {
		try {
			cached = earlyProbe.runCachedScript(earlyProbe.fileURLToPath(new URL('../dist/bundle/cli.cjs', import.meta.url)));
		} catch {
			// no script, or it cannot run: the ES module build below
		}
	} else {
		import('../dist/bundle/probe-command.js').catch(() => undefined);
	}
}
const {main} = cached?.exports ?? (await import('../dist/bundle/mcp-wire.js'));

try {
	process.exitCode = await main(process.argv);
} finally {
	// A server started early for a command line that did not run it (a usage error, --help) ends here.
	earlyProbe?.discardEarlyProbe();
	// The code cache is stored after a probe whose server answered initialize, never after a run that
	// compiled little of the CLI (a usage error, a command that could not start): V8 would take such a thin
	// cache at every later run (src/cli/code-cache.ts).
	if (earlyProbe?.earlyProbeExchanged() === true) cached?.save();
}

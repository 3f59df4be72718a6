#!/usr/bin/env node
// mcp-wire's command: the CLI is dist/bundle/mcp-wire.js (src/cli/main.ts, built by `npm run build`).
// Node's compile cache where Node has one (>= 22.1; it checks its own entries); none on Node 20.
import module from 'node:module';

module.enableCompileCache?.();
if (process.argv[2] === 'tap') {
	// Too few file descriptors for the CLI's own modules: the server runs on the client's stdio
	// (docs/cli.md#too-few-file-descriptors). A file of its own that loads nothing else.
	const direct = await import('../dist/bundle/tap-direct.js');
	const ended = await direct.tapWithFewDescriptors(process.argv.slice(3));
	if (ended !== undefined) direct.endAs(ended);
}
const {main} = await import('../dist/bundle/mcp-wire.js');
process.exitCode = await main(process.argv);

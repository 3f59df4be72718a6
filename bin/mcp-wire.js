#!/usr/bin/env node
// mcp-wire's command: the CLI is dist/bundle/mcp-wire.js (src/cli/main.ts, built by `npm run build`).
// Node's compile cache where Node has one (>= 22.1; it checks its own entries); none on Node 20.
import module from 'node:module';

module.enableCompileCache?.();
const {main} = await import('../dist/bundle/mcp-wire.js');
process.exitCode = await main(process.argv);

#!/usr/bin/env node
// The long no-crash fuzz: the same test as `npm test` runs, with the full
// sizes (a 100 MB line, 300k one-byte chunks, 150k `{}` lines) and 20× the random cases. Takes minutes.
// Usage: node scripts/fuzz-no-crash.mjs
import {spawnSync} from 'node:child_process';

const result = spawnSync('npx', ['vitest', 'run', 'test/fuzz/no-crash.test.ts', '--reporter=verbose'], {
	stdio: 'inherit',
	env: {
		...process.env,
		MCP_WIRE_FUZZ: 'full',
		NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --max-old-space-size=4096`.trim(),
	},
});
process.exitCode = result.status ?? 1;

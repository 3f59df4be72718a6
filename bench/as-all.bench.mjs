#!/usr/bin/env node
// Benchmark of `mcp-wire probe --as all` against one `mcp-wire probe --json` (docs/performance.md#probe---as-all):
// on each example server below, the two take turns within every repetition (order rotated each time), start
// to exit, stdout to /dev/null. `--as all` plays every distinct client opening against a server process of
// its own, all at a time; the target is a wall time ≤ 1.5× the single probe's on the same server.
// Printed per server: the median wall time of each (ms) and the median of the per-repetition ratios.
// Usage: node bench/as-all.bench.mjs [--repeat N]   (npm run build first)
// Env: MCP_WIRE_BIN (default bin/mcp-wire.js), BENCH_REPEAT (default 7).

import {spawn} from 'node:child_process';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = process.env.MCP_WIRE_BIN ?? path.join(ROOT, 'bin', 'mcp-wire.js');
const repeatArg = process.argv.indexOf('--repeat');
const REPEAT = Number(repeatArg > 0 ? process.argv[repeatArg + 1] : (process.env.BENCH_REPEAT ?? 7));
/** A fast server of each runtime, a slow start, and one with a wire fault. */
const SERVERS = [
	['healthy-node', 'node', 'examples/servers/node/healthy.mjs'],
	['healthy-python', 'python3', 'examples/servers/python/healthy.py'],
	['stray-print-node', 'node', 'examples/servers/node/stray-print.mjs'],
	['slow-healthy', 'node', 'examples/servers/node/slow-healthy.mjs'],
];

/** Run `node ...args` from the repository root to its exit; resolve the wall time (ms). Exit 0 or 1 count. */
function timeRun(args) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(process.execPath, args, {cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit']});
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0 || code === 1
				? resolve(performance.now() - started)
				: reject(new Error(`${args.join(' ')}: exit ${code}`)),
		);
	});
}

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

let worst = 0;
for (const [name, ...command] of SERVERS) {
	const configs = [
		{name: 'probe', args: [BIN, 'probe', '--json', '--', ...command]},
		{name: 'as-all', args: [BIN, 'probe', '--as', 'all', '--json', '--', ...command]},
	];
	const times = {probe: [], 'as-all': []};
	const ratios = [];
	for (let i = 0; i < REPEAT; i++) {
		const order = i % 2 === 0 ? configs : [...configs].reverse();
		const run = {};
		for (const config of order) run[config.name] = await timeRun(config.args);
		times.probe.push(run.probe);
		times['as-all'].push(run['as-all']);
		ratios.push(run['as-all'] / run.probe);
	}
	const ratio = median(ratios);
	worst = Math.max(worst, ratio);
	console.log(
		`${name.padEnd(18)} probe ${median(times.probe).toFixed(0).padStart(6)} ms   --as all ${median(times['as-all']).toFixed(0).padStart(6)} ms   ratio ${ratio.toFixed(2)}×`,
	);
}
console.log(`worst ratio ${worst.toFixed(2)}× (target ≤ 1.5×)`);

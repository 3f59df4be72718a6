#!/usr/bin/env node
// Benchmark of `mcp-wire probe --json` start-to-exit wall time (docs/performance.md#probe-start-up): in one run, on the same
// fast Node server (examples/servers/node/healthy.mjs), these take turns within every repetition (order
// rotated each time, so a machine that gets busier or quieter mid-run shifts them all):
//
//   floor      a raw hand-written client (bench/clients/raw-client.mjs): node's spawn, initialize,
//              notifications/initialized, tools/list, ping, close stdin, wait for the exit. The same
//              exchange and the same R14 shutdown as the probe, nothing else.
//   mcp-wire   node bin/mcp-wire.js probe --json -- node <server>   (stdout to /dev/null)
//   sdk        the real TS SDK client (bench/clients/sdk-client.mjs): connect, listTools, close
//   guard      the peer mcp-stdio-guard --json --request tools/list: MCP_STDIO_GUARD names its bin script,
//              else a sibling checkout ../mcp-stdio-guard is used (it is not on npm; get it from its
//              repository into a directory outside this repo); without it the bench says "peer not found"
//   baseline   with MCP_WIRE_BASELINE_BIN: another build's bin/mcp-wire.js probe --json (before/after in
//              one interleaved run)
//   node -e 0  node's own start-up, for reference
//
// Printed: the median wall time of each (ms) and the median of the per-repetition ratios to the floor
// and to the guard. Targets: mcp-wire ≤ 1.3× the floor, and ≤ 1.0× the guard in the same run.
// Also printed, as a steadier figure on a loaded machine: each client's own CPU time (user + system of
// its process, not its server's; bench/clients/cpu-at-exit.cjs is preloaded into every run) and the
// same ratios of it.
// Usage: npm run bench:probe [-- --repeat N]
// Env: MCP_WIRE_BIN (default bin/mcp-wire.js), MCP_STDIO_GUARD (path to mcp-stdio-guard's bin/mcp-stdio-guard.js),
//      MCP_WIRE_BASELINE_BIN (another build to compare with), BENCH_REPEAT (default 15).

import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = process.env.MCP_WIRE_BIN ?? path.join(ROOT, 'bin', 'mcp-wire.js');
const SERVER = path.join(ROOT, 'examples', 'servers', 'node', 'healthy.mjs');
const repeatArg = process.argv.indexOf('--repeat');
const REPEAT = Number(repeatArg > 0 ? process.argv[repeatArg + 1] : (process.env.BENCH_REPEAT ?? 15));
const GUARD = process.env.MCP_STDIO_GUARD ?? path.join(ROOT, '..', 'mcp-stdio-guard', 'bin', 'mcp-stdio-guard.js');
const BASELINE = process.env.MCP_WIRE_BASELINE_BIN;

const configs = [
	{name: 'floor', args: [path.join(ROOT, 'bench', 'clients', 'raw-client.mjs'), SERVER]},
	{name: 'mcp-wire', args: [BIN, 'probe', '--json', '--', 'node', SERVER]},
	{name: 'sdk', args: [path.join(ROOT, 'bench', 'clients', 'sdk-client.mjs'), SERVER]},
	{name: 'node -e 0', args: ['-e', '0']},
];
if (existsSync(GUARD))
	configs.push({name: 'guard', args: [GUARD, '--json', '--request', 'tools/list', '--', 'node', SERVER]});
else
	process.stderr.write(
		`probe bench: peer not found: mcp-stdio-guard not measured (no ${GUARD}; set MCP_STDIO_GUARD to its bin/mcp-stdio-guard.js, it is not on npm)\n`,
	);
if (BASELINE !== undefined) configs.push({name: 'baseline', args: [BASELINE, 'probe', '--json', '--', 'node', SERVER]});

const CPU_AT_EXIT = path.join(ROOT, 'bench', 'clients', 'cpu-at-exit.cjs');

/**
 * Run `node ...args` to its exit; resolve the wall time and the process's own CPU time (ms). Rejects on a
 * non-zero exit (the run is void).
 */
function timeRun(args) {
	return new Promise((resolve, reject) => {
		const t0 = process.hrtime.bigint();
		const child = spawn(process.execPath, ['-r', CPU_AT_EXIT, ...args], {stdio: ['ignore', 'ignore', 'pipe']});
		let err = '';
		child.stderr.on('data', (d) => (err += d));
		child.on('close', (code) => {
			const ms = Number(process.hrtime.bigint() - t0) / 1e6;
			const cpu = /\n@@cpu ([\d.]+)\n/.exec(err);
			err = err.replace(/\n@@cpu [\d.]+\n/, '');
			if (code === 0 && cpu !== null) resolve({ms, cpu: Number(cpu[1])});
			else reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
		});
	});
}

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// One uncounted warm-up of each (disk cache, compile cache).
for (const config of configs) await timeRun(config.args);

const times = new Map(configs.map((c) => [c.name, []]));
const cpus = new Map(configs.map((c) => [c.name, []]));
const ratios = {floor: [], guard: [], sdk: [], baselineFloor: [], toBaseline: []};
for (let rep = 0; rep < REPEAT; rep++) {
	const order = configs.map((_, i) => configs[(i + rep) % configs.length]);
	const t = {};
	for (const config of order) {
		const {ms, cpu} = await timeRun(config.args);
		t[config.name] = ms;
		cpus.get(config.name).push(cpu);
	}
	for (const [name, ms] of Object.entries(t)) times.get(name).push(ms);
	ratios.floor.push(t['mcp-wire'] / t.floor);
	ratios.sdk.push(t['mcp-wire'] / t.sdk);
	if (t.guard !== undefined) ratios.guard.push(t['mcp-wire'] / t.guard);
	if (t.baseline !== undefined) {
		ratios.baselineFloor.push(t.baseline / t.floor);
		ratios.toBaseline.push(t['mcp-wire'] / t.baseline);
	}
}

console.log(`probe bench: ${REPEAT} interleaved repetitions, server ${path.relative(ROOT, SERVER)}`);
for (const [name, list] of times) {
	const floorRatio = median(list.map((ms, i) => ms / times.get('floor')[i]));
	console.log(
		`  ${name.padEnd(10)} median ${median(list).toFixed(0).padStart(5)} ms   ${floorRatio.toFixed(2)}× floor`,
	);
}
const toFloor = median(ratios.floor);
console.log(`mcp-wire / floor: ${toFloor.toFixed(2)} (target ≤ 1.30) ${toFloor <= 1.3 ? 'PASS' : 'FAIL'}`);
console.log(`mcp-wire / TS SDK client: ${median(ratios.sdk).toFixed(2)}`);
if (ratios.guard.length > 0) {
	const toGuard = median(ratios.guard);
	console.log(`mcp-wire / mcp-stdio-guard: ${toGuard.toFixed(2)} (target ≤ 1.00) ${toGuard <= 1 ? 'PASS' : 'FAIL'}`);
} else {
	console.log('mcp-wire / mcp-stdio-guard: not measured (peer not found)');
}
if (ratios.toBaseline.length > 0) {
	console.log(`baseline (${BASELINE}) / floor: ${median(ratios.baselineFloor).toFixed(2)}`);
	console.log(`mcp-wire / baseline: ${median(ratios.toBaseline).toFixed(2)}`);
}
// CPU time of each client's own process (not its server's), per repetition as the wall times are.
const cpuRatio = (name, to) => median(cpus.get(name).map((ms, i) => ms / cpus.get(to)[i])).toFixed(2);
console.log('own CPU time (user + system of the client process, not its server), median:');
for (const [name, list] of cpus)
	console.log(`  ${name.padEnd(10)} ${median(list).toFixed(0).padStart(5)} ms   ${cpuRatio(name, 'floor')}× floor`);
console.log(
	`mcp-wire CPU / floor: ${cpuRatio('mcp-wire', 'floor')}${cpus.has('guard') ? `, / mcp-stdio-guard: ${cpuRatio('mcp-wire', 'guard')}` : ''}${cpus.has('baseline') ? `, / baseline: ${cpuRatio('mcp-wire', 'baseline')}` : ''}`,
);

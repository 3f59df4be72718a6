#!/usr/bin/env node
// Benchmark of replay (docs/performance.md#replay): `view --json`, `view --no-tui` and `report` on generated
// captures (bench/gen-captures.mjs), against a floor that streams the same capture, parses each record,
// decodes its bytes and JSON.parses every line (bench/clients/replay-floor.mjs), and against an output floor
// that does the same and also writes what `view --json` writes, with no framer and no rules
// (bench/clients/replay-floor-output.mjs). Within a repetition the commands take turns (order rotated);
// printed: median wall time and peak RSS of each, and the median of per-repetition time ratios to the floor,
// for wall time and for CPU time (user + sys, from GNU time: steadier than wall time when other work shares
// the machine), and the CPU-time ratio to the output floor (what the analysis adds beyond the output).
// Targets (against the plain floor): ≤ 3× the floor; peak RSS < 200 MiB at every size.
// Usage: npm run bench:replay [-- --frames 10000,100000,1000000] [--huge] [--repeat N] [--dir DIR]
//   [--commands view-json,view-plain,report]
// (default: 10k, 100k and 1M frames and all three commands; --huge adds the 40 × 5 MB capture, ~280 MB; 1M frames
// is ~500 MB)
// Env: MCP_WIRE_BIN (default bin/mcp-wire.js); MCP_WIRE_BASELINE_BIN=<another build>/bin/mcp-wire.js adds each
// command run by that build (`… (before)`), in the same turns: a change measured before and after in one run.

import {spawn, spawnSync} from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = process.env.MCP_WIRE_BIN ?? path.join(ROOT, 'bin', 'mcp-wire.js');
const arg = (name, fallback) => {
	const i = process.argv.indexOf(name);
	return i > 0 ? process.argv[i + 1] : fallback;
};
const DIR = arg('--dir', path.join(os.tmpdir(), 'mcp-wire-captures'));
const FRAMES = arg('--frames', '10000,100000,1000000').split(',');
const REPEAT = Number(arg('--repeat', '3'));
const HUGE = process.argv.includes('--huge');
const BASELINE = process.env.MCP_WIRE_BASELINE_BIN;
/** The commands timed against the floor, by `--commands` name. */
const COMMANDS = {
	'view-json': {name: 'view --json', args: ['view', '--json']},
	'view-plain': {name: 'view --no-tui', args: ['view', '--no-tui', '--color', 'never']},
	report: {name: 'report', args: ['report']},
};
const chosen = arg('--commands', Object.keys(COMMANDS).join(',')).split(',');
for (const name of chosen)
	if (!(name in COMMANDS)) {
		process.stderr.write(`replay.bench: unknown command ${name} (one of ${Object.keys(COMMANDS).join(', ')})\n`);
		process.exit(2);
	}

const gen = spawnSync(
	process.execPath,
	[
		path.join(ROOT, 'bench', 'gen-captures.mjs'),
		'--dir',
		DIR,
		'--frames',
		FRAMES.join(','),
		...(HUGE ? [] : ['--no-huge']),
	],
	{stdio: 'inherit'},
);
if (gen.status !== 0) process.exit(1);

/** Run `node ...args` under GNU time; resolve {ms, cpuMs, rssMiB}. stdout is discarded. */
function timeRun(args) {
	return new Promise((resolve, reject) => {
		const t0 = process.hrtime.bigint();
		const child = spawn(
			'/usr/bin/time',
			['-f', 'RSS %M CPU %U %S', process.execPath, '--max-old-space-size=8192', ...args],
			{stdio: ['ignore', 'ignore', 'pipe']},
		);
		let err = '';
		child.stderr.on('data', (d) => (err += d));
		child.on('close', (code) => {
			const ms = Number(process.hrtime.bigint() - t0) / 1e6;
			const rss = /RSS (\d+)/.exec(err);
			const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(err);
			if (code !== 0 && code !== 1) reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(-500)}`));
			else
				resolve({
					ms,
					cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN,
					rssMiB: rss ? Number(rss[1]) / 1024 : NaN,
					failed: false,
				});
		});
	});
}

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const captures = [
	...FRAMES.map((n) => ({label: `${n} frames`, file: path.join(DIR, `frames-${n}.ndjson`)})),
	...(HUGE ? [{label: '40 × 5 MB', file: path.join(DIR, 'huge-5mb.ndjson')}] : []),
];
let worstRatio = 0;
let worstCpuRatio = 0;
let worstRss = 0;
for (const {label, file} of captures) {
	// The 1-minute load average before and after this capture's runs: figures from a loaded machine are noisy (prefer CPU ratios then).
	const loadBefore = os.loadavg()[0];
	const configs = [
		{name: 'floor', args: [path.join(ROOT, 'bench', 'clients', 'replay-floor.mjs'), file]},
		{name: 'output floor', args: [path.join(ROOT, 'bench', 'clients', 'replay-floor-output.mjs'), file]},
	];
	for (const command of chosen.map((name) => COMMANDS[name])) {
		configs.push({name: command.name, args: [BIN, ...command.args, file]});
		if (BASELINE !== undefined)
			configs.push({name: `${command.name} (before)`, args: [BASELINE, ...command.args, file]});
	}
	const runs = new Map(configs.map((c) => [c.name, []]));
	for (let rep = 0; rep < REPEAT; rep++) {
		for (let i = 0; i < configs.length; i++) {
			const config = configs[(i + rep) % configs.length];
			try {
				runs.get(config.name).push(await timeRun(config.args));
			} catch (error) {
				runs.get(config.name).push({ms: NaN, cpuMs: NaN, rssMiB: NaN, failed: true});
				process.stderr.write(`${config.name} on ${label}: ${error.message}\n`);
			}
		}
	}
	console.log(`${label} (${path.basename(file)}), load ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}:`);
	const floor = runs.get('floor');
	const outputFloor = runs.get('output floor');
	for (const [name, list] of runs) {
		const ratio = median(list.map((r, i) => r.ms / floor[i].ms));
		const cpuRatio = median(list.map((r, i) => r.cpuMs / floor[i].cpuMs));
		const outputRatio = median(list.map((r, i) => r.cpuMs / outputFloor[i].cpuMs));
		const rss = Math.max(...list.map((r) => r.rssMiB));
		// The baseline build is shown for comparison; the targets are this build's.
		if (!name.endsWith('floor') && !name.endsWith('(before)')) {
			worstRatio = Math.max(worstRatio, Number.isNaN(ratio) ? Infinity : ratio);
			worstCpuRatio = Math.max(worstCpuRatio, Number.isNaN(cpuRatio) ? Infinity : cpuRatio);
			worstRss = Math.max(worstRss, Number.isNaN(rss) ? Infinity : rss);
		}
		console.log(
			`  ${name.padEnd(23)} ${median(list.map((r) => r.ms))
				.toFixed(0)
				.padStart(7)} ms  ${ratio.toFixed(2).padStart(6)}× floor  CPU ${median(list.map((r) => r.cpuMs))
				.toFixed(0)
				.padStart(
					7,
				)} ms ${cpuRatio.toFixed(2).padStart(6)}× floor ${outputRatio.toFixed(2).padStart(5)}× output floor  peak RSS ${rss.toFixed(0)} MiB${list.some((r) => r.failed) ? '  (FAILED runs)' : ''}`,
		);
	}
	for (const [name, list] of runs) {
		const before = runs.get(`${name} (before)`);
		if (before === undefined) continue;
		const ratio = median(list.map((r, i) => r.ms / before[i].ms));
		const cpuRatio = median(list.map((r, i) => r.cpuMs / before[i].cpuMs));
		console.log(`  ${name}: this build / before ${ratio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU`);
	}
}
console.log(
	`worst time ratio to the floor: ${worstRatio.toFixed(2)} (target ≤ 3) ${worstRatio <= 3 ? 'PASS' : 'FAIL'}`,
);
console.log(
	`worst CPU-time ratio to the floor: ${worstCpuRatio.toFixed(2)} (target ≤ 3) ${worstCpuRatio <= 3 ? 'PASS' : 'FAIL'}`,
);
console.log(`worst peak RSS: ${worstRss.toFixed(0)} MiB (target < 200) ${worstRss < 200 ? 'PASS' : 'FAIL'}`);

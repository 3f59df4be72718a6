#!/usr/bin/env node
// Benchmark of `mcp-wire doctor` over many slow-starting servers (docs/performance.md#doctor: "16 slow-starting servers
// take four waves"). Each server waits 1 s before it answers (like an interpreter importing its SDK),
// then answers at once. In one run these take turns within every repetition (order rotated):
//
//   floor     doctor on ONE such server: the best a parallel run can do (one probe's time)
//   jobs 16   doctor --jobs 16 on 16 servers: the parallel path, all at once
//   default   doctor on 16 servers with the default --jobs
//   jobs 4    doctor --jobs 4 on 16 servers (the old default: four waves)
//
// Printed: the median wall time of each (ms) and the median of the per-repetition ratios to the floor.
// Targets: jobs 16 ≤ 1.5× the floor (the parallel path adds little to one probe), default < jobs 4.
// Usage: npm run bench:doctor [-- --repeat N]   Env: MCP_WIRE_BIN, BENCH_REPEAT (default 5), BENCH_SERVERS (default 16).

import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = process.env.MCP_WIRE_BIN ?? path.join(ROOT, 'bin', 'mcp-wire.js');
const repeatArg = process.argv.indexOf('--repeat');
const REPEAT = Number(repeatArg > 0 ? process.argv[repeatArg + 1] : (process.env.BENCH_REPEAT ?? 5));
const SERVERS = Number(process.env.BENCH_SERVERS ?? 16);
const STARTUP_MS = 1000;

const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-doctor-bench-'));
const server = path.join(dir, 'slow-start.cjs');
writeFileSync(
	server,
	`let buf = '';
let ready = false;
const pending = [];
const answer = (msg) => {
  if (msg.id === undefined) return;
  const result = msg.method === 'initialize' ? {protocolVersion: msg.params.protocolVersion, capabilities: {tools: {}}, serverInfo: {name: 's', version: '1'}} : msg.method === 'tools/list' ? {tools: []} : {};
  process.stdout.write(JSON.stringify({jsonrpc: '2.0', id: msg.id, result}) + '\\n');
};
setTimeout(() => { ready = true; pending.splice(0).forEach(answer); }, ${STARTUP_MS});
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\\n')) !== -1) {
    const msg = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (ready) answer(msg); else pending.push(msg);
  }
});
process.stdin.on('end', () => process.exit(0));
`,
);
/** A Claude Desktop config of `count` such servers; returns its path. */
function config(count) {
	const file = path.join(dir, `claude_desktop_config-${count}.json`);
	const servers = Object.fromEntries(
		Array.from({length: count}, (_, i) => [`s${i}`, {command: process.execPath, args: [server]}]),
	);
	writeFileSync(file, JSON.stringify({mcpServers: servers}));
	return file;
}
const one = config(1);
const many = config(SERVERS);
const doctor = (file, extra) => [
	BIN,
	'doctor',
	'--config',
	file,
	'--client',
	'claude-desktop',
	'--no-capture',
	'--yes',
	'--timeout',
	'30000',
	...extra,
];

const configs = [
	{name: 'floor', args: doctor(one, [])},
	{name: `jobs ${SERVERS}`, args: doctor(many, ['--jobs', String(SERVERS)])},
	{name: 'default', args: doctor(many, [])},
	{name: 'jobs 4', args: doctor(many, ['--jobs', '4'])},
];

/** Run `node ...args` to its exit; resolve the wall time in ms. Rejects on a non-zero exit (the run is void). */
function timeRun(args) {
	return new Promise((resolve, reject) => {
		const t0 = process.hrtime.bigint();
		const child = spawn(process.execPath, args, {stdio: ['ignore', 'ignore', 'pipe']});
		let err = '';
		child.stderr.on('data', (d) => (err += d));
		child.on('close', (code) => {
			const ms = Number(process.hrtime.bigint() - t0) / 1e6;
			if (code === 0) resolve(ms);
			else reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
		});
	});
}

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

try {
	await timeRun(configs[0].args); // warm-up, not counted
	const times = new Map(configs.map((c) => [c.name, []]));
	for (let rep = 0; rep < REPEAT; rep++) {
		const order = configs.map((_, i) => configs[(i + rep) % configs.length]);
		for (const c of order) times.get(c.name).push(await timeRun(c.args));
	}
	const floor = times.get('floor');
	const ratio = (name) => median(times.get(name).map((ms, i) => ms / floor[i]));
	console.log(`doctor bench: ${REPEAT} interleaved repetitions, ${SERVERS} servers that start in ${STARTUP_MS} ms`);
	for (const [name, list] of times)
		console.log(
			`  ${name.padEnd(9)} median ${median(list).toFixed(0).padStart(6)} ms   ${ratio(name).toFixed(2)}× floor`,
		);
	const parallel = ratio(`jobs ${SERVERS}`);
	console.log(`jobs ${SERVERS} / floor: ${parallel.toFixed(2)} (target ≤ 1.50) ${parallel <= 1.5 ? 'PASS' : 'FAIL'}`);
	const byDefault = median(times.get('default').map((ms, i) => ms / times.get('jobs 4')[i]));
	console.log(`default / jobs 4: ${byDefault.toFixed(2)} (target < 1.00) ${byDefault < 1 ? 'PASS' : 'FAIL'}`);
} finally {
	rmSync(dir, {recursive: true, force: true});
}

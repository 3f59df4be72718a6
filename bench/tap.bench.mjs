#!/usr/bin/env node
// Benchmark of `mcp-wire tap` (docs/performance.md#tap-forwarding-and-capture): in one run, the tap against a bare relay (a
// process that only pipes bytes) and against a direct pipe.
//
//   throughput  256 MiB client→server and 256 MiB server→client, MB/s, as a ratio to the relay (target ≥ 0.9)
//   latency     ping-pong round trips of a JSON-RPC request/response pair, 10,000 messages, p50/p99
//               (target: the tap adds at most 25% over the relay), after 2,000 uncounted warm-up round
//               trips (JIT and worker start-up; the same for every config; their p99 is printed apart)
//   memory      peak RSS (VmHWM) of the tap process during a 1 GiB server→client transfer (target < 150 MiB)
//
// The tap runs as shipped: capture on (written to a temporary XDG state dir), live socket on. Configs
// take turns within each repetition (order rotated), so a machine that gets busier or quieter mid-run
// shifts them all; ratios are medians of per-repetition ratios (docs/performance.md#tap-forwarding-and-capture).
// The floor for "forward and record" is `relay+file`: the bare relay that also appends the raw bytes of
// both directions to a file. Pass/fail comes from the tap as users run it, and only counts when its
// capture is complete: a run whose capture stopped (fell too far behind) fails the throughput and the
// memory targets, whatever its speed. One more figure, `tap (whole)`: the tap with
// MCP_WIRE_CAPTURE_LAG_MB raised so that the capture keeps every byte: what a complete capture costs.
// The long stream (docs/performance.md#tap-forwarding-and-capture): the 1 GiB S→C transfer runs BENCH_LONG_REPEAT times (default 3; 1
// with --quick, whose stream is 256 MiB), each time beside the relay+file floor on the same stream (order
// rotated); per run: the tap's peak RSS, bytes captured and bytes in gap records (read from the capture's
// end record), and its throughput as a ratio to the floor of that repetition; medians and the worst case.
// --long-only runs just that part.
// The tap pauses reading a source while its capture has no room (at most --capture-wait ms, default
// 2000): each capture's end record counts those waits (`stalls`), printed per long-stream run.
// MCP_WIRE_BASELINE_BIN=<another build's bin/mcp-wire.js> adds `tap (before)`, run as shipped by that build,
// interleaved with the others in both parts (before/after in the same run).
// --short-only runs the throughput and ping-pong part without the long stream.
// Usage: npm run build && node bench/tap.bench.mjs [--quick] [--mb N] [--line BYTES] [--long-only | --short-only]
// Env: MCP_WIRE_BIN (default bin/mcp-wire.js), BENCH_REPEAT (default 5; the median is reported),
// BENCH_LONG_REPEAT (default 3), MCP_WIRE_BASELINE_BIN.

import {spawn} from 'node:child_process';
import {
	closeSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readFileSync,
	readSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = process.env.MCP_WIRE_BIN ?? path.join(ROOT, 'bin', 'mcp-wire.js');
const BASELINE_BIN = process.env.MCP_WIRE_BASELINE_BIN;
const QUICK = process.argv.includes('--quick');
const MIB = 1024 * 1024;
const argNumber = (name, fallback) => {
	const i = process.argv.indexOf(name);
	return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const THROUGHPUT_BYTES = argNumber('--mb', QUICK ? 32 : 128) * MIB;
const RSS_BYTES = (QUICK ? 256 : 1024) * MIB;
const PINGS = QUICK ? 2000 : 10_000;
const WARMUP_PINGS = QUICK ? 500 : 2000;
const REPEAT = Number(process.env.BENCH_REPEAT ?? (QUICK ? 1 : 5));
const LONG_REPEAT = Number(process.env.BENCH_LONG_REPEAT ?? (QUICK ? 1 : 3));
const LONG_ONLY = process.argv.includes('--long-only');
const SHORT_ONLY = process.argv.includes('--short-only');
// The line length of the bulk streams (docs/performance.md#tap-forwarding-and-capture: 1 KiB and 64 KiB lines).
const BLOCK = argNumber('--line', 64 * 1024);

const work = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-bench-'));
const env = {...process.env, XDG_STATE_HOME: path.join(work, 'state'), XDG_RUNTIME_DIR: path.join(work, 'run')};
mkdirSync(env.XDG_RUNTIME_DIR, {mode: 0o700});
const captures = path.join(env.XDG_STATE_HOME, 'mcp-wire', 'captures');

// The server: `sink` counts stdin until EOF then says `done N`; `source N` waits for one line, then
// writes N bytes (64 KiB lines) with backpressure; `echo` answers each request line with a response line.
const SERVER = path.join(work, 'server.mjs');
writeFileSync(
	SERVER,
	`
const mode = process.argv[2];
if (mode === 'sink') {
  let n = 0;
  process.stdout.write('ready\\n');
  process.stdin.on('data', (d) => { n += d.length; });
  process.stdin.on('end', () => process.stdout.write('done ' + n + '\\n'));
} else if (mode === 'source') {
  const total = Number(process.argv[3]);
  const block = Buffer.alloc(${BLOCK}, 0x61); block[block.length - 1] = 0x0a;
  process.stdout.write('ready\\n');
  process.stdin.once('data', () => {
    let left = total;
    const pump = () => {
      while (left > 0) {
        const piece = left >= block.length ? block : block.subarray(0, left);
        left -= piece.length;
        if (!process.stdout.write(piece)) { process.stdout.once('drain', pump); return; }
      }
      process.stdout.end();
    };
    pump();
  });
  process.stdin.resume();
} else {
  let buf = '';
  process.stdout.write('ready\\n');
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\\n')) !== -1) {
      const line = buf.slice(0, i); buf = buf.slice(i + 1);
      const id = line.slice(line.indexOf('"id":') + 5, line.indexOf(',"method"'));
      process.stdout.write('{"jsonrpc":"2.0","id":' + id + ',"result":{}}\\n');
    }
  });
}
`,
);

// The floor for forward-and-record: the relay that also appends every raw byte of both directions to a file.
const RELAY_FILE = path.join(work, 'relay-file.mjs');
writeFileSync(
	RELAY_FILE,
	`
import {spawn} from 'node:child_process';
import {createWriteStream} from 'node:fs';
const file = createWriteStream(process.env.RELAY_FILE_OUT, {flags: 'a'});
const child = spawn(process.argv[2], process.argv.slice(3), {stdio: ['pipe', 'pipe', 'inherit']});
process.stdin.on('data', (d) => { file.write(d); child.stdin.write(d); });
process.stdin.on('end', () => child.stdin.end());
child.stdout.on('data', (d) => { file.write(d); process.stdout.write(d); });
child.on('exit', (code) => { process.exitCode = code ?? 1; });
`,
);

// The bare relay: pipes stdin → child stdin and child stdout → stdout, nothing else.
const RELAY = path.join(work, 'relay.mjs');
writeFileSync(
	RELAY,
	`
import {spawn} from 'node:child_process';
const child = spawn(process.argv[2], process.argv.slice(3), {stdio: ['pipe', 'pipe', 'inherit']});
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('exit', (code) => { process.exitCode = code ?? 1; });
`,
);

const CONFIGS = {
	direct: (args) => ['node', [SERVER, ...args]],
	relay: (args) => ['node', [RELAY, 'node', SERVER, ...args]],
	'relay+file': (args) => ['node', [RELAY_FILE, 'node', SERVER, ...args]],
	tap: (args) => ['node', [BIN, 'tap', '--name', 'bench', '--', 'node', SERVER, ...args]],
	'tap (whole)': (args) => ['node', [BIN, 'tap', '--name', 'bench', '--', 'node', SERVER, ...args]],
	...(BASELINE_BIN === undefined
		? {}
		: {'tap (before)': (args) => ['node', [BASELINE_BIN, 'tap', '--name', 'bench', '--', 'node', SERVER, ...args]]}),
};
const CONFIG_ENV = {
	'tap (whole)': {MCP_WIRE_CAPTURE_LAG_MB: String((2 * THROUGHPUT_BYTES) / MIB)},
	'relay+file': {RELAY_FILE_OUT: path.join(work, 'relay-file.out')},
};

function start(config, args) {
	const [file, argv] = CONFIGS[config](args);
	const child = spawn(file, argv, {env: {...env, ...CONFIG_ENV[config]}, stdio: ['pipe', 'pipe', 'pipe']});
	let stderr = '';
	child.stderr.on('data', (d) => (stderr += d));
	const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({code, signal})));
	return {child, exited, stderr: () => stderr};
}

/** Resolve with the first line on stdout (and the rest of that read). */
function firstLine(stream) {
	return new Promise((resolve) => {
		let text = '';
		const onData = (d) => {
			text += d;
			const i = text.indexOf('\n');
			if (i === -1) return;
			stream.off('data', onData);
			resolve({line: text.slice(0, i), rest: text.slice(i + 1)});
		};
		stream.on('data', onData);
	});
}

function clearCaptures() {
	rmSync(captures, {recursive: true, force: true});
	rmSync(path.join(work, 'relay-file.out'), {force: true});
}

/** The end record of the (single) capture in the capture directory, undefined when there is none or it was cut short. */
async function captureEnd() {
	const {readCaptureEnd} = await import(
		pathToFileURL(path.join(ROOT, 'dist', 'core', 'capture', 'binary-codec.js')).href
	);
	let files;
	try {
		files = readdirSync(captures);
	} catch {
		return undefined;
	}

	if (files.length !== 1) return undefined;
	const file = path.join(captures, files[0]);
	const size = statSync(file).size;
	const length = Math.min(size, 64 * 1024);
	const fd = openSync(file, 'r');
	try {
		const tail = Buffer.alloc(length);
		readSync(fd, tail, 0, length, size - length);
		return readCaptureEnd(tail);
	} finally {
		closeSync(fd);
	}
}

function captureInfo() {
	try {
		const files = readdirSync(captures);
		return files.reduce((n, f) => n + statSync(path.join(captures, f)).size, 0);
	} catch {
		return 0;
	}
}

/** Client → server: write `bytes` into stdin, wait for the server's `done`. */
async function throughputUp(config, bytes) {
	clearCaptures();
	const run = start(config, ['sink']);
	await firstLine(run.child.stdout);
	const block = Buffer.alloc(BLOCK, 0x62);
	block[block.length - 1] = 0x0a;
	const t0 = performance.now();
	const done = firstLine(run.child.stdout);
	let left = bytes;
	while (left > 0) {
		const piece = left >= BLOCK ? block : block.subarray(0, left);
		left -= piece.length;
		if (!run.child.stdin.write(piece)) await new Promise((resolve) => run.child.stdin.once('drain', resolve));
	}

	run.child.stdin.end();
	const {line} = await done;
	const seconds = (performance.now() - t0) / 1000;
	await run.exited;
	if (line !== `done ${bytes}`) throw new Error(`${config}: server saw "${line}"`);
	return {mbps: bytes / MIB / seconds, stderr: run.stderr(), capture: captureInfo()};
}

/** Server → client: ask the server for `bytes`, read stdout to EOF. */
async function throughputDown(config, bytes, onPid) {
	clearCaptures();
	const run = start(config, ['source', String(bytes)]);
	onPid?.(run.child.pid);
	const {rest} = await firstLine(run.child.stdout);
	let received = Buffer.byteLength(rest);
	const t0 = performance.now();
	// Count bytes rather than wait for EOF: a bare relay (like Node's process.stdout) never forwards EOF
	// while it runs.
	let onAll;
	const all = new Promise((resolve) => (onAll = resolve));
	run.child.stdout.on('data', (d) => {
		received += d.length;
		if (received >= bytes) onAll();
	});
	run.child.stdout.on('end', () => onAll());
	run.child.stdin.write('go\n');
	await all;
	const seconds = (performance.now() - t0) / 1000;
	run.child.stdin.end();
	await run.exited;
	if (received !== bytes) throw new Error(`${config}: received ${received} of ${bytes} bytes`);
	return {
		mbps: bytes / MIB / seconds,
		stderr: run.stderr(),
		capture: captureInfo(),
		end: config.startsWith('tap') ? await captureEnd() : undefined,
	};
}

/** Ping-pong: one request, wait for its response; WARMUP_PINGS, then PINGS counted; round-trip times in µs. */
async function pingPong(config) {
	clearCaptures();
	const run = start(config, ['echo']);
	await firstLine(run.child.stdout);
	const total = WARMUP_PINGS + PINGS;
	const times = new Float64Array(total);
	let pending;
	let buf = '';
	run.child.stdout.setEncoding('utf8');
	run.child.stdout.on('data', (d) => {
		buf += d;
		if (buf.endsWith('\n')) {
			buf = '';
			pending?.();
		}
	});
	for (let i = 0; i < total; i++) {
		const t0 = performance.now();
		const answered = new Promise((resolve) => (pending = resolve));
		run.child.stdin.write(`{"jsonrpc":"2.0","id":${i},"method":"ping","params":{}}\n`);
		await answered;
		times[i] = (performance.now() - t0) * 1000;
	}

	run.child.stdin.end();
	await run.exited;
	const warm = times.slice(0, WARMUP_PINGS).sort();
	const counted = times.slice(WARMUP_PINGS).sort();
	return {
		p50: counted[Math.floor(PINGS * 0.5)],
		p99: counted[Math.floor(PINGS * 0.99)],
		warmP99: warm[Math.floor(WARMUP_PINGS * 0.99)],
	};
}

/** Peak RSS (VmHWM, bytes) of `pid`, sampled until `done` settles (Linux /proc; `ps` elsewhere). */
function watchRss(getPid, done) {
	let peak = 0;
	const sample = () => {
		const pid = getPid();
		if (pid === undefined) return;
		try {
			const status = readFileSync(`/proc/${pid}/status`, 'utf8');
			const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
			if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
		} catch {
			// gone, or not Linux
		}
	};
	const timer = setInterval(sample, 20);
	return done.then((result) => {
		clearInterval(timer);
		return {...result, peakRss: peak};
	});
}

/**
 * Whether the tap said its capture is complete: no stop (format 1 taps stop at the lag limit: "capture
 * stopped") and no gap (format 2 taps say "the capture is incomplete" when a gap record was written).
 */
const isCaptureComplete = (stderr) =>
	!stderr.includes('capture stopped') && !stderr.includes('the capture is incomplete');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n, digits = 0) => n.toFixed(digits).padStart(8);

/** The throughput (THROUGHPUT_BYTES each way) and ping-pong sections, all configs interleaved. */
async function shortStreams(warnings) {
	const runs = Object.fromEntries(Object.keys(CONFIGS).map((config) => [config, {up: [], down: [], pp: []}]));
	const capture = {runs: 0, complete: 0, largest: 0};
	const wholeCapture = {runs: 0, complete: 0};
	const note = (config, result) => {
		for (const line of result.stderr.split('\n')) if (line.trim() !== '') warnings.add(`${config}: ${line}`);
		if (config === 'tap (whole)') {
			wholeCapture.runs++;
			if (isCaptureComplete(result.stderr)) wholeCapture.complete++;
		}
		if (config !== 'tap') return;
		capture.runs++;
		if (isCaptureComplete(result.stderr)) capture.complete++;
		capture.largest = Math.max(capture.largest, result.capture);
	};
	// Configs take turns within each repetition, order rotated (drift in the machine's load hits them all alike).
	const names = Object.keys(CONFIGS);
	for (let i = 0; i < REPEAT; i++) {
		for (let k = 0; k < names.length; k++) {
			const config = names[(k + i) % names.length];
			const u = await throughputUp(config, THROUGHPUT_BYTES);
			const d = await throughputDown(config, THROUGHPUT_BYTES);
			runs[config].up.push(u.mbps);
			runs[config].down.push(d.mbps);
			note(config, u);
			note(config, d);
		}
	}

	for (let i = 0; i < REPEAT; i++) {
		for (const config of ['direct', 'relay', 'tap', ...(BASELINE_BIN === undefined ? [] : ['tap (before)'])])
			runs[config].pp.push(await pingPong(config));
	}

	const results = {};
	for (const [config, r] of Object.entries(runs)) {
		results[config] = {
			up: median(r.up),
			down: median(r.down),
			...(r.pp.length === 0
				? {}
				: {
						p50: median(r.pp.map((p) => p.p50)),
						p99: median(r.pp.map((p) => p.p99)),
						warmP99: median(r.pp.map((p) => p.warmP99)),
					}),
		};
	}

	const {direct, relay, tap} = results;
	const whole = results['tap (whole)'];
	const floor = results['relay+file'];
	// Medians of per-repetition ratios to the forward-and-record floor.
	const ratioTo = (config, dir) => median(runs[config][dir].map((v, i) => v / runs['relay+file'][dir][i]));
	console.log('');
	console.log(`throughput (${THROUGHPUT_BYTES / MIB} MiB each way in ${BLOCK}-byte lines, median of ${REPEAT}, MB/s)`);
	console.log('                 C→S      S→C');
	const before = results['tap (before)'];
	for (const [name, r] of [
		['direct', direct],
		['relay', relay],
		['relay+file', floor],
		['tap', tap],
		['tap (whole)', whole],
		...(before ? [['tap (before)', before]] : []),
	])
		console.log(`  ${name.padEnd(11)}${fmt(r.up)} ${fmt(r.down)}`);
	const upRatio = ratioTo('tap', 'up');
	const downRatio = ratioTo('tap', 'down');
	const isComplete = capture.complete === capture.runs;
	console.log(
		`  tap captures complete in ${capture.complete} of ${capture.runs} runs (largest ${(capture.largest / MIB).toFixed(1)} MiB for ${THROUGHPUT_BYTES / MIB} MiB of traffic)`,
	);
	console.log(
		`  tap / relay+file ${fmt(upRatio, 2)} ${fmt(downRatio, 2)}   target ≥ 0.90 with every capture complete: ${upRatio >= 0.9 && downRatio >= 0.9 && isComplete ? 'PASS' : `FAIL${isComplete ? '' : ' (captures stopped)'}`}`,
	);
	if (before)
		console.log(
			`  tap (before) / relay+file ${ratioTo('tap (before)', 'up').toFixed(2)} ${ratioTo('tap (before)', 'down').toFixed(2)}   (${BASELINE_BIN})`,
		);
	console.log(
		`  tap (whole) / relay+file ${ratioTo('tap (whole)', 'up').toFixed(2)} ${ratioTo('tap (whole)', 'down').toFixed(2)}   (lag limit raised to ${CONFIG_ENV['tap (whole)'].MCP_WIRE_CAPTURE_LAG_MB} MiB; complete in ${wholeCapture.complete} of ${wholeCapture.runs}: what a complete capture costs)`,
	);
	console.log('');
	console.log(`ping-pong round trip (${PINGS} messages after ${WARMUP_PINGS} warm-up, median of ${REPEAT}, µs)`);
	console.log('              p50      p99   warm-up p99');
	for (const [name, r] of [
		['direct', direct],
		['relay', relay],
		['tap', tap],
		...(before ? [['tap (before)', before]] : []),
	])
		console.log(`  ${name.padEnd(8)}${fmt(r.p50, 1)} ${fmt(r.p99, 1)} ${fmt(r.warmP99, 1)}`);
	const p50Over = tap.p50 / relay.p50 - 1;
	const p99Over = tap.p99 / relay.p99 - 1;
	console.log(
		`  tap over relay  ${(p50Over * 100).toFixed(1)}%  ${(p99Over * 100).toFixed(1)}%   target ≤ 25%: ${p50Over <= 0.25 && p99Over <= 0.25 ? 'PASS' : 'FAIL'}   (warm-up p99 ${((tap.warmP99 / relay.warmP99 - 1) * 100).toFixed(1)}%, not a target)`,
	);
	const p50Added = tap.p50 - relay.p50;
	console.log(`  tap p50 − relay p50: ${p50Added.toFixed(1)} µs   target ≤ 50 µs: ${p50Added <= 50 ? 'PASS' : 'FAIL'}`);
	if (before) console.log(`  tap (before) p50 − relay p50: ${(before.p50 - relay.p50).toFixed(1)} µs`);
}

/**
 * The long stream: RSS_BYTES S→C through the tap, LONG_REPEAT times, each beside the relay+file floor
 * (and `tap (before)` when MCP_WIRE_BASELINE_BIN is set; order rotated), then the bare relay once for
 * its RSS. Prints one line per tap run and the medians and worst case: peak RSS, bytes captured and in
 * gaps (the capture's end record), the tap's waits for its capture (end record `stalls`), throughput / floor.
 */
async function longStream(warnings) {
	const taps = ['tap', ...(BASELINE_BIN === undefined ? [] : ['tap (before)'])];
	const runsOf = Object.fromEntries(taps.map((config) => [config, []]));
	const floorRuns = [];
	const order = ['relay+file', ...taps];
	for (let i = 0; i < LONG_REPEAT; i++) {
		for (let k = 0; k < order.length; k++) {
			const config = order[(k + i) % order.length];
			let pid;
			const result = await watchRss(
				() => pid,
				throughputDown(config, RSS_BYTES, (p) => (pid = p)),
			);
			for (const line of result.stderr.split('\n'))
				if (line.trim() !== '')
					warnings.add(
						`${config} (${RSS_BYTES / MIB} MiB): ${line.replace(/\(\/[^)]*\)$/, '(…)').replace(/\d+ (ms|bytes|times)/g, 'N $1')}`,
					);
			(config === 'relay+file' ? floorRuns : runsOf[config]).push(result);
		}
	}

	let relayPid;
	const relayRss = await watchRss(
		() => relayPid,
		throughputDown('relay', RSS_BYTES, (pid) => (relayPid = pid)),
	);
	for (const config of taps) {
		console.log('');
		console.log(
			`long stream (${config}): ${RSS_BYTES / MIB} MiB S→C in ${BLOCK}-byte lines, ${LONG_REPEAT} runs beside the relay+file floor (peak RSS = VmHWM)`,
		);
		console.log(
			'  run   captured MiB   gap bytes   peak RSS MiB   MB/s   floor MB/s   tap/floor   waits (ms in all, longest)',
		);
		const rows = runsOf[config].map((run, i) => {
			const recorded = run.end ? run.end.recorded.stdin + run.end.recorded.stdout + run.end.recorded.stderr : 0;
			const missing = run.end ? run.end.missing.stdin + run.end.missing.stdout + run.end.missing.stderr : Number.NaN;
			const complete =
				run.end?.complete === true && isCaptureComplete(run.stderr) && run.end.recorded.stdout >= RSS_BYTES;
			const stalls = run.end?.stalls;
			const row = {
				recorded,
				missing,
				complete,
				rss: run.peakRss,
				mbps: run.mbps,
				ratio: run.mbps / floorRuns[i].mbps,
				stalls,
			};
			const waits =
				stalls === undefined
					? '0'
					: `${stalls.count} (${stalls.totalMs}, ${stalls.longestMs})${stalls.timedOut > 0 ? `, ${stalls.timedOut} ran out` : ''}`;
			console.log(
				`  ${String(i + 1).padStart(3)} ${fmt(recorded / MIB, 1).padStart(14)} ${String(run.end ? missing : 'no end record').padStart(11)} ${fmt(row.rss / MIB, 1).padStart(14)} ${fmt(row.mbps)} ${fmt(floorRuns[i].mbps).padStart(12)} ${fmt(row.ratio, 2).padStart(11)}   ${waits}${complete ? '' : '   INCOMPLETE'}`,
			);
			return row;
		});
		const completeRuns = rows.filter((row) => row.complete).length;
		const worstRss = Math.max(...rows.map((row) => row.rss));
		const worstRatio = Math.min(...rows.map((row) => row.ratio));
		const worstMissing = Math.max(...rows.map((row) => (Number.isNaN(row.missing) ? Infinity : row.missing)));
		const longest = Math.max(0, ...rows.map((row) => row.stalls?.longestMs ?? 0));
		console.log(
			`  median: peak RSS ${(median(rows.map((row) => row.rss)) / MIB).toFixed(1)} MiB, tap/floor ${median(rows.map((row) => row.ratio)).toFixed(2)}, gap bytes ${median(rows.map((row) => row.missing))}`,
		);
		console.log(
			`  worst:  peak RSS ${(worstRss / MIB).toFixed(1)} MiB, tap/floor ${worstRatio.toFixed(2)}, gap bytes ${worstMissing}, longest wait ${longest} ms; captures complete in ${completeRuns} of ${rows.length}`,
		);
		const isMeasured = worstRss > 0;
		console.log(
			`  target: every capture complete, peak RSS < 150 MiB in every run: ${!isMeasured ? 'n/a (no /proc)' : completeRuns === rows.length && worstRss < 150 * MIB ? 'PASS' : 'FAIL'}   (throughput: median tap/floor ${median(rows.map((row) => row.ratio)).toFixed(2)}, target ≥ 0.90: ${median(rows.map((row) => row.ratio)) >= 0.9 ? 'PASS' : 'FAIL'})`,
		);
	}

	console.log(
		`  relay ${(relayRss.peakRss / MIB).toFixed(1)} MiB at ${relayRss.mbps.toFixed(0)} MB/s; relay+file ${(median(floorRuns.map((run) => run.peakRss)) / MIB).toFixed(1)} MiB (median)`,
	);
}

async function main() {
	console.log(
		`mcp-wire tap benchmark · Node ${process.version} · ${os.cpus().length} CPUs · ${os.platform()}-${os.arch()}${QUICK ? ' · QUICK' : ''}`,
	);
	console.log(`cli: ${BIN}`);
	const warnings = new Set();
	if (!LONG_ONLY) await shortStreams(warnings);
	if (!SHORT_ONLY) await longStream(warnings);
	if (warnings.size > 0) {
		console.log('');
		console.log('stderr of the runs:');
		for (const warning of warnings) console.log(`  ${warning}`);
	}
}

try {
	await main();
} finally {
	rmSync(work, {recursive: true, force: true});
}

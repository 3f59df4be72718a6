#!/usr/bin/env node
// Where a replay spends its time (docs/performance.md#replay): the stages of `view --json` run alone, each in a
// process of its own, as CPU time (user + system) in the process after its modules are loaded:
//   floor    bench/clients/replay-floor.mjs's work, in this process
//   decode   read the capture and decode its records (captures/attach.ts readRecordFile), nothing else
//   session  + the replay: framer, classifier, correlator, rules (retain: false, as `view --json` runs it)
//   encode   + every record the session emits encoded as `--json` writes it (encodeEventInPieces), not written
// The stages take turns in every repetition; printed: the median CPU time of each and its median ratio to the
// floor, so each stage's share is the difference to the one before.
// Usage: npm run build && node bench/replay-stages.mjs [--frames 1000000] [--repeat 3] [--dir DIR]
// Env: MCP_WIRE_DIST (default dist/): the build to time.
// Internal: node bench/replay-stages.mjs --stage NAME FILE (one stage, prints its CPU ms).

import {spawnSync} from 'node:child_process';
import {createReadStream} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = process.env.MCP_WIRE_DIST ?? path.join(ROOT, 'dist');
const STAGES = ['floor', 'decode', 'session', 'encode'];
const arg = (name, fallback) => {
	const i = process.argv.indexOf(name);
	return i > 0 ? process.argv[i + 1] : fallback;
};

/** The floor's work (bench/clients/replay-floor.mjs), in this process. */
async function floor(file) {
	const pending = {stdin: '', stdout: '', stderr: ''};
	let rest = '';
	const onRecord = (text) => {
		const record = JSON.parse(text);
		if (record.type !== 'chunk') return;
		let data = pending[record.stream] + Buffer.from(record.base64, 'base64').toString('utf8');
		let nl;
		while ((nl = data.indexOf('\n')) >= 0) {
			const line = data.slice(0, nl);
			data = data.slice(nl + 1);
			if (record.stream !== 'stderr' && line.length > 0) JSON.parse(line);
		}
		pending[record.stream] = data;
	};
	for await (const chunk of createReadStream(file, {encoding: 'utf8'})) {
		const text = rest + chunk;
		let start = 0;
		let nl;
		while ((nl = text.indexOf('\n', start)) >= 0) {
			onRecord(text.slice(start, nl));
			start = nl + 1;
		}
		rest = text.slice(start);
	}
	if (rest.length > 0) onRecord(rest);
}

/** One stage on `file`; resolves with its CPU time in ms (module loading not counted). */
async function runStage(stage, file) {
	const load = (module) => import(pathToFileURL(path.join(DIST, module)).href);
	const {readRecordFile} = await load('captures/attach.js');
	const {createReplay} = await load('core/session/replay.js');
	const {SDK_SCHEMAS} = await load('core/jsonrpc/sdk-schemas.js');
	const {encodeEventInPieces} = await load('core/capture/record-encode-pieces.js');
	const start = process.cpuUsage();
	if (stage === 'floor') await floor(file);
	else {
		let replay;
		let written = 0;
		const write = (piece) => (written += piece.length);
		await readRecordFile(file, {
			onHeader(header) {
				if (stage === 'decode') return;
				replay = createReplay(header, {schemas: SDK_SCHEMAS, retain: false});
				if (stage === 'encode')
					replay.session.on((event) => {
						encodeEventInPieces(event, write);
						write('\n');
					});
			},
			onEvent(event) {
				replay?.feed(event);
			},
		});
		replay?.finish();
	}
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000;
}

if (process.argv[2] === '--stage') {
	process.stdout.write(`${await runStage(process.argv[3], process.argv[4])}\n`);
	process.exit(0);
}

const DIR = arg('--dir', path.join(os.tmpdir(), 'mcp-wire-captures'));
const FRAMES = arg('--frames', '1000000');
const REPEAT = Number(arg('--repeat', '3'));
const gen = spawnSync(
	process.execPath,
	[path.join(ROOT, 'bench', 'gen-captures.mjs'), '--dir', DIR, '--frames', FRAMES, '--no-huge'],
	{stdio: 'inherit'},
);
if (gen.status !== 0) process.exit(1);
const file = path.join(DIR, `frames-${FRAMES}.ndjson`);
const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const times = new Map(STAGES.map((stage) => [stage, []]));
const loadBefore = os.loadavg()[0];
for (let rep = 0; rep < REPEAT; rep++)
	for (let i = 0; i < STAGES.length; i++) {
		const stage = STAGES[(i + rep) % STAGES.length];
		const run = spawnSync(
			process.execPath,
			['--max-old-space-size=8192', fileURLToPath(import.meta.url), '--stage', stage, file],
			{encoding: 'utf8'},
		);
		if (run.status !== 0) {
			process.stderr.write(`${stage}: ${run.stderr.slice(-500)}\n`);
			process.exit(1);
		}
		times.get(stage).push(Number(run.stdout.trim()));
	}
console.log(
	`${FRAMES} frames (${path.basename(file)}), ${DIST}, load ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}:`,
);
const floorTimes = times.get('floor');
for (const [stage, list] of times)
	console.log(
		`  ${stage.padEnd(8)} CPU ${median(list).toFixed(0).padStart(7)} ms  ${median(list.map((t, i) => t / floorTimes[i]))
			.toFixed(2)
			.padStart(5)}× floor`,
	);

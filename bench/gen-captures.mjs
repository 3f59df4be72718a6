#!/usr/bin/env node
// Make the captures the replay benches read (docs/performance.md#replay): format-1 capture files written with the
// project's own record codec (dist/, so `npm run build` first), the shape `tap` writes: a session
// header, one chunk record per frame, then the exit. Not committed: they are made on demand.
//
//   frames-<N>.ndjson   N frames (N = 1k, 10k, 100k, 1M by default), half client requests on stdin,
//                       half server responses on stdout (~150-300 B lines, tools/call with text)
//   faults-<N>.ndjson   N frames (N from --faults, none by default) shaped like frames-<N>, each line ending
//                       in CRLF, so that every frame carries a finding (the TUI's memory with one finding
//                       per frame: docs/performance.md#tui-on-big-captures)
//   huge-5mb.ndjson     40 frames of 5 MB (20 requests with a 5 MB argument, 20 responses with a 5 MB
//                       text) after the initialize exchange: ~280 MB on disk (docs/performance.md#replay)
//
// Usage: node bench/gen-captures.mjs [--dir DIR] [--frames 1000,10000,...] [--faults 200000,...] [--no-huge]
// Default DIR: $TMPDIR/mcp-wire-captures. Existing files are kept (a huge-5mb.ndjson under 250 MB, from
// an older version that made only the responses big, is made again).

import {createWriteStream, existsSync, mkdirSync, statSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const {encodeEvent, encodeHeader} = await import(path.join(ROOT, 'dist', 'core', 'index.js'));

const arg = (name, fallback) => {
	const i = process.argv.indexOf(name);
	return i > 0 ? process.argv[i + 1] : fallback;
};
export const CAPTURE_DIR = arg('--dir', path.join(os.tmpdir(), 'mcp-wire-captures'));
const FRAME_COUNTS = arg('--frames', '1000,10000,100000,1000000').split(',').filter(Boolean).map(Number);
const FAULT_COUNTS = arg('--faults', '').split(',').filter(Boolean).map(Number);

const META = {
	tool: {name: 'mcp-wire', version: 'bench'},
	node: process.version,
	platform: `${process.platform}-${process.arch}`,
	command: ['node', 'server.mjs'],
	envMode: 'sdk-default',
	envKeys: [],
	mode: 'tap',
	startedAt: '2026-01-01T00:00:00.000Z',
};

/** Write one capture: `frames()` yields [stream, tMs, bytes]; the exit follows. */
async function writeCapture(file, frames) {
	const out = createWriteStream(file);
	const write = (line) => (out.write(`${line}\n`) ? undefined : new Promise((resolve) => out.once('drain', resolve)));
	await write(encodeHeader(META));
	const offsets = {stdin: 0, stdout: 0, stderr: 0};
	let seq = 0;
	let lastTMs = 0;
	for (const [stream, tMs, bytes] of frames()) {
		await write(encodeEvent({type: 'chunk', chunk: {seq: seq++, stream, tMs, offset: offsets[stream], bytes}}));
		offsets[stream] += bytes.length;
		lastTMs = tMs;
	}
	await write(encodeEvent({type: 'mark', mark: {type: 'stdin-closed', tMs: lastTMs + 1}}));
	await write(encodeEvent({type: 'mark', mark: {type: 'eof', stream: 'stdout', tMs: lastTMs + 2}}));
	await write(encodeEvent({type: 'mark', mark: {type: 'eof', stream: 'stderr', tMs: lastTMs + 2}}));
	await write(encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: lastTMs + 3}}));
	await new Promise((resolve) => out.end(resolve));
}

const line = (message) => Buffer.from(`${JSON.stringify(message)}\n`);

/** An initialize exchange, then tools/call requests and their results. */
function* exchange(pairs, textBytes) {
	let t = 0;
	yield [
		'stdin',
		(t += 1),
		line({
			jsonrpc: '2.0',
			id: 0,
			method: 'initialize',
			params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'bench', version: '0'}},
		}),
	];
	yield [
		'stdout',
		(t += 1),
		line({
			jsonrpc: '2.0',
			id: 0,
			result: {protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 'bench', version: '0'}},
		}),
	];
	yield ['stdin', (t += 0.1), line({jsonrpc: '2.0', method: 'notifications/initialized'})];
	const text = 'x'.repeat(textBytes);
	for (let id = 1; id < pairs; id++) {
		yield [
			'stdin',
			(t += 0.05),
			line({
				jsonrpc: '2.0',
				id,
				method: 'tools/call',
				params: {name: 'echo', arguments: {text: textBytes > 0 ? text : `call ${id}`}},
			}),
		];
		yield [
			'stdout',
			(t += 0.05),
			line({
				jsonrpc: '2.0',
				id,
				result: {
					content: [{type: 'text', text: textBytes > 0 ? text : `echo of call ${id}: ${'lorem ipsum '.repeat(8)}`}],
				},
			}),
		];
	}
}

mkdirSync(CAPTURE_DIR, {recursive: true});
for (const n of FRAME_COUNTS) {
	const file = path.join(CAPTURE_DIR, `frames-${n}.ndjson`);
	if (existsSync(file)) continue;
	await writeCapture(file, () => exchange(Math.ceil(n / 2), 0));
	process.stderr.write(`wrote ${file}\n`);
}
/** The same frames with CRLF line ends: a finding on every frame. */
function* withCrlf(frames) {
	for (const [stream, tMs, bytes] of frames)
		yield [stream, tMs, Buffer.concat([bytes.subarray(0, -1), Buffer.from('\r\n')])];
}

for (const n of FAULT_COUNTS) {
	const file = path.join(CAPTURE_DIR, `faults-${n}.ndjson`);
	if (existsSync(file)) continue;
	await writeCapture(file, () => withCrlf(exchange(Math.ceil(n / 2), 0)));
	process.stderr.write(`wrote ${file}\n`);
}
if (!process.argv.includes('--no-huge')) {
	const file = path.join(CAPTURE_DIR, 'huge-5mb.ndjson');
	if (!existsSync(file) || statSync(file).size < 250e6) {
		await writeCapture(file, () => exchange(21, 5 * 1024 * 1024));
		process.stderr.write(`wrote ${file}\n`);
	}
}

#!/usr/bin/env node
// Many taps at once (docs/capture-format.md#gaps-and-incomplete-captures): N taps run side by side, each with a
// server that writes M bytes to stdout while its client writes M bytes to stdin. Afterwards every
// capture is checked: it has its header, every forwarded byte is either in a chunk at its offset or
// inside a gap record of exact length, and it ends with an end record. Prints per-run totals; exits 1
// when a capture lies (bytes neither captured nor accounted for by a gap, a missing header, or bytes
// that differ from what was sent).
// Usage: npm run build && node bench/tap-concurrent.mjs [--taps N] [--mb M]
// Env: MCP_WIRE_BIN (default bin/mcp-wire.js); a build of another version works too (format 1
// captures are decoded as NDJSON and have no end record).
// Also used by test/e2e/tap-concurrent.test.ts (runConcurrentTaps) with a small, generous setting.

import {spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const MIB = 1024 * 1024;

/** Deterministic bytes (xorshift32) with an LF every ~1 KiB, so framing has lines to find. */
export function pattern(length, seed) {
	const out = Buffer.allocUnsafe(length);
	let x = seed | 0 || 1;
	for (let i = 0; i < length; i++) {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		out[i] = (i + 1) % 1024 === 0 ? 0x0a : 0x20 + ((x >>> 0) % 90);
	}

	return out;
}

const SERVER = `
const total = Number(process.argv[2]);
const seed = Number(process.argv[3]);
${pattern.toString()}
const data = pattern(total, seed);
let got = 0;
let sent = false;
process.stdin.on('data', (d) => { got += d.length; });
process.stdin.on('end', () => { if (sent) process.exit(0); else process.stdin.ended = true; });
let at = 0;
const pump = () => {
  while (at < total) {
    const piece = data.subarray(at, Math.min(total, at + 65536));
    at += piece.length;
    if (!process.stdout.write(piece)) { process.stdout.once('drain', pump); return; }
  }
  process.stdout.end(() => { sent = true; if (process.stdin.ended) process.exit(0); });
};
pump();
`;

/**
 * Run `taps` taps at once, each forwarding `bytes` each way, and check every capture.
 * @returns per tap: {code, captured: {stdin, stdout}, missing: {stdin, stdout}, unaccounted, mismatched, hasHeader, hasEnd, problems}
 */
export async function runConcurrentTaps({
	taps,
	bytes,
	bin = process.env.MCP_WIRE_BIN ?? path.join(ROOT, 'bin', 'mcp-wire.js'),
	root = ROOT,
}) {
	const {decodeCapture} = await import(
		pathToFileURL(path.join(root, 'dist', 'core', 'capture', 'binary-codec.js')).href
	).catch(async () => {
		// An older build without format 2: NDJSON only.
		const {decodeRecords} = await import(
			pathToFileURL(path.join(root, 'dist', 'core', 'capture', 'record-codec.js')).href
		);
		return {decodeCapture: (buffer) => ({...decodeRecords(buffer.toString('utf8')), format: 1})};
	});
	const work = mkdtempSync(path.join(os.tmpdir(), 'mcp-wire-concurrent-'));
	try {
		const server = path.join(work, 'server.cjs');
		writeFileSync(server, SERVER);
		const runs = [];
		for (let i = 0; i < taps; i++) {
			const dir = path.join(work, `t${i}`);
			mkdirSync(path.join(dir, 'run'), {recursive: true, mode: 0o700});
			const env = {...process.env, XDG_STATE_HOME: path.join(dir, 'state'), XDG_RUNTIME_DIR: path.join(dir, 'run')};
			const capture = path.join(dir, 'capture.ndjson');
			const child = spawn(
				process.execPath,
				[bin, 'tap', '--capture', capture, '--', process.execPath, server, String(bytes), String(1000 + i)],
				{env, stdio: ['pipe', 'pipe', 'pipe']},
			);
			const up = pattern(bytes, 2000 + i);
			let received = 0;
			child.stdout.on('data', (d) => {
				received += d.length;
			});
			let stderr = '';
			child.stderr.on('data', (d) => {
				stderr += d;
			});
			child.stdin.on('error', () => undefined);
			child.stdin.end(up);
			runs.push({
				i,
				capture,
				up,
				child,
				stderr: () => stderr,
				received: () => received,
				exited: new Promise((resolve) => child.on('close', (code, signal) => resolve({code, signal}))),
			});
		}

		const results = [];
		for (const run of runs) {
			const {code, signal} = await run.exited;
			const down = pattern(bytes, 1000 + run.i);
			let buffer = Buffer.alloc(0);
			try {
				buffer = readFileSync(run.capture);
			} catch {
				// no file at all
			}

			const decoded = decodeCapture(buffer);
			const captured = {stdin: 0, stdout: 0};
			const missing = {stdin: 0, stdout: 0};
			const at = {stdin: 0, stdout: 0};
			let mismatched = 0;
			for (const event of decoded.events) {
				if (event.type === 'chunk' && event.chunk.stream !== 'stderr') {
					const {stream, offset, bytes: chunk} = event.chunk;
					const sent = stream === 'stdin' ? run.up : down;
					if (offset !== at[stream] || !Buffer.from(chunk).equals(sent.subarray(offset, offset + chunk.length)))
						mismatched++;
					at[stream] = offset + chunk.length;
					captured[stream] += chunk.length;
				} else if (event.type === 'mark' && event.mark.type === 'gap' && event.mark.stream !== 'stderr') {
					if (event.mark.offset !== at[event.mark.stream]) mismatched++;
					at[event.mark.stream] = event.mark.offset + event.mark.length;
					missing[event.mark.stream] += event.mark.length;
				}
			}

			results.push({
				code,
				signal,
				received: run.received(),
				captured,
				missing,
				unaccounted: 2 * bytes - (captured.stdin + captured.stdout + missing.stdin + missing.stdout),
				mismatched,
				hasHeader: decoded.header !== undefined,
				hasEnd: decoded.end !== undefined,
				problems: decoded.problems.length,
				stderr: run.stderr(),
			});
		}

		return results;
	} finally {
		rmSync(work, {recursive: true, force: true});
	}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	const arg = (name, fallback) => {
		const i = process.argv.indexOf(name);
		return i > 0 ? Number(process.argv[i + 1]) : fallback;
	};
	const taps = arg('--taps', 20);
	const mb = arg('--mb', 8);
	const t0 = performance.now();
	const results = await runConcurrentTaps({taps, bytes: mb * MIB});
	const sum = (f) => results.reduce((n, r) => n + f(r), 0);
	const total = 2 * taps * mb * MIB;
	console.log(
		`${taps} taps at once × ${mb} MiB each way · ${((performance.now() - t0) / 1000).toFixed(1)} s · ${os.cpus().length} CPUs · cli ${process.env.MCP_WIRE_BIN ?? 'bin/mcp-wire.js'}`,
	);
	console.log(
		`  forwarded to the client: ${sum((r) => r.received)} of ${taps * mb * MIB} bytes; exit codes ${[...new Set(results.map((r) => r.code))].join(',')}`,
	);
	console.log(
		`  captured ${(sum((r) => r.captured.stdin + r.captured.stdout) / MIB).toFixed(1)} of ${total / MIB} MiB; in gap records ${(sum((r) => r.missing.stdin + r.missing.stdout) / MIB).toFixed(1)} MiB; unaccounted (lies) ${(sum((r) => r.unaccounted) / MIB).toFixed(1)} MiB`,
	);
	console.log(
		`  with header ${results.filter((r) => r.hasHeader).length}/${taps}, with end record ${results.filter((r) => r.hasEnd).length}/${taps}, complete ${results.filter((r) => r.unaccounted === 0 && r.missing.stdin + r.missing.stdout === 0).length}/${taps}, bytes that differ ${sum((r) => r.mismatched)} records, decode problems ${sum((r) => r.problems)}`,
	);
	const lies = results.filter((r) => r.unaccounted !== 0 || r.mismatched > 0 || !r.hasHeader);
	if (lies.length > 0) {
		console.log(`  FAIL: ${lies.length} captures lie (bytes neither captured nor in a gap, or no header)`);
		process.exitCode = 1;
	} else {
		console.log('  PASS: every byte is captured or inside a gap record of exact length');
	}
}

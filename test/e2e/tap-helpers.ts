import {createHash} from 'node:crypto';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {decodeCapture, type DecodedCapture} from '../../src/core/capture/binary-codec.js';
import type {StreamName} from '../../src/core/types.js';
import {BIN as DEFAULT_BIN, ROOT} from './helpers.js';

/**
 * Shared helpers of the tap end-to-end tests: the built CLI (override with MCP_WIRE_BIN), a private
 * state/runtime directory per test, and tiny fixture servers that depend on nothing but Node.
 */

/** The built CLI entry (`bin/mcp-wire.js` after `npm run build`; MCP_WIRE_BIN points elsewhere). */
export const BIN = process.env['MCP_WIRE_BIN'] ?? DEFAULT_BIN;
export {ROOT};

/** server-everything's real entry point (`node <it> stdio`). */
export const EVERYTHING = path.join(
	ROOT,
	'node_modules',
	'@modelcontextprotocol',
	'server-everything',
	'dist',
	'index.js',
);

/** A scratch directory with its own XDG state and runtime dirs. */
export interface Scratch {
	readonly dir: string;
	readonly env: Record<string, string>;
	readonly capturesDir: string;
	readonly runtimeDir: string;
	/** Write a fixture server; returns its path. */
	server(name: keyof typeof SERVERS): string;
	/** The capture files written so far, oldest first. */
	captures(): string[];
	remove(): void;
}

/** A fresh scratch directory (call `remove()` after). */
export function scratch(): Scratch {
	const dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-tap-e2e-'));
	const state = path.join(dir, 'state');
	const run = path.join(dir, 'run');
	mkdirSync(run, {mode: 0o700});
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
	env['XDG_STATE_HOME'] = state;
	env['XDG_RUNTIME_DIR'] = run;
	const capturesDir = path.join(state, 'mcp-wire', 'captures');
	return {
		dir,
		env,
		capturesDir,
		runtimeDir: path.join(run, 'mcp-wire'),
		server(name) {
			const file = path.join(dir, `${name}.mjs`);
			writeFileSync(file, SERVERS[name]);
			return file;
		},
		captures() {
			try {
				return readdirSync(capturesDir)
					.filter((f) => f.endsWith('.mcpcap'))
					.sort()
					.map((f) => path.join(capturesDir, f));
			} catch {
				return [];
			}
		},
		remove() {
			rmSync(dir, {recursive: true, force: true});
		},
	};
}

/** SHA-256 hex of bytes. */
export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Decode a capture file, and concatenate each stream's chunk bytes. */
export function readCapture(file: string): DecodedCapture & {readonly streams: Record<StreamName, Buffer>} {
	const decoded = decodeCapture(readFileSync(file));
	const parts: Record<StreamName, Buffer[]> = {stdin: [], stdout: [], stderr: []};
	for (const event of decoded.events)
		if (event.type === 'chunk') parts[event.chunk.stream].push(Buffer.from(event.chunk.bytes));
	return {
		...decoded,
		streams: {
			stdin: Buffer.concat(parts.stdin),
			stdout: Buffer.concat(parts.stdout),
			stderr: Buffer.concat(parts.stderr),
		},
	};
}

/**
 * How long a real-process test waits for something that must happen (ms): long enough for a 2-core machine
 * under load, where a process takes seconds to start; only a hang reaches it.
 */
export const HANG_MS = 60_000;

/** Wait until `check` returns a value (polling every 20 ms), or throw after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined, timeoutMs = HANG_MS, what = 'condition'): Promise<T> {
	const start = Date.now();
	for (;;) {
		const value = check();
		if (value !== undefined) return value;
		if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/** Deterministic bytes (xorshift32): `newlineEvery` > 0 puts an LF roughly every that many bytes, 0 never. */
export function pseudoRandomBytes(length: number, seed: number, newlineEvery: number): Buffer {
	const out = Buffer.allocUnsafe(length);
	let x = seed | 0 || 0x9e3779b9;
	for (let i = 0; i < length; i++) {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		let byte = x & 0xff;
		if (newlineEvery > 0) {
			if ((x >>> 8) % newlineEvery === 0) byte = 0x0a;
		} else if (byte === 0x0a) {
			byte = 0x0b;
		}

		out[i] = byte;
	}

	return out;
}

/** Fixture servers (plain Node, no dependencies). */
export const SERVERS = {
	/**
	 * Hashes everything it reads on stdin and, independently, sends the file `$SEND_FILE` on stdout in
	 * pseudo-random pieces (`$PIECE_SEED`, up to `$PIECE_MAX` bytes) with backpressure. At stdin EOF it
	 * writes `sha256 <hex> <bytes>` to stderr; it exits once both directions are done.
	 */
	hash: `
import {createHash} from 'node:crypto';
import {readFileSync} from 'node:fs';
const hash = createHash('sha256');
let received = 0;
let inDone = false, outDone = false;
const finish = () => { if (inDone && outDone) process.exitCode = 0; };
process.stdin.on('data', (d) => { hash.update(d); received += d.length; });
process.stdin.on('end', () => {
  process.stderr.write('sha256 ' + hash.digest('hex') + ' ' + received + '\\n');
  inDone = true; finish();
});
const data = process.env.SEND_FILE ? readFileSync(process.env.SEND_FILE) : Buffer.alloc(0);
let x = Number(process.env.PIECE_SEED || 1) | 0 || 1;
const max = Number(process.env.PIECE_MAX || 65536);
const nextSize = () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return 1 + ((x >>> 0) % max); };
let at = 0;
const pump = () => {
  while (at < data.length) {
    const piece = data.subarray(at, at + nextSize());
    at += piece.length;
    if (!process.stdout.write(piece)) { process.stdout.once('drain', pump); return; }
  }
  outDone = true; finish();
};
pump();
`,
	/** Reports signals on stderr; exits 0 at stdin EOF. SIGTERM → exit 42; SIGINT/SIGHUP → dies of that signal. */
	signals: `
process.on('SIGTERM', () => { process.stderr.write('got SIGTERM\\n'); process.exit(42); });
for (const sig of ['SIGINT', 'SIGHUP']) {
  // Die only once the line is written (a pipe write may still be pending when the signal kills us).
  process.on(sig, () => { process.stderr.write('got ' + sig + '\\n', () => { process.removeAllListeners(sig); process.kill(process.pid, sig); }); });
}
process.stdin.on('data', (d) => process.stdout.write(d));
process.stdin.on('end', () => { process.stderr.write('stdin closed\\n'); process.exit(0); });
setInterval(() => {}, 1000);
// Ready only once the handlers are in place: a signal sent on 'ready' must not meet the default action.
process.stderr.write('ready\\n');
`,
	/** Exits with the code in argv[2] once stdin closes (or at once with argv[3] === 'now'). */
	exit: `
const code = Number(process.argv[2]);
if (process.argv[3] === 'now') process.exit(code);
process.stdin.resume();
process.stdin.on('end', () => process.exit(code));
`,
	/** Closes its stdout after the first line it reads, keeps running until stdin closes. */
	closeStdout: `
import {closeSync} from 'node:fs';
let done = false;
process.stdin.on('data', (d) => {
  if (done) return;
  done = true;
  process.stdout.write(d, () => { closeSync(1); process.stderr.write('stdout closed\\n'); });
});
process.stdin.on('end', () => process.exit(0));
`,
	/** Streams stdout forever in 64 KiB writes (for SIGKILL-mid-write). */
	flood: `
const block = Buffer.alloc(65536, 0x61);
block[65535] = 0x0a;
const pump = () => { while (process.stdout.write(block)) {} process.stdout.once('drain', pump); };
pump();
`,
} as const;

import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {execa} from 'execa';
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, pseudoRandomBytes, readCapture, scratch, sha256, type Scratch} from './tap-helpers.js';

/** One transparency case: what each side sends and how it is cut. */
interface Case {
	readonly seed: number;
	readonly clientBytes: number;
	readonly serverBytes: number;
	/** LF roughly every N bytes; 0 = one long line. */
	readonly newlineEvery: number;
	/** Largest piece the client writes at once (random sizes 1..N). */
	readonly clientPieceMax: number;
	/** Largest piece the server writes at once. */
	readonly serverPieceMax: number;
}

const MIB = 1024 * 1024;

/** A 20 MiB line each way: 20 MiB of non-LF bytes, then LF. */
function bigLine(seed: number): Buffer {
	const body = pseudoRandomBytes(20 * MIB, seed, 0);
	return Buffer.concat([body, Buffer.from('\n')]);
}

describe('tap transparency (real processes)', () => {
	let box: Scratch;
	let server: string;
	beforeAll(() => {
		box = scratch();
		server = box.server('hash');
	});
	afterAll(() => box.remove());

	let runNumber = 0;
	/** Run one case through `mcp-wire tap` and check SHA-256 on both sides and in the capture. */
	async function check(c: Case, payloads?: {client: Buffer; server: Buffer}): Promise<void> {
		runNumber++;
		const client = payloads?.client ?? pseudoRandomBytes(c.clientBytes, c.seed, c.newlineEvery);
		const serverData = payloads?.server ?? pseudoRandomBytes(c.serverBytes, c.seed ^ 0x5bd1e995, c.newlineEvery);
		const sendFile = path.join(box.dir, `send-${runNumber}.bin`);
		writeFileSync(sendFile, serverData);
		const capture = path.join(box.dir, `capture-${runNumber}.ndjson`);
		const child = execa('node', [BIN, 'tap', '--capture', capture, '--', 'node', server], {
			// The capture must be whole for the SHA-256 check even while other test files load both CPUs
			// (the capture worker yields to forwarding, so it can lag more than the default 48 MiB).
			env: {
				...box.env,
				SEND_FILE: sendFile,
				PIECE_SEED: String(c.seed),
				PIECE_MAX: String(c.serverPieceMax),
				MCP_WIRE_CAPTURE_LAG_MB: '256',
			},
			extendEnv: false,
			buffer: false,
			reject: false,
			encoding: 'buffer',
			stripFinalNewline: false,
		});
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		child.stdout.on('data', (d: Buffer) => out.push(d));
		child.stderr.on('data', (d: Buffer) => err.push(d));
		// Write the client's bytes in random pieces, honouring backpressure.
		let x = c.seed | 0 || 1;
		let at = 0;
		while (at < client.length) {
			x ^= x << 13;
			x ^= x >>> 17;
			x ^= x << 5;
			const piece = client.subarray(at, at + 1 + ((x >>> 0) % c.clientPieceMax));
			at += piece.length;
			if (!child.stdin.write(piece)) await new Promise((resolve) => child.stdin.once('drain', resolve));
		}

		child.stdin.end();
		const result = await child;
		const stdout = Buffer.concat(out);
		const stderr = Buffer.concat(err).toString('utf8');
		expect(result.exitCode).toBe(0);
		expect(stdout.length).toBe(serverData.length);
		expect(sha256(stdout)).toBe(sha256(serverData));
		expect(stderr).toBe(`sha256 ${sha256(client)} ${client.length}\n`);
		const recorded = readCapture(capture);
		expect(recorded.problems).toEqual([]);
		expect(sha256(recorded.streams.stdin)).toBe(sha256(client));
		expect(sha256(recorded.streams.stdout)).toBe(sha256(serverData));
		expect(recorded.streams.stderr.toString('utf8')).toBe(stderr);
		const marks = recorded.events.flatMap((e) =>
			e.type === 'mark' && e.mark.type !== 'evidence'
				? [e.mark.type === 'eof' ? `eof:${e.mark.stream}` : e.mark.type]
				: [],
		);
		expect(marks.sort()).toEqual(['eof:stderr', 'eof:stdout', 'stdin-closed']);
		expect(recorded.events.at(-1)).toMatchObject({type: 'exit', exit: {code: 0, signal: null}});
	}

	it('forwards a 20 MiB line each way unchanged, in random pieces', {timeout: 120_000}, async () => {
		await check(
			{seed: 7, clientBytes: 0, serverBytes: 0, newlineEvery: 0, clientPieceMax: 300_000, serverPieceMax: 200_000},
			{client: bigLine(1), server: bigLine(2)},
		);
	});

	it(
		'forwards random byte streams (invalid UTF-8, CR, NUL, LF-dense and LF-free) unchanged both ways (property)',
		{timeout: 180_000},
		async () => {
			await fc.assert(
				fc.asyncProperty(
					fc.record({
						seed: fc.integer({min: 1, max: 0x7fffffff}),
						clientBytes: fc.oneof(fc.integer({min: 0, max: 64}), fc.integer({min: 0, max: 3 * MIB})),
						serverBytes: fc.oneof(fc.integer({min: 0, max: 64}), fc.integer({min: 0, max: 3 * MIB})),
						newlineEvery: fc.constantFrom(0, 2, 50, 5000),
						clientPieceMax: fc.oneof(fc.integer({min: 1, max: 16}), fc.integer({min: 1, max: 200_000})),
						serverPieceMax: fc.oneof(fc.integer({min: 1, max: 16}), fc.integer({min: 1, max: 200_000})),
					}),
					async (c) => {
						// Tiny pieces on megabyte streams take too long through a pipe; keep them to small streams.
						const client = c.clientPieceMax < 64 ? Math.min(c.clientBytes, 20_000) : c.clientBytes;
						const serverBytes = c.serverPieceMax < 64 ? Math.min(c.serverBytes, 20_000) : c.serverBytes;
						await check({...c, clientBytes: client, serverBytes});
					},
				),
				{numRuns: 12, endOnFailure: true},
			);
		},
	);
});

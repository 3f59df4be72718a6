import type {Buffer} from 'node:buffer';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {createFramer, type FramerOutput} from '../../../src/core/framing/index.js';
import {streamArbitrary, streamWithCutsArbitrary} from './framer-arbitraries.js';
import {chunksOf, runFramer, SMALL_LIMITS, stableOutputs, type JudgedOutput} from './framer-harness.js';

function assertTiles(data: Buffer, outputs: readonly JudgedOutput[]): void {
	let end = 0;
	for (const {frame, findings} of outputs) {
		expect(frame.offset).toBe(end);
		expect(frame.byteLength).toBeGreaterThan(0);
		expect(frame.bodyOffset).toBeGreaterThanOrEqual(frame.offset);
		expect(frame.bodyOffset + frame.bodyLength).toBeLessThanOrEqual(frame.offset + frame.byteLength);
		expect('message' in frame).toBe(frame.isJson);
		for (const finding of findings) {
			expect(finding.offset).toBeGreaterThanOrEqual(frame.offset);
			expect(finding.offset + finding.byteLength).toBeLessThanOrEqual(frame.offset + frame.byteLength);
		}

		end = frame.offset + frame.byteLength;
	}

	expect(end).toBe(data.length);
}

describe('framer properties', () => {
	it('gives the same frames and findings for any chunk cuts (protocol mode)', () => {
		fc.assert(
			fc.property(streamWithCutsArbitrary, ([data, cuts]) => {
				const whole = runFramer(data);
				const cut = runFramer(data, {cuts});
				expect(stableOutputs(cut.outputs)).toEqual(stableOutputs(whole.outputs));
			}),
			{numRuns: 400},
		);
	});

	it('gives the same frames and findings for any chunk cuts with tiny limits (every bound and fallback reached)', () => {
		fc.assert(
			fc.property(streamWithCutsArbitrary, ([data, cuts]) => {
				const whole = runFramer(data, {limits: SMALL_LIMITS});
				const cut = runFramer(data, {cuts, limits: SMALL_LIMITS});
				expect(stableOutputs(cut.outputs)).toEqual(stableOutputs(whole.outputs));
				assertTiles(data, cut.outputs);
			}),
			{numRuns: 400},
		);
	});

	it('gives the same result for one-byte chunks', () => {
		fc.assert(
			fc.property(streamArbitrary, (data) => {
				const cuts = Array.from({length: data.length}, (_, i) => i);
				expect(stableOutputs(runFramer(data, {cuts}).outputs)).toEqual(stableOutputs(runFramer(data).outputs));
			}),
			{numRuns: 100},
		);
	});

	it('tiles the stream: frames cover every byte once, in order; findings lie in their frame', () => {
		fc.assert(
			fc.property(streamWithCutsArbitrary, ([data, cuts]) => {
				assertTiles(data, runFramer(data, {cuts}).outputs);
			}),
			{numRuns: 400},
		);
	});

	it('gives the same frames for any chunk cuts and tiles the stream (log mode)', () => {
		fc.assert(
			fc.property(streamWithCutsArbitrary, ([data, cuts]) => {
				const whole = runFramer(data, {mode: 'log', stream: 'stderr'});
				const cut = runFramer(data, {mode: 'log', stream: 'stderr', cuts});
				expect(stableOutputs(cut.outputs)).toEqual(stableOutputs(whole.outputs));
				expect(whole.findings).toEqual([]);
				assertTiles(data, cut.outputs);
			}),
			{numRuns: 200},
		);
	});

	it('keeps pendingBytes and pendingOffset consistent with what was emitted', () => {
		fc.assert(
			fc.property(streamWithCutsArbitrary, ([data, cuts]) => {
				const framer = createFramer('stdout', {mode: 'protocol'});
				let emitted = 0;
				const emit = (output: FramerOutput): void => {
					emitted = output.frame.offset + output.frame.byteLength;
				};

				let received = 0;
				for (const chunk of chunksOf(data, cuts)) {
					framer.push(chunk, emit);
					received += chunk.bytes.length;
					expect(framer.pendingOffset).toBe(emitted);
					expect(framer.pendingBytes).toBe(received - emitted);
				}

				framer.end(1, emit);
				expect(framer.pendingBytes).toBe(0);
				expect(framer.pendingOffset).toBe(data.length);
			}),
			{numRuns: 200},
		);
	});
});

import {describe, expect, it} from 'vitest';
import {CAPTURE_MAGIC, decodeCapture} from '../../../src/core/capture/binary-codec.js';
import {formatHeader} from '../../../src/render/text/plain-log.js';

/** A format-2 capture of only its magic line and this header record. */
const capture = (header: Record<string, unknown>): Buffer =>
	Buffer.from(`${CAPTURE_MAGIC}${JSON.stringify({type: 'session', ...header})}\n`, 'utf8');

const MINIMAL = {
	format: 1,
	tool: {name: 'mcp-wire'},
	command: ['node', 'server.js'],
	startedAt: '2026-01-01T00:00:00.000Z',
};

describe('a format-2 header without the fields that only describe where it ran', () => {
	it('opens, with what the tap writes (mode tap, env inherit) and "unknown" for the rest', () => {
		const decoded = decodeCapture(capture(MINIMAL));
		expect(decoded.problems).toEqual([]);
		expect(decoded.header).toEqual({
			format: 1,
			tool: {name: 'mcp-wire', version: 'unknown'},
			node: 'unknown',
			platform: 'unknown',
			command: ['node', 'server.js'],
			envMode: 'inherit',
			startedAt: '2026-01-01T00:00:00.000Z',
			mode: 'tap',
		});
		expect(formatHeader(decoded.header!)[0]).toBe('mcp-wire unknown (tap) · Node unknown · unknown');
	});

	it('still refuses a header whose fields are there but wrong, or that has no command', () => {
		expect(decodeCapture(capture({...MINIMAL, mode: 'other'})).header).toBeUndefined();
		const {command: _, ...noCommand} = MINIMAL;
		expect(decodeCapture(capture(noCommand)).header).toBeUndefined();
	});
});

describe('a format-1 (NDJSON) header', () => {
	it('still needs every field (the probe writes format 1 too: nothing can be assumed)', () => {
		const decoded = decodeCapture(Buffer.from(`${JSON.stringify({type: 'session', ...MINIMAL})}\n`));
		expect(decoded.header).toBeUndefined();
	});
});

import {describe, expect, it} from 'vitest';
import {bytesOf, codesAt, error, findingsOf, INIT, INITIALIZED, initOk, run} from '../exchange.js';

describe('protocol-version (R11)', () => {
	it('reports a result naming a version that is not a known revision, at the initialize response', () => {
		const reply = initOk({tools: {}}, '1.0');
		const session = run([
			['stdin', 0, INIT],
			['stdout', 10, reply],
			['stdin', 11, INITIALIZED],
			['close', 20],
			['exit', 21],
		]);
		expect(codesAt(session)).toEqual(['protocol-version@stdout:0']);
		expect(findingsOf(session, 'protocol-version')[0]).toMatchObject({
			severity: 'error',
			byteLength: bytesOf(reply).length,
			frameIndex: 1,
			detail: {reason: 'unknown-version', offered: '2025-11-25', answered: '1.0'},
			message: 'answered "1.0", not a known MCP revision (offered 2025-11-25); TS and Python clients disconnect',
		});
	});

	it('accepts the offered version and an older counter-offer', () => {
		expect(
			codesAt(
				run([
					['stdin', 0, INIT],
					['stdout', 10, initOk()],
					['stdin', 11, INITIALIZED],
					['close', 20],
					['exit', 21],
				]),
			),
		).toEqual([]);
		expect(
			codesAt(
				run([
					['stdin', 0, INIT],
					['stdout', 10, initOk({}, '2025-03-26')],
					['stdin', 11, INITIALIZED],
					['close', 20],
					['exit', 21],
				]),
			),
		).toEqual([]);
	});

	it('reports an error that rejects the offered version, but not one naming 2026-07-28 (a modern-only server)', () => {
		const rejected = run([
			['stdin', 0, INIT],
			['stdout', 10, error(0, -32602, 'Unsupported protocol version: 2025-11-25')],
			['close', 20],
			['exit', 21],
		]);
		expect(codesAt(rejected)).toEqual(['protocol-version@stdout:0']);
		expect(findingsOf(rejected, 'protocol-version')[0]!.detail).toMatchObject({reason: 'rejected-version'});
		expect(findingsOf(rejected, 'protocol-version')[0]!.hint).toMatch(
			/^Answer an unsupported requested version with a result/,
		);

		const modern = run([
			['stdin', 0, INIT],
			['stdout', 10, error(0, -32022, 'Unsupported protocol version; supported: 2026-07-28')],
			['close', 20],
			['exit', 21],
		]);
		expect(codesAt(modern)).toEqual([]);
		expect(modern.getSnapshot().summary.era).toBe('modern');
	});

	it('leaves a missing protocolVersion to invalid-initialize', () => {
		const reply = {jsonrpc: '2.0', id: 0, result: {capabilities: {}, serverInfo: {name: 's', version: '1'}}};
		expect(
			codesAt(
				run([
					['stdin', 0, INIT],
					['stdout', 10, reply],
					['stdin', 11, INITIALIZED],
					['close', 20],
					['exit', 21],
				]),
			),
		).toEqual(['invalid-initialize@stdout:0']);
	});
});

import {describe, expect, it} from 'vitest';
import {
	checkInitializeError,
	checkInitializeResult,
	checkNegotiatedVersion,
	isKnownProtocolVersion,
	KNOWN_PROTOCOL_VERSIONS,
	LATEST_LEGACY,
	MODERN_VERSION,
} from '../../../src/core/jsonrpc/index.js';

const GOOD = {
	protocolVersion: '2025-11-25',
	capabilities: {tools: {listChanged: true}},
	serverInfo: {name: 'demo', version: '1.0.0'},
	instructions: 'Use it.',
};

describe('protocol versions', () => {
	it('knows the published revisions and the TS pre-release, oldest first', () => {
		expect(KNOWN_PROTOCOL_VERSIONS).toEqual([
			'2024-10-07',
			'2024-11-05',
			'2025-03-26',
			'2025-06-18',
			'2025-11-25',
			'2026-07-28',
		]);
		expect(LATEST_LEGACY).toBe('2025-11-25');
		expect(MODERN_VERSION).toBe('2026-07-28');
		expect(isKnownProtocolVersion('2025-06-18')).toBe(true);
		expect(isKnownProtocolVersion('2099-01-01')).toBe(false);
		expect(isKnownProtocolVersion(20250618)).toBe(false);
	});
});

describe('checkInitializeResult (R8)', () => {
	it('accepts a complete result', () => {
		expect(checkInitializeResult(GOOD, '2025-11-25')).toEqual([]);
		expect(
			checkInitializeResult(
				{protocolVersion: '2024-11-05', capabilities: {}, serverInfo: {name: 's', version: '0'}},
				'2024-11-05',
			),
		).toEqual([]);
	});

	it('reports a result that is not an object', () => {
		expect(checkInitializeResult(null, '2025-11-25')).toEqual([
			{
				reason: 'initialize-result-not-object',
				rule: 'R8',
				key: 'result',
				message: 'the initialize result is null, not an object',
			},
		]);
	});

	it('reports each missing required field', () => {
		expect(checkInitializeResult({}, '2025-06-18')).toEqual([
			{
				reason: 'missing-protocol-version',
				rule: 'R8',
				key: 'result.protocolVersion',
				message: 'no protocolVersion; the server must answer 2025-06-18 or a version it supports',
			},
			{
				reason: 'missing-capabilities',
				rule: 'R8',
				key: 'result.capabilities',
				message: 'no capabilities; send {} when the server has none',
			},
			{
				reason: 'missing-server-info',
				rule: 'R8',
				key: 'result.serverInfo',
				message: 'no serverInfo; it must name the server: {"name": …, "version": …}',
			},
		]);
	});

	it('reports fields of the wrong type', () => {
		const reasons = (result: unknown) =>
			checkInitializeResult(result, '2025-11-25').map((item) => [item.reason, item.key]);
		expect(reasons({...GOOD, protocolVersion: 20251125})).toEqual([
			['protocol-version-not-string', 'result.protocolVersion'],
		]);
		expect(reasons({...GOOD, capabilities: []})).toEqual([['capabilities-not-object', 'result.capabilities']]);
		expect(reasons({...GOOD, serverInfo: 'demo'})).toEqual([['server-info-not-object', 'result.serverInfo']]);
		expect(reasons({...GOOD, serverInfo: {}})).toEqual([
			['server-info-name-not-string', 'result.serverInfo.name'],
			['server-info-version-not-string', 'result.serverInfo.version'],
		]);
		expect(reasons({...GOOD, serverInfo: {name: 'demo', version: 1}})).toEqual([
			['server-info-version-not-string', 'result.serverInfo.version'],
		]);
		expect(reasons({...GOOD, instructions: ['a']})).toEqual([['instructions-not-string', 'result.instructions']]);
	});

	it('runs the TS SDK InitializeResultSchema for everything else', () => {
		expect(checkInitializeResult({...GOOD, capabilities: {tools: {listChanged: 'yes'}}}, '2025-11-25')).toEqual([
			{
				reason: 'initialize-result-schema',
				rule: 'C1',
				key: 'result.capabilities.tools.listChanged',
				message:
					'the TS SDK rejects the initialize result: capabilities.tools.listChanged: Invalid input: expected boolean, received string',
			},
		]);
		expect(
			checkInitializeResult({...GOOD, serverInfo: {name: 'demo', version: '1', icons: [{}]}}, '2025-11-25').map(
				(item) => item.key,
			),
		).toEqual(['result.serverInfo.icons.0.src']);
	});
});

describe('checkNegotiatedVersion (R11)', () => {
	it('accepts the offered version echoed, and a counter-offer of another known legacy version', () => {
		expect(checkNegotiatedVersion('2025-11-25', '2025-11-25')).toBeNull();
		expect(checkNegotiatedVersion('2025-11-25', '2024-11-05')).toBeNull();
		expect(checkNegotiatedVersion('2099-01-01', '2025-06-18')).toBeNull();
		expect(checkNegotiatedVersion('2026-07-28', '2025-11-25')).toBeNull();
	});

	it('errors on a known version newer than the one offered (F32: the client that offered it cannot know it)', () => {
		expect(checkNegotiatedVersion('2024-11-05', '2025-03-26')).toEqual({
			severity: 'error',
			reason: 'not-offered-unsupported',
			message:
				'answered 2025-03-26, newer than the offered 2024-11-05: a client that offers 2024-11-05 does not know 2025-03-26 and disconnects (R11: echo the offered version if supported, else counter-offer an older one)',
		});
	});

	it('errors on an unknown version or a non-string', () => {
		expect(checkNegotiatedVersion('2025-11-25', '2025-13-01')).toEqual({
			severity: 'error',
			reason: 'unknown-version',
			message: 'answered "2025-13-01", not a known MCP revision (offered 2025-11-25); TS and Python clients disconnect',
		});
		expect(checkNegotiatedVersion('2025-11-25', 20251125)).toEqual({
			severity: 'error',
			reason: 'unknown-version',
			message: 'protocolVersion is the integer 20251125, not a version string (offered 2025-11-25)',
		});
		expect(checkNegotiatedVersion('2025-11-25', undefined)?.reason).toBe('unknown-version');
	});

	it('flags a known version clients reject in initialize', () => {
		expect(checkNegotiatedVersion('2025-11-25', '2026-07-28')).toEqual({
			severity: 'error',
			reason: 'not-offered-unsupported',
			message:
				'answered 2026-07-28, which was not offered and has no initialize handshake; TS SDK v1 and Python SDK clients disconnect',
		});
		expect(checkNegotiatedVersion('2025-11-25', '2024-10-07')).toEqual({
			severity: 'warning',
			reason: 'not-offered-unsupported',
			message: 'answered the TS SDK pre-release 2024-10-07 (offered 2025-11-25); Python SDK clients disconnect',
		});
	});

	it('warns when an unsupported offered version is echoed back', () => {
		expect(checkNegotiatedVersion('2099-01-01', '2099-01-01')).toEqual({
			severity: 'warning',
			reason: 'echoed-unsupported',
			message:
				'echoed the offered version 2099-01-01, which is not a known MCP revision: the server claims support it cannot have',
		});
		expect(checkNegotiatedVersion('2026-07-28', '2026-07-28')).toMatchObject({
			severity: 'warning',
			reason: 'echoed-unsupported',
		});
	});
});

describe('checkInitializeError (R11, R19)', () => {
	it('recognises -32602 naming the protocol version (cl-mcp#26)', () => {
		expect(
			checkInitializeError({code: -32602, message: 'Unsupported protocolVersion 2025-11-25'}, '2025-11-25'),
		).toEqual({
			reason: 'rejected-version',
			modernEra: false,
			message:
				'initialize rejected with error -32602 "Unsupported protocolVersion 2025-11-25"; a server must counter-offer a version it supports instead (R11)',
		});
	});

	it('reads data.expected and accepts the whole error response', () => {
		expect(
			checkInitializeError(
				{
					jsonrpc: '2.0',
					id: 0,
					error: {code: -32602, message: 'Invalid params', data: {expected: '2024-11-05', received: '2025-11-25'}},
				},
				'2025-11-25',
			),
		).toEqual({
			reason: 'rejected-version',
			modernEra: false,
			supported: ['2024-11-05'],
			message:
				'initialize rejected with error -32602 "Invalid params"; a server must counter-offer a version it supports instead (R11) (supported: 2024-11-05)',
		});
	});

	it('recognises -32022 UnsupportedProtocolVersionError as a modern-era server', () => {
		expect(
			checkInitializeError(
				{
					code: -32022,
					message: 'Unsupported protocol version',
					data: {supported: ['2026-07-28'], requested: '2025-11-25'},
				},
				'2025-11-25',
			),
		).toEqual({
			reason: 'rejected-version',
			modernEra: true,
			supported: ['2026-07-28'],
			message:
				'initialize rejected with error -32022 "Unsupported protocol version"; the server names 2026-07-28: a modern-only server (R19), probe it with server/discover (supported: 2026-07-28)',
		});
	});

	it('modernEra from the message, unless 2026-07-28 is merely the version that was offered', () => {
		expect(
			checkInitializeError(
				{code: -32600, message: 'Unsupported protocol version; this server speaks 2026-07-28 only'},
				'2025-11-25',
			)?.modernEra,
		).toBe(true);
		expect(
			checkInitializeError({code: -32602, message: 'Unsupported protocolVersion 2026-07-28'}, '2026-07-28')?.modernEra,
		).toBe(false);
		expect(checkInitializeError({code: -32602, message: 'Unsupported protocolVersion 2026-07-28'})?.modernEra).toBe(
			true,
		);
	});

	it('returns null for errors about something else', () => {
		expect(checkInitializeError({code: -32603, message: 'Internal error'})).toBeNull();
		expect(checkInitializeError({code: -32602, message: 'Invalid params: capabilities required'})).toBeNull();
		expect(checkInitializeError('boom')).toBeNull();
		expect(checkInitializeError({code: -32602, message: 'x', data: {supported: []}})).toBeNull();
	});
});

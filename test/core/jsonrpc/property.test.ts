import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {classifyMessage, impactForProblems, pythonSdkVerdict, tsSdkVerdict} from '../../../src/core/jsonrpc/index.js';
import type {Classification, JsonRpcProblem} from '../../../src/core/jsonrpc/index.js';
import {messageArb} from './arbitraries.js';

const directionArb = fc.constantFrom('client-to-server' as const, 'server-to-client' as const);

/**
 * The documented differences (classifyMessage docstring, item 1): a problem MCP raises although the TS
 * SDK accepts the message. With no protocolVersion, this is the only one: a `notifications/…` method
 * with a string or integer id, which the SDK takes as a request (J4 says notifications carry no id).
 * With `id: null` the SDK rejects it too, so there it is not a difference.
 */
function isMcpOnly(item: JsonRpcProblem, classification: Classification): boolean {
	return item.reason === 'notification-with-id' && classification.kind === 'request';
}

describe('classifyMessage agrees with the TS SDK schema (property)', () => {
	it('no problems exactly when JSONRPCMessageSchema accepts, except the documented MCP-only rules', () => {
		fc.assert(
			fc.property(messageArb, directionArb, (message, direction) => {
				const classification = classifyMessage(message, {direction});
				const verdict = tsSdkVerdict(message);
				const shared = classification.problems.filter((item) => !isMcpOnly(item, classification));
				expect({accepted: verdict.accepted, shared: shared.map((item) => item.reason)}).toEqual({
					accepted: shared.length === 0,
					shared: shared.map((item) => item.reason),
				});
			}),
			{numRuns: 20_000, seed: 20_260_728},
		);
	});

	it('the MCP-only difference really occurs and the SDK accepts it', () => {
		const message = {jsonrpc: '2.0', id: 904, method: 'notifications/progress'};
		const classification = classifyMessage(message, {direction: 'server-to-client'});
		expect(classification.problems.map((item) => item.reason)).toEqual(['notification-with-id']);
		expect(isMcpOnly(classification.problems[0]!, classification)).toBe(true);
		expect(tsSdkVerdict(message)).toEqual({accepted: true});
	});

	it('generates both valid and invalid messages (the property is not vacuous)', () => {
		const samples = fc.sample(messageArb, {numRuns: 2000, seed: 7});
		const valid = samples.filter(
			(message) => classifyMessage(message, {direction: 'server-to-client'}).problems.length === 0,
		).length;
		expect(valid).toBeGreaterThan(200);
		expect(valid).toBeLessThan(1800);
	});
});

describe('classifyMessage invariants (property)', () => {
	it('never throws, is deterministic, and its id/hasId/kind follow the message', () => {
		fc.assert(
			fc.property(
				messageArb,
				directionArb,
				fc.constantFrom(undefined, '2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', '2099-01-01'),
				(message, direction, protocolVersion) => {
					const options = protocolVersion === undefined ? {direction} : {direction, protocolVersion};
					const first = classifyMessage(message, options);
					expect(classifyMessage(message, options)).toEqual(first);
					const isObject = typeof message === 'object' && message !== null && !Array.isArray(message);
					const id = isObject ? (message as Record<string, unknown>)['id'] : undefined;
					expect(first.hasId).toBe(id !== undefined);
					if (typeof id === 'string' || typeof id === 'number' || id === null) expect(first.id).toBe(id);
					else expect('id' in first).toBe(false);
					if (!isObject) expect(first.kind).toBe('json');
					for (const item of first.problems) {
						expect(item.message).not.toMatch(/\n/);
						expect(item.rule).toMatch(/^(J[1-9]|R6|R18|C1)$/);
					}
				},
			),
			{numRuns: 5000, seed: 11},
		);
	});

	it('impactForProblems gives six families and matches the verdicts for the SDK columns', () => {
		fc.assert(
			fc.property(messageArb, (message) => {
				const {problems} = classifyMessage(message, {direction: 'server-to-client'});
				const impact = impactForProblems(problems, message);
				expect(impact.map((item) => item.client)).toEqual([
					'ts-sdk-v1',
					'ts-sdk-v2',
					'python-sdk',
					'vscode',
					'rmcp',
					'cursor',
				]);
				expect(impact[0]?.reaction === 'drop-log').toBe(!tsSdkVerdict(message).accepted);
				// The Python SDK also drops a result that has an error object beside it: it reads an error (mcp 2.3).
				const resultBesideError =
					problems.some((item) => item.reason === 'result-and-error') && (message as {error?: unknown}).error !== null;
				expect(impact[2]?.reaction === 'drop-log').toBe(!pythonSdkVerdict(message).accepted || resultBesideError);
				if (problems.length === 0 && !(impact[0]?.reaction === 'hang')) {
					expect(impact.every((item) => item.reaction === 'ok')).toBe(true);
				}
			}),
			{numRuns: 3000, seed: 13},
		);
	});
});

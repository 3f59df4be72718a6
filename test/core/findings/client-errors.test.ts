import {describe, expect, it} from 'vitest';
import {CLIENTS} from '../../../src/core/clients/registry.js';
import {CLIENT_ERROR_MODULES, codesByClientText} from '../../../src/core/findings/client-errors.js';
import {explainError} from '../../../src/core/findings/explain.js';

// A client module keeps its error texts (with ids); the rules whose code can cause a text claim its id
// (`clientTexts`), and explain gives a text's codes in the order of the claims' ranks.
describe('client texts and the rules that claim them', () => {
	const texts = new Map(CLIENTS.flatMap((profile) => profile.errorTexts.map((text) => [text.id, text] as const)));

	it('gives each text the codes of the rules that claim it, in rank order', () => {
		expect(Object.fromEntries(codesByClientText())).toEqual({
			'claude-code/tools-fetch-failed': ['early-exit', 'unknown-id', 'invalid-result'],
			'codex/failed-to-start': [
				'early-exit',
				'no-response',
				'slow-response',
				'multiline-json',
				'content-length-framing',
				'unflushed-output',
				'invalid-initialize',
				'spawn-failed',
			],
			'codex/unexpected-response-type': ['invalid-result'],
			'cursor/client-closed': ['early-exit', 'spawn-failed', 'stray-output'],
			'gemini-cli/error-connecting': ['protocol-version', 'no-response', 'slow-response', 'early-exit', 'spawn-failed'],
			'gemini-cli/disconnected': ['protocol-version', 'no-response', 'slow-response', 'early-exit'],
			'vscode/process-exited': ['early-exit', 'spawn-failed'],
			'python-sdk/call-tool-result-invalid': ['invalid-result'],
			'python-sdk/structured-content-invalid': ['invalid-structured-content'],
			'rmcp/expect-initialized-notification': ['pre-initialized-request-rejected'],
		});
	});

	it('claims only texts that exist and that no client message of the rules already explains', () => {
		for (const id of codesByClientText().keys()) {
			expect(texts.has(id), id).toBe(true);
			expect(texts.get(id)?.explainedBy, id).toBeUndefined();
		}
	});

	it('claims every text that the rules do not explain through a client message', () => {
		const claimed = codesByClientText();
		const unclaimed = [...texts.values()].filter((text) => text.explainedBy === undefined && !claimed.has(text.id));
		expect(unclaimed.map((text) => text.id)).toEqual([]);
		expect(CLIENT_ERROR_MODULES.flatMap((module) => module.errors ?? []).length).toBe(10);
	});

	it('explains a claimed text with its codes: one claim is likely, several are possible', () => {
		const closed = explainError('Client closed');
		expect(closed.source).toBe('Cursor');
		expect(closed.explanations.map((e) => [e.code, e.likelihood])).toEqual([
			['early-exit', 'possible'],
			['spawn-failed', 'possible'],
			['stray-output', 'possible'],
		]);
		expect(closed.explanations[0]!.why).toBe(
			'Cursor lost the server process: it exited, closed stdout, or could not be started.',
		);
		const rmcp = explainError('Error: expect initialized notification, but received: Some(Request(SetLevelRequest))');
		expect(rmcp.source).toBe('rmcp (Rust SDK)');
		expect(rmcp.explanations.map((e) => [e.code, e.likelihood])).toEqual([
			['pre-initialized-request-rejected', 'likely'],
		]);
		expect(rmcp.explanations[0]!.why).toBe(
			'An rmcp server before 1.1.1 (rust-sdk PR#730) took a request between its initialize result and `notifications/initialized` (VS Code sends `logging/setLevel` there) and exited.',
		);
		const result = explainError('Unexpected response type');
		expect(result.explanations.map((e) => [e.code, e.likelihood])).toEqual([['invalid-result', 'likely']]);
	});
});

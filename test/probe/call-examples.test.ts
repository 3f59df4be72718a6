/**
 * The tool-call example servers (examples/servers: handler-print, structured-content-mismatch, tool-error,
 * unknown-content-type, progress-after-reply, slow-call), each from the capture of a real `probe --call get_weather`
 * (or `--call-read-only`, or no call at all) recorded by scripts/record-example-captures.mjs and replayed:
 * the exact finding, where it sits against the call's request and reply, what was exercised, and every
 * client's outcome (docs/clients.md).
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {decodeRecords} from '../../src/core/capture/record-codec.js';
import {SDK_SCHEMAS} from '../../src/core/jsonrpc/sdk-schemas.js';
import {replayEvents} from '../../src/core/session/replay.js';
import type {ClientOutcomeKind, Frame, SessionSnapshot} from '../../src/core/types.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface ManifestEntry {
	readonly name: string;
	readonly command: readonly string[];
	readonly args?: readonly string[];
}

const manifest = JSON.parse(
	readFileSync(join(ROOT, 'examples', 'servers', 'manifest.json'), 'utf8'),
) as ManifestEntry[];

function replay(name: string): SessionSnapshot {
	const decoded = decodeRecords(readFileSync(join(ROOT, 'test', 'fixtures', 'captures', `${name}.ndjson`), 'utf8'));
	expect(decoded.problems).toEqual([]);
	return replayEvents(decoded.header!, decoded.events, {schemas: SDK_SCHEMAS}).getSnapshot();
}

/** The `tools/call` request on stdin and its reply on stdout. */
function callFrames(snapshot: SessionSnapshot): {readonly request: Frame; readonly reply: Frame} {
	const requests = snapshot.frames.filter((f) => f.stream === 'stdin' && f.method === 'tools/call');
	expect(requests).toHaveLength(1);
	const request = requests[0]!;
	const reply = snapshot.frames.find((f) => f.stream === 'stdout' && f.answers?.requestIndex === request.index);
	expect(reply, 'the call is answered').toBeDefined();
	return {request, reply: reply!};
}

/** Outcome per client, in the order ts-sdk-v1, ts-sdk-v2, python-sdk, vscode, rmcp, cursor. */
function outcomes(snapshot: SessionSnapshot): Record<string, ClientOutcomeKind> {
	return Object.fromEntries((snapshot.summary.clients ?? []).map((o) => [o.client, o.outcome]));
}

const findings = (snapshot: SessionSnapshot): string[] =>
	snapshot.findings.map((f) => `${f.code}@${f.stream}:${f.offset}`);

describe('the tool-call example servers, replayed from real probes', () => {
	it('each call entry asks for the call it needs', () => {
		const args = Object.fromEntries(manifest.map((e) => [e.name, e.args ?? []]));
		expect(args['handler-print']).toEqual(['--call', 'get_weather']);
		expect(args['handler-print-read-only']).toEqual(['--call-read-only']);
		expect(args['handler-print-no-call']).toEqual([]);
		for (const name of ['structured-content-mismatch', 'tool-error', 'unknown-content-type', 'progress-after-reply'])
			expect(args[name], name).toEqual(['--call', 'get_weather']);
		expect(args['slow-call']).toEqual(['--call', 'slow_report']);
	});

	it.each(['handler-print', 'handler-print-read-only'])(
		'%s: stray-output inside the reply window of tools/call "get_weather", and only get_weather ran',
		(name) => {
			const snapshot = replay(name);
			const {request, reply} = callFrames(snapshot);
			expect(request.message).toMatchObject({params: {name: 'get_weather', arguments: {city: ''}}});
			expect(findings(snapshot)).toEqual(['stray-output@stdout:567']);
			const stray = snapshot.findings[0]!;
			// After the tools/list reply (stdout 151 + 416) and before the call's reply, in time after the request.
			expect(stray.byteLength).toBe(42);
			expect(stray.offset + stray.byteLength + 1).toBe(reply.offset);
			expect(reply.offset).toBe(610);
			expect(stray.tMs).toBeGreaterThanOrEqual(request.tMs);
			expect(stray.detail?.['during']).toEqual({method: 'tools/call', id: 2, name: 'get_weather'});
			expect(stray.message).toBe(
				'stdout carries a log line, not an MCP message, inside the reply window of tools/call "get_weather" (id 2)',
			);
			// --call-read-only called get_weather (readOnlyHint) and not clear_cache (destructiveHint).
			expect(snapshot.summary.exercised?.called).toEqual(['get_weather']);
			expect(snapshot.summary.verdict).toBe('warn');
			expect(outcomes(snapshot)).toEqual({
				'ts-sdk-v1': 'degraded',
				'ts-sdk-v2': 'works',
				'python-sdk': 'degraded',
				vscode: 'degraded',
				rmcp: 'works',
				cursor: 'unknown',
			});
		},
	);

	it('handler-print-no-call: no call, no finding, and the summary says no tool was called', () => {
		const snapshot = replay('handler-print-no-call');
		expect(findings(snapshot)).toEqual([]);
		expect(snapshot.frames.some((f) => f.method === 'tools/call')).toBe(false);
		expect(snapshot.summary.exercised).toEqual({
			requests: {initialize: 1, 'tools/list': 1, ping: 1},
			called: [],
			read: [],
			prompts: [],
		});
		expect(snapshot.summary.verdict).toBe('ok');
		expect(new Set(Object.values(outcomes(snapshot)))).toEqual(new Set(['works']));
	});

	it('structured-content-mismatch: invalid-structured-content at the call reply; both SDK clients fail the call', () => {
		const snapshot = replay('structured-content-mismatch');
		const {reply} = callFrames(snapshot);
		expect(findings(snapshot)).toEqual(['invalid-structured-content@stdout:522']);
		expect(reply.offset).toBe(522);
		const finding = snapshot.findings[0]!;
		expect(finding.frameIndex).toBe(reply.index);
		expect(finding.detail).toMatchObject({
			name: 'get_weather',
			reason: 'mismatch',
			sdkError: 'data/temp must be number',
		});
		expect(snapshot.summary.verdict).toBe('fail');
		expect(outcomes(snapshot)).toEqual({
			'ts-sdk-v1': 'fails',
			'ts-sdk-v2': 'fails',
			'python-sdk': 'fails',
			vscode: 'unknown',
			rmcp: 'unknown',
			cursor: 'unknown',
		});
		const ts = snapshot.summary.clients!.find((o) => o.client === 'ts-sdk-v1')!;
		expect(ts).toMatchObject({connects: true, toolsListed: true});
		expect(ts.note).toMatch(/^connects and lists tools \(1 tool\); tools\/call fails: invalid-structured-content: /);
	});

	it('tool-error: tool-error (info) at the call reply; the tool answered with its own error and every client works', () => {
		const snapshot = replay('tool-error');
		const {reply} = callFrames(snapshot);
		expect(findings(snapshot)).toEqual(['tool-error@stdout:388']);
		expect(reply.offset).toBe(388);
		expect(snapshot.findings[0]).toMatchObject({severity: 'info', frameIndex: reply.index});
		expect(snapshot.summary.verdict).toBe('ok');
		expect(new Set(Object.values(outcomes(snapshot)))).toEqual(new Set(['works']));
	});

	it('unknown-content-type: invalid-result at the call reply (content.0, type "markdown"); the call fails', () => {
		const snapshot = replay('unknown-content-type');
		const {reply} = callFrames(snapshot);
		expect(findings(snapshot)).toEqual(['invalid-result@stdout:398']);
		expect(reply.offset).toBe(398);
		const finding = snapshot.findings[0]!;
		expect(finding.detail).toMatchObject({method: 'tools/call', path: 'content.0', itemType: 'markdown'});
		expect(finding.impact.find((i) => i.client === 'ts-sdk-v1')?.note).toBe(
			'`callTool()` throws a ZodError naming the path (`content.0`): the call fails',
		);
		expect(snapshot.summary.verdict).toBe('fail');
		expect(outcomes(snapshot)).toEqual({
			'ts-sdk-v1': 'fails',
			'ts-sdk-v2': 'fails',
			'python-sdk': 'fails',
			vscode: 'unknown',
			rmcp: 'unknown',
			cursor: 'unknown',
		});
	});

	it('progress-after-reply: unknown-progress-token right after the call reply, not at the progress before it', () => {
		const snapshot = replay('progress-after-reply');
		const {request, reply} = callFrames(snapshot);
		const progress = snapshot.frames.filter((f) => f.method === 'notifications/progress');
		expect(progress.map((f) => f.offset)).toEqual([398, 589]);
		expect(progress[0]!.offset).toBeLessThan(reply.offset);
		expect(reply.offset + reply.byteLength).toBe(589);
		expect(request.message).toMatchObject({params: {_meta: {progressToken: 2}}});
		expect(findings(snapshot)).toEqual(['unknown-progress-token@stdout:589']);
		expect(snapshot.findings[0]!.detail).toMatchObject({reason: 'completed'});
		expect(snapshot.summary.verdict).toBe('fail');
		expect(outcomes(snapshot)).toEqual({
			'ts-sdk-v1': 'degraded',
			'ts-sdk-v2': 'works',
			'python-sdk': 'works',
			vscode: 'unknown',
			rmcp: 'unknown',
			cursor: 'fails',
		});
	});

	it('slow-call: slow-response (error) at the reply 65 s after the call, with 3 progress notifications before it', () => {
		const snapshot = replay('slow-call');
		const {request, reply} = callFrames(snapshot);
		expect(findings(snapshot)).toEqual(['slow-response@stdout:693']);
		expect(reply.offset).toBe(693);
		const finding = snapshot.findings[0]!;
		expect(finding).toMatchObject({severity: 'error', frameIndex: reply.index});
		expect(finding.detail).toMatchObject({method: 'tools/call', limitMs: 60_000, overLimit: true, progress: 3});
		expect(reply.tMs - request.tMs).toBeGreaterThan(65_000);
		expect(snapshot.summary.verdict).toBe('fail');
		expect(outcomes(snapshot)).toEqual({
			'ts-sdk-v1': 'fails',
			'ts-sdk-v2': 'fails',
			'python-sdk': 'works',
			vscode: 'works',
			rmcp: 'unknown',
			cursor: 'unknown',
		});
	});
});

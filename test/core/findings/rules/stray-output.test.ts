import {describe, expect, it} from 'vitest';
import {fieldCase, INIT, INIT_OK, run, runFieldCase as runCase} from '../harness.js';

describe('stray-output (R5): kind, framework and the fix that goes with it', () => {
	it('F35: four JVM console-appender lines, stderr empty: stray-output kind log ×4 with the appender fix, no stderr-merged', () => {
		const findings = runCase(fieldCase('F35')).getSnapshot().findings;
		expect(findings.map((f) => f.code)).toEqual(['stray-output', 'stray-output', 'stray-output', 'stray-output']);
		for (const finding of findings) {
			expect(finding).toMatchObject({severity: 'error', stream: 'stdout', detail: {kind: 'log', logger: 'jvm'}});
			expect(finding.detail?.['merged']).toBeUndefined();
			expect(finding.hint).toContain('<target>System.err</target>');
			expect(finding.hint).not.toContain('2>&1');
		}
		expect(findings[0]).toMatchObject({
			offset: 0,
			byteLength: 198,
			detail: {clientError: 'Unexpected non-whitespace character after JSON at position 4'},
		});
	});

	it('F36: `dotnet run` banners are launcher ×2 with the launch-command fix', () => {
		const findings = runCase(fieldCase('F36')).getSnapshot().findings;
		expect(findings.map((f) => [f.code, f.offset, f.byteLength, f.detail?.['kind'], f.detail?.['launcher']])).toEqual([
			['stray-output', 0, 86, 'launcher', 'dotnet-run'],
			['stray-output', 87, 11, 'launcher', 'dotnet-run'],
		]);
		expect(findings[0]!.detail?.['clientError']).toBe(`Unexpected token 'U', "Using laun"... is not valid JSON`);
		for (const finding of findings) {
			expect(finding.hint).toContain('`dotnet <App>.dll`');
			expect(finding.hint).toContain('dotnet run --no-build --no-launch-profile');
			expect(finding.hint).toContain('the server code is not at fault');
		}
	});

	it('names the framework from the line format: Python logging, .NET, Rust tracing; unsure stays generic', () => {
		const lines = [
			'2025-06-09 21:38:09,942 - src.log_utils - INFO - Logging initialized\n',
			'info: Microsoft.Hosting.Lifetime[14]\n',
			'2026-01-01T10:00:00.123456Z  INFO my_server::transport: listening on stdio\n',
			'[12:00:01] starting\n',
		];
		const session = run([
			['stdin', 0, INIT],
			...lines.map((text, i) => ['stdout', 1 + i, text] as const),
			['stdout', 9, INIT_OK],
		]);
		const findings = session.getSnapshot().findings;
		expect(findings.map((f) => [f.detail?.['kind'], f.detail?.['logger']])).toEqual([
			['log', 'python'],
			['log', 'dotnet'],
			['log', 'rust'],
			['log', undefined],
		]);
		expect(findings[0]!.hint).toContain('logging.basicConfig(stream=sys.stderr)');
		expect(findings[1]!.hint).toContain('LogToStandardErrorThreshold');
		expect(findings[2]!.hint).toContain('with_writer(std::io::stderr)');
		expect(findings[3]!.hint).toContain('most logging frameworks write to stdout by default');
	});
});

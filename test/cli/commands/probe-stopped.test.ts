import {describe, expect, it} from 'vitest';
import {probeCommand, stoppedLine, stoppedSummary} from '../../../src/cli/commands/probe.js';
import {EXIT} from '../../../src/cli/exit-codes.js';
import {makeSummary} from '../../helpers/factories.js';

describe('probe under the TUI, stopped by the user', () => {
	it("without --timeout: initialize's 30 s before the server answered it, a request's 10 s after (it said 10 s for initialize)", () => {
		const answered = makeSummary({serverInfo: {name: 's', version: '1'}, protocolVersion: '2025-11-25'});
		expect(stoppedLine(4_730, makeSummary({}), undefined)).toBe(
			'stopped by the user after 4.7 s, before the server answered initialize (the probe would wait 30 s)',
		);
		expect(stoppedLine(12_000, answered, undefined)).toBe(
			"stopped by the user after 12.0 s, before the probe's exchange was over (the probe would wait 10 s)",
		);
		expect(stoppedLine(2_000, makeSummary({}), 5_000)).toBe(
			'stopped by the user after 2.0 s, before the server answered initialize (the probe would wait 5 s)',
		);
	});

	it('says when and before what, instead of a server verdict', () => {
		expect(stoppedLine(4_730, makeSummary({}), 30_000)).toBe(
			'stopped by the user after 4.7 s, before the server answered initialize (the probe would wait 30 s)',
		);
		expect(
			stoppedLine(12_000, makeSummary({serverInfo: {name: 's', version: '1'}, protocolVersion: '2025-11-25'}), 10_000),
		).toBe("stopped by the user after 12.0 s, before the probe's exchange was over (the probe would wait 10 s)");
	});

	it('names the signal that stopped it when it was not the user (SIGTERM: a CI job timed out)', () => {
		expect(stoppedLine(3_300, makeSummary({}), undefined, 'SIGTERM')).toBe(
			'stopped by SIGTERM after 3.3 s, before the server answered initialize (the probe would wait 30 s)',
		);
	});

	it("the summary's verdict decides the lines: stopped replaces the verdict line, warn keeps it", () => {
		const stop = 'stopped by the user after 1.0 s, before the server answered initialize (the probe would wait 30 s)';
		const lines = ['verdict X', 'clients  …'];
		expect(stoppedSummary(lines, stop, makeSummary({verdict: 'stopped'}))).toEqual([
			`verdict STOPPED: ${stop}`,
			'clients  …',
		]);
		expect(stoppedSummary(lines, stop, makeSummary({verdict: 'warn', warnings: 1}))).toEqual([
			'verdict X',
			stop,
			'clients  …',
		]);
	});

	it('has its own exit code, apart from a verdict (1) and a usage error (2)', () => {
		expect(EXIT.stopped).toBe(130);
	});
});

describe('probe --max-lines', () => {
	it('takes at least 10, as report does (was: 5 was taken, against the help)', async () => {
		const parse = (value: string) =>
			probeCommand()
				.exitOverride()
				.configureOutput({writeOut: () => {}, writeErr: () => {}})
				.parseAsync(['--max-lines', value, '--report', '--json', '--', 'true'], {from: 'user'});
		await expect(parse('5')).rejects.toThrow('expected a whole number of lines, at least 10');
	});
});

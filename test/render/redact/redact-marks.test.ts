import {describe, expect, it} from 'vitest';
import type {Mark} from '../../../src/core/types.js';
import {createEventRedactor, redactSnapshot} from '../../../src/render/redact/index.js';
import {chunk, goldenMeta, sessionFrom} from '../report/golden.js';

const TOKEN = 'q7Rk29xLmW4pZ8sV';
const GHP = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
const HOME = '/home/alice';

/** An evidence mark as the process watch records it: argv read from /proc (docs/json-records.md#mark). */
const evidence: Mark = {
	type: 'evidence',
	tMs: 5,
	evidence: {
		reason: 'exit',
		observed: true,
		note: `cwd ${HOME}/srv`,
		rootPid: 100,
		rootAlive: false,
		processes: [
			{
				pid: 100,
				command: ['node', `${HOME}/srv/index.js`, '--token', TOKEN, `--github=${GHP}`],
				comm: 'node',
				activity: 'zombie',
			},
			{
				pid: 101,
				command: ['sh', '-c', `API_KEY=${TOKEN} ${HOME}/bin/helper`],
				activity: 'idle',
				connecting: ['10.0.0.1:443'],
			},
		],
	},
};
const observed: Mark = {
	type: 'observed',
	what: 'spawn-failed',
	offset: 0,
	detail: {error: `spawn ${HOME}/bin/srv ENOENT`, password: 'hunter22x'},
	tMs: 1,
};

describe('redaction of marks (docs/cli.md#report)', () => {
	it('--json --redact masks the command lines, home and detail of evidence and observed marks', () => {
		const redactor = createEventRedactor({home: HOME, user: 'alice'});
		const out = [evidence, observed].flatMap((mark) => redactor.push({type: 'mark', mark}));
		const text = JSON.stringify(out);
		expect(text).not.toContain(TOKEN);
		expect(text).not.toContain(GHP.slice(4));
		expect(text).not.toContain(HOME);
		expect(text).not.toContain('hunter22x');
		const first = out[0]!;
		expect(
			first.type === 'mark' && first.mark.type === 'evidence' && first.mark.evidence.processes[0]!.command,
		).toEqual(['node', '~/srv/index.js', '--token', '<redacted>', '--github=ghp_<redacted>']);
		expect(
			first.type === 'mark' && first.mark.type === 'evidence' && first.mark.evidence.processes[1]!.command,
		).toEqual(['sh', '-c', 'API_KEY=<redacted> ~/bin/helper']);
		expect(first.type === 'mark' && first.mark.type === 'evidence' && first.mark.evidence.note).toBe('cwd ~/srv');
		const second = out[1]!;
		expect(second.type === 'mark' && second.mark.type === 'observed' && second.mark.detail).toEqual({
			error: 'spawn ~/bin/srv ENOENT',
			password: '<redacted>',
		});
	});

	it("the report's redacted view masks the marks too", () => {
		const session = sessionFrom(goldenMeta(), [
			chunk('stdout', 0, '{"jsonrpc":"2.0","method":"x"}\n'),
			{tMs: 1, mark: observed},
			{tMs: 5, mark: evidence},
		]);
		const {snapshot} = redactSnapshot(session.getSnapshot(), {home: HOME, user: 'alice'});
		const text = JSON.stringify(snapshot.marks);
		expect(snapshot.marks.map((mark) => mark.type)).toEqual(['observed', 'evidence']);
		expect(text).not.toContain(TOKEN);
		expect(text).not.toContain(HOME);
		expect(text).not.toContain('hunter22x');
	});
});

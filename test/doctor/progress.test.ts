// The doctor's progress line: one stderr line rewritten in place, erased at the end.
import {describe, expect, it} from 'vitest';
import {DoctorProgress} from '../../src/doctor/progress.js';

const ERASE = '\r\u001B[K';

describe('DoctorProgress', () => {
	it('counts rows checked and names the servers running, rewriting one line', () => {
		const written: string[] = [];
		const progress = new DoctorProgress(5, {write: (text) => written.push(text), columns: 200});
		progress.finished(undefined);
		progress.started('claude-desktop/weather');
		progress.started('cursor/github');
		progress.started('vscode/fs');
		progress.started('claude-code/db');
		progress.finished('cursor/github');
		progress.clear();
		progress.clear();
		expect(written).toEqual([
			`${ERASE}mcp-wire: doctor 1/5 checked`,
			`${ERASE}mcp-wire: doctor 1/5 checked · running claude-desktop/weather`,
			`${ERASE}mcp-wire: doctor 1/5 checked · running claude-desktop/weather, cursor/github`,
			`${ERASE}mcp-wire: doctor 1/5 checked · running claude-desktop/weather, cursor/github (+1)`,
			`${ERASE}mcp-wire: doctor 1/5 checked · running claude-desktop/weather, cursor/github (+2)`,
			`${ERASE}mcp-wire: doctor 2/5 checked · running claude-desktop/weather, vscode/fs (+1)`,
			ERASE,
		]);
	});

	it('never wraps: the line is cut to one column less than the terminal', () => {
		const written: string[] = [];
		const progress = new DoctorProgress(16, {write: (text) => written.push(text), columns: 40});
		progress.started('claude-desktop/a-server-with-a-long-name');
		expect(written[0]).toBe(`${ERASE}mcp-wire: doctor 0/16 checked · runnin…`);
		expect([...written[0]!.slice(ERASE.length)]).toHaveLength(39);
	});

	it('writes nothing to clear when nothing was shown', () => {
		const written: string[] = [];
		new DoctorProgress(1, {write: (text) => written.push(text)}).clear();
		expect(written).toEqual([]);
	});
});

describe('DoctorProgress with a clock and the run limit (was: unchanged for 25 s)', () => {
	it('shows the seconds since it began and the limit, and a tick redraws only when they changed', () => {
		const written: string[] = [];
		let now = 1000;
		const progress = new DoctorProgress(3, {
			write: (text) => written.push(text),
			columns: 200,
			now: () => now,
			limitMs: 120_000,
		});
		progress.tick(); // nothing shown yet: nothing drawn
		progress.started('cursor/slow');
		now += 400;
		progress.tick(); // still 0 s: no redraw
		now += 24_700;
		progress.tick();
		now += 999;
		progress.tick(); // 26.099 s: 26 s
		progress.finished('cursor/slow');
		expect(written).toEqual([
			`${ERASE}mcp-wire: doctor 0/3 checked · 0 s of 120 s · running cursor/slow`,
			`${ERASE}mcp-wire: doctor 0/3 checked · 25 s of 120 s · running cursor/slow`,
			`${ERASE}mcp-wire: doctor 0/3 checked · 26 s of 120 s · running cursor/slow`,
			`${ERASE}mcp-wire: doctor 1/3 checked · 26 s of 120 s`,
		]);
	});
});

import {afterEach, describe, expect, it, vi} from 'vitest';
import type {TuiActions} from '../../../src/render/tui/app.js';
import {TuiRoot} from '../../../src/render/tui/start-tui.js';
import {COLOR_THEME} from '../../../src/render/tui/theme.js';
import {
	BACKSPACE,
	CTRL_C,
	DELETE,
	DOWN,
	END,
	ENTER,
	ESC,
	HOME,
	LEFT,
	PAGE_UP,
	RIGHT,
	TAB,
	UP,
} from '../../helpers/keys.js';
import {renderTui, type RenderedTui} from '../../helpers/render-tui.js';
import {Session} from '../../../src/core/session/session.js';
import {exchangeSession, INITIALIZE, META, pingPair} from './exchange.js';

// Interactive tests: keys through a fake stdin, frames from a fake 100×30 stdout, against a real
// Session fed with the bytes of ./exchange.ts (style.md §1.7.3).

let tui: RenderedTui | undefined;
afterEach(() => {
	tui?.unmount();
	tui = undefined;
});

const rowsOf = (frame: string): string[] => frame.split('\n');
/** The frame-list rows (between the column header and the tab line), trailing spaces trimmed. */
const listRows = (frame: string): string[] => {
	const lines = rowsOf(frame);
	const header = lines.findIndex((line) => line.includes('method / id / text'));
	const tabs = lines.findIndex((line) => line.startsWith('Detail '));
	return lines
		.slice(header + 1, tabs)
		.map((line) => line.trimEnd())
		.filter((line) => line !== '');
};
const selectedRow = (frame: string): string | undefined => listRows(frame).find((line) => line.startsWith('▶'));
const footer = (frame: string): string => rowsOf(frame).at(-1)!.trimEnd();

async function open(columns = 100, rows = 30, actions?: TuiActions) {
	const session = exchangeSession();
	tui = renderTui(<TuiRoot initialStore={session} actions={actions} theme={COLOR_THEME} />, {columns, rows});
	await tui.waitForFrame((frame) => frame.includes('#7 ERR'));
	return {session, tui};
}

describe('TUI: opening and follow-tail', () => {
	it('opens on the last frame, following, with status bar and every frame listed', async () => {
		const {tui} = await open();
		const frame = tui.lastFrame();
		expect(rowsOf(frame)[0]).toBe(' WARN  demo  C→S 3 fr 260 B  S→C 3 fr 323 B  ERR 2 ln 53 B  ✖ 1 ▲ 1 • 0  ● live');
		expect(listRows(frame)).toEqual([
			'     0       1.0 C→S    158 req            initialize #1',
			'     1       2.0 ERR     28 text           [info] demo server starting',
			' ✖   2       3.0 S→C     26 text           Server listening on stdio',
			' ▲   3       5.0 S→C    143 resp     4.0ms #1 initialize',
			'     4       6.0 C→S     55 note           notifications/initialized',
			'     5       7.0 C→S     47 req            tools/list #2',
			'     6      12.0 S→C    154 resp     5.0ms #2 tools/list',
			'▶    7      13.0 ERR     25 text           ␛[31mwarn␛[0m: slow disk',
		]);
		expect(rowsOf(frame).slice(12, 15)).toEqual([
			'#7 ERR text · 25 B @0x001c · t 13.0 ms · 1 read',
			'0000001c: 1b5b 3331 6d77 6172  6e1b 5b30 6d3a 2073  6c6f 7720 6469 736b  ␛[31mwarn␛[0m: slow disk',
			'00000034: 0a                                                             ↵',
		]);
		expect(footer(frame)).toBe('8/8 follow  Tab pane  →/l tab  n next fault  / search  ? help  q/^C quit');
		expect(rowsOf(frame)).toHaveLength(29);
	});

	it('never writes captured control bytes raw: the server ESC sequence is shown as glyphs', async () => {
		const {tui} = await open();
		expect(tui.lastFrame()).toContain('␛[31mwarn␛[0m: slow disk');
		for (const written of tui.frames) {
			expect(written).not.toContain('\u001B[31mwarn');
			expect(written).not.toContain('\r');
		}
	});

	it('follows the tail while at the bottom, stays put after scrolling up, and resumes on End', async () => {
		const {session, tui} = await open();
		const first = pingPair(0);
		session.pushChunk('stdin', 20, first.request);
		session.pushChunk('stdout', 23, first.response);
		await tui.waitForFrame((frame) => selectedRow(frame) === '▶    9      23.0 S→C     39 resp     3.0ms #100 ping');
		expect(footer(tui.lastFrame())).toMatch(/^10\/10 follow/);

		await tui.press(UP, UP);
		expect(selectedRow(tui.lastFrame())).toBe('▶    7      13.0 ERR     25 text           ␛[31mwarn␛[0m: slow disk');
		const second = pingPair(1);
		session.pushChunk('stdin', 30, second.request);
		session.pushChunk('stdout', 31, second.response);
		await tui.waitForFrame((frame) => footer(frame).startsWith('8/12 paused'));
		expect(selectedRow(tui.lastFrame())).toBe('▶    7      13.0 ERR     25 text           ␛[31mwarn␛[0m: slow disk');

		await tui.press(END);
		expect(selectedRow(tui.lastFrame())).toBe('▶   11      31.0 S→C     39 resp     1.0ms #101 ping');
		const third = pingPair(2);
		session.pushChunk('stdin', 40, third.request);
		await tui.waitForFrame((frame) => selectedRow(frame) === '▶   12      40.0 C→S     43 req            ping #102');
		expect(footer(tui.lastFrame())).toMatch(/^13\/13 follow/);
	});

	it('batches chunk bursts into one snapshot per ~50 ms', async () => {
		const {session, tui} = await open();
		const before = tui.frames.length;
		for (let n = 0; n < 50; n++) {
			const {request, response} = pingPair(n);
			session.pushChunk('stdin', 100 + n, request);
			session.pushChunk('stdout', 100.5 + n, response);
		}

		await tui.waitForFrame((frame) => footer(frame).startsWith('108/108 follow'));
		// 100 chunks, 400 session events; far fewer renders.
		expect(tui.frames.length - before).toBeLessThanOrEqual(3);
	});
});

describe('TUI: moving, filtering and searching', () => {
	it('moves with arrows, j/k, g and PgUp, and shows the selected frame in the detail pane', async () => {
		const {tui} = await open();
		await tui.press('g');
		expect(selectedRow(tui.lastFrame())).toBe('▶    0       1.0 C→S    158 req            initialize #1');
		await tui.press('j', DOWN, 'j');
		expect(selectedRow(tui.lastFrame())).toBe('▶▲   3       5.0 S→C    143 resp     4.0ms #1 initialize');
		expect(rowsOf(tui.lastFrame()).slice(12, 14)).toEqual([
			'#3 S→C response #1 initialize (reply to #0) · 143 B @0x001a, CR LF · t 5.0 ms · 4.0ms latency · 1 r…',
			'▲ crlf @0x00a7 (2 B): a message on stdout ends with CR LF (0D 0A) instead of LF',
		]);
		await tui.press('k', PAGE_UP);
		expect(selectedRow(tui.lastFrame())).toBe('▶    0       1.0 C→S    158 req            initialize #1');
		expect(footer(tui.lastFrame())).toMatch(/^1\/8 paused/);
	});

	it('toggles each direction and findings-only', async () => {
		const {tui} = await open();
		await tui.press('e');
		expect(listRows(tui.lastFrame()).map((line) => line.slice(2, 6).trim())).toEqual(['0', '2', '3', '4', '5', '6']);
		expect(footer(tui.lastFrame())).toMatch(/^6\/6 of 8 follow \[-ERR\]/);
		await tui.press('i');
		expect(listRows(tui.lastFrame()).map((line) => line.slice(2, 6).trim())).toEqual(['2', '3', '6']);
		await tui.press('e', 'i', 'f');
		expect(listRows(tui.lastFrame())).toEqual([
			' ✖   2       3.0 S→C     26 text           Server listening on stdio',
			'▶▲   3       5.0 S→C    143 resp     4.0ms #1 initialize',
		]);
		expect(footer(tui.lastFrame())).toMatch(/^2\/2 of 8 follow \[faults only\]/);
		await tui.press('o');
		expect(listRows(tui.lastFrame())).toEqual(['  (no frame matches the filter)']);
		expect(footer(tui.lastFrame())).toMatch(/^0\/0 of 8 follow \[-S→C faults only\]/);
	});

	it('searches method, id and text with /, keeps the filter on Enter and clears it on Esc', async () => {
		const {tui} = await open();
		await tui.press('/', 't', 'o', 'o', 'l', 's');
		expect(footer(tui.lastFrame())).toBe('/tools█  Enter keep · Esc clear');
		expect(listRows(tui.lastFrame()).map((line) => line.slice(2, 6).trim())).toEqual(['5', '6']);
		await tui.press(ENTER);
		expect(footer(tui.lastFrame())).toMatch(/^2\/2 of 8 follow \[\/tools\]/);
		// Typing after Enter navigates again (j is a key, not text).
		await tui.press('k');
		expect(selectedRow(tui.lastFrame())).toBe('▶    5       7.0 C→S     47 req            tools/list #2');
		await tui.press('/', BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE, 'd', 'i', 's', 'k');
		expect(listRows(tui.lastFrame()).map((line) => line.slice(2, 6).trim())).toEqual(['7']);
		await tui.press(ESC);
		expect(listRows(tui.lastFrame())).toHaveLength(8);
		// The selection made while filtered (frame 5) is kept.
		expect(footer(tui.lastFrame())).toMatch(/^6\/8 paused/);
	});

	it('n and N jump between frames with findings, wrapping around at the ends', async () => {
		const {tui} = await open();
		await tui.press('g', 'n');
		expect(selectedRow(tui.lastFrame())).toBe('▶✖   2       3.0 S→C     26 text           Server listening on stdio');
		await tui.press('n');
		expect(selectedRow(tui.lastFrame())).toBe('▶▲   3       5.0 S→C    143 resp     4.0ms #1 initialize');
		await tui.press('n');
		expect(footer(tui.lastFrame())).toContain('wrapped to the first frame with a finding');
		expect(selectedRow(tui.lastFrame())).toBe('▶✖   2       3.0 S→C     26 text           Server listening on stdio');
		await tui.press('N');
		expect(footer(tui.lastFrame())).toContain('wrapped to the last frame with a finding');
		expect(selectedRow(tui.lastFrame())).toBe('▶▲   3       5.0 S→C    143 resp     4.0ms #1 initialize');
	});
});

describe('TUI: a server that crashes before any reply', () => {
	it('n reaches the finding that makes the verdict FAIL though no frame carries it', async () => {
		const session = new Session(META);
		session.pushChunk('stdin', 1, new TextEncoder().encode(INITIALIZE));
		session.pushChunk('stderr', 40, new TextEncoder().encode("ModuleNotFoundError: No module named 'x'\n"));
		session.exit({code: 1, signal: null, tMs: 41});
		session.finish(41);
		tui = renderTui(<TuiRoot initialStore={session} theme={COLOR_THEME} />, {columns: 100, rows: 30});
		await tui.waitForFrame((frame) => frame.includes('#1 ERR'));
		expect(rowsOf(tui.lastFrame())[0]).toMatch(/^ FAIL /);
		await tui.press('n');
		const frame = tui.lastFrame();
		expect(footer(frame)).toContain('no frame carries a finding: the findings pane lists it');
		expect(
			rowsOf(frame)
				.slice(12, 15)
				.map((line) => line.trimEnd()),
		).toEqual([
			expect.stringMatching(/^clients: ✘ fails: /),
			'✖ early-exit ×1',
			'    #– S→C @0x0000  the process exited (code 1) before the handshake completed; stderr ends: Module…',
		]);
	});
});

describe('TUI: a command that never starts', () => {
	it('says on the first screen what the findings are, though no frame crossed', async () => {
		const session = new Session(META);
		session.addFinding({
			code: 'spawn-failed',
			stream: 'stdout',
			offset: 0,
			byteLength: 0,
			tMs: 3,
			detail: {file: 'uvx', errno: 'ENOENT', reason: 'command not found (ENOENT)'},
		});
		session.finish(3);
		tui = renderTui(<TuiRoot initialStore={session} theme={COLOR_THEME} />, {columns: 100, rows: 20});
		await tui.waitForFrame((frame) => frame.includes('■ ended'));
		const rows = rowsOf(tui.lastFrame()).map((line) => line.trimEnd());
		expect(rows[2]).toBe('  (no frames: nothing crossed the wire)');
		const tabs = rows.findIndex((line) => line.startsWith('Detail'));
		expect(rows.slice(tabs + 1, tabs + 3)).toEqual([
			'No frame selected. Findings (Tab: the findings pane has the fix):',
			'✖ spawn-failed at the spawn: cannot start `uvx`: command not found (ENOENT)',
		]);
	});
});

describe('TUI: panes', () => {
	it('Tab to the findings pane, pick a finding, Enter jumps to its frame with the bytes in the hex tab', async () => {
		const {tui} = await open();
		await tui.press(TAB, TAB);
		const findings = rowsOf(tui.lastFrame());
		expect(findings[11]).toBe('Detail  Hex   JSON   Raw   Chunks  │ Findings 2 │ Stderr 2');
		expect(findings.slice(12, 17).map((line) => line.trimEnd())).toEqual([
			'clients: ? not established: Cursor (stray-output, crlf) · ▲ degraded: TS SDK v1 (Claude Desktop/Cod…',
			'✖ stray-output ×1',
			'    #2 S→C @0x0000 25 B  stdout carries a banner line before any message, not an MCP message',
			'▲ crlf ×1',
			'    #3 S→C @0x00a7 2 B  a message on stdout ends with CR LF (0D 0A) instead of LF',
		]);
		await tui.press(DOWN, ENTER);
		const jumped = tui.lastFrame();
		expect(selectedRow(jumped)).toBe('▶▲   3       5.0 S→C    143 resp     4.0ms #1 initialize');
		expect(rowsOf(jumped).slice(12, 20)).toEqual([
			'#3 S→C response #1 initialize (reply to #0) · 143 B @0x001a, CR LF · t 5.0 ms · 4.0ms latency · 1 r…',
			'▲ crlf @0x00a7 (2 B): a message on stdout ends with CR LF (0D 0A) instead of LF',
			'0000001a: 7b22 6a73 6f6e 7270  6322 3a22 322e 3022  2c22 6964 223a 312c  {"jsonrpc":"2.0","id":1,',
			'00000032: 2272 6573 756c 7422  3a7b 2270 726f 746f  636f 6c56 6572 7369  "result":{"protocolVersi',
			'0000004a: 6f6e 223a 2232 3032  352d 3036 2d31 3822  2c22 6361 7061 6269  on":"2025-06-18","capabi',
			'00000062: 6c69 7469 6573 223a  7b22 746f 6f6c 7322  3a7b 7d7d 2c22 7365  lities":{"tools":{}},"se',
			'0000007a: 7276 6572 496e 666f  223a 7b22 6e61 6d65  223a 2264 656d 6f22  rverInfo":{"name":"demo"',
			'00000092: 2c22 7665 7273 696f  6e22 3a22 312e 302e  3022 7d7d 7d0d 0a    ,"version":"1.0.0"}}}←↵',
		]);
		// The CR LF bytes (offset 0xa7–0xa8) are the highlighted ones.
		const raw = tui.lastFrame({raw: true});
		expect(raw).toMatch(/\u001B\[7m(?:\u001B\[[\d;]*m)*0d 0a/);
	});

	it('cycles the detail tabs: JSON, raw, chunks', async () => {
		const {tui} = await open();
		await tui.press('g', 'j', 'j', 'j', 'j', 'j', 'j');
		await tui.press('l');
		expect(rowsOf(tui.lastFrame()).slice(13, 17)).toEqual(['{', '  "jsonrpc": "2.0",', '  "id": 2,', '  "result": {']);
		await tui.press('l');
		expect(rowsOf(tui.lastFrame()).slice(13, 15)).toEqual([
			'{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object","properties',
			'":{"text":{"type":"string"}},"required":["text"]}}]}}↵',
		]);
		await tui.press('l');
		expect(rowsOf(tui.lastFrame()).slice(12, 16)).toEqual([
			'#6 S→C response #2 tools/list (reply to #5) · 154 B @0x00a9 · t 12.0 ms · 5.0ms latency · 2 reads',
			'2 reads from 9.0 ms to 12.0 ms (3.0 ms apart)',
			'read #6 at 9.0 ms (+0.0 ms): frame bytes 0–152 (153 of a 153-byte read)',
			'read #7 at 12.0 ms (+3.0 ms): frame bytes 153–153 (1 of a 1-byte read)',
		]);
		await tui.press('l');
		expect(rowsOf(tui.lastFrame())[13]).toMatch(/^000000a9: 7b22 6a73/);
	});

	it('shows the stderr pane and jumps from a line to its frame', async () => {
		const {tui} = await open();
		await tui.press(TAB, TAB, TAB);
		expect(
			rowsOf(tui.lastFrame())
				.slice(12, 14)
				.map((line) => line.trimEnd()),
		).toEqual(['      2.0  [info] demo server starting', '     13.0  ␛[31mwarn␛[0m: slow disk']);
		await tui.press(UP, ENTER);
		expect(selectedRow(tui.lastFrame())).toBe('▶    1       2.0 ERR     28 text           [info] demo server starting');
	});

	it('scrolls the detail pane when it has focus (Enter on the list focuses it)', async () => {
		const {tui} = await open(60, 20);
		await tui.press('g', 'j', 'j', 'j', ENTER);
		const before = rowsOf(tui.lastFrame()).find((line) => line.startsWith('0000'));
		expect(before).toBe('0000001a: 7b22 6a73 6f6e 7270  {"jsonrp');
		await tui.press('j', 'j');
		expect(rowsOf(tui.lastFrame()).find((line) => line.startsWith('0000'))).toBe(
			'0000002a: 2c22 6964 223a 312c  ,"id":1,',
		);
	});

	it('opens help generated from the key table and closes it', async () => {
		const {tui} = await open();
		await tui.press('?');
		expect(
			rowsOf(tui.lastFrame())
				.slice(1, 4)
				.map((line) => line.trimEnd()),
		).toEqual([
			'Keys (? or Esc closes help)',
			'Everywhere                                         Frame list',
			'  ↑/k     previous frame / finding / line; scrol…    Enter   show the selected frame in the detail …',
		]);
		await tui.press('?');
		expect(tui.lastFrame()).not.toContain('Keys (');
		expect(listRows(tui.lastFrame())).toHaveLength(8);
	});

	it('re-lays out on resize', async () => {
		const {tui} = await open();
		tui.resize(60, 20);
		await tui.waitForFrame(
			(frame) => rowsOf(frame)[0] === ' WARN   C→S 3/260 B  S→C 3/323 B  ERR 2/53 B  ✖1 ▲1  ● live',
		);
		const frame = tui.lastFrame();
		expect(rowsOf(frame)).toHaveLength(19);
		expect(rowsOf(frame)[1]).toBe('     #        ms dir  bytes kind  method / id / text');
		expect(rowsOf(frame).find((line) => line.startsWith('0000001c'))).toBe('0000001c: 1b5b 3331 6d77 6172  ␛[31mwar');
		tui.resize(30, 8);
		// The minimum comes first and the line wraps: a narrow terminal still shows it whole.
		await tui.waitForFrame((frame) =>
			frame
				.replaceAll('\n', ' ')
				.replaceAll(/ +/g, ' ')
				.includes('mcp-wire needs at least 40×11; this terminal is 30×8. Enlarge it, or q to quit.'),
		);
	});
});

describe('TUI: acting and quitting', () => {
	it('hides s and r without actions', async () => {
		const {tui} = await open();
		await tui.press('s', 'r');
		expect(tui.lastFrame()).not.toContain('Send a request');
		expect(footer(tui.lastFrame())).not.toContain('send');
	});

	it('s picks a method, edits params and sends through actions.send; then the list follows the reply', async () => {
		const send = vi.fn();
		const {session, tui} = await open(100, 30, {send});
		await tui.press('g', 's');
		expect(
			rowsOf(tui.lastFrame())
				.slice(11, 14)
				.map((line) => line.trimEnd()),
		).toEqual(['Send a request: ↑/↓ pick · Enter edit params · Esc cancel', '  tools/call echo', '  ping']);
		await tui.press(ENTER);
		// The cursor starts inside the empty argument.
		expect(footer(tui.lastFrame())).toBe('params› {"name":"echo","arguments":{"text":"█"}}');
		// Type the value, then erase the last brace: Enter reports the JSON error and sends nothing.
		await tui.press('h', 'i', END, BACKSPACE, ENTER);
		expect(send).toHaveBeenCalledTimes(0);
		expect(footer(tui.lastFrame())).toMatch(
			/^params› \{"name":"echo","arguments":\{"text":"hi"\}█ {2}✖ params are not JSON/,
		);
		await tui.press('}', ENTER);
		expect(send).toHaveBeenCalledWith('tools/call', {name: 'echo', arguments: {text: 'hi'}});
		expect(footer(tui.lastFrame())).toMatch(/^8\/8 follow {2}sent tools\/call/);
		session.pushChunk(
			'stdin',
			50,
			new TextEncoder().encode(
				'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}\n',
			),
		);
		session.pushChunk(
			'stdout',
			52,
			new TextEncoder().encode('{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}}\n'),
		);
		await tui.waitForFrame(
			(frame) => selectedRow(frame) === '▶    9      52.0 S→C     76 resp     2.0ms #3 tools/call',
		);
	});

	it('calls a listed tool with arguments from its inputSchema, filled in place with the cursor keys', async () => {
		const send = vi.fn();
		const session = new Session(META);
		const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
		const weather = {
			name: 'get_weather',
			inputSchema: {
				type: 'object',
				properties: {
					city: {type: 'string'},
					units: {enum: ['celsius', 'fahrenheit']},
					days: {type: 'integer', minimum: 1},
					verbose: {type: 'boolean'},
				},
				required: ['city', 'units', 'days'],
			},
		};
		session.pushChunk('stdin', 1, encode(INITIALIZE));
		session.pushChunk(
			'stdout',
			2,
			encode(
				'{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"weather","version":"1"}}}\n',
			),
		);
		session.pushChunk('stdin', 3, encode('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n'));
		session.pushChunk('stdout', 4, encode(`${JSON.stringify({jsonrpc: '2.0', id: 2, result: {tools: [weather]}})}\n`));
		tui = renderTui(<TuiRoot initialStore={session} actions={{send}} theme={COLOR_THEME} />, {columns: 100, rows: 30});
		await tui.waitForFrame((frame) => frame.includes('#2 tools/list'));
		await tui.press('s');
		expect(rowsOf(tui.lastFrame())[12]!.trimEnd()).toBe('  tools/call get_weather');
		await tui.press(ENTER);
		// The arguments of `probe --call`: the first enum value, the minimum, the cursor inside `"city":""`.
		expect(footer(tui.lastFrame())).toBe(
			'params› {"name":"get_weather","arguments":{"city":"█","units":"celsius","days":1}}',
		);
		await tui.press('L', 'y', 'o', 'm');
		expect(footer(tui.lastFrame())).toBe(
			'params› {"name":"get_weather","arguments":{"city":"Lyom█","units":"celsius","days":1}}',
		);
		// Fix the typo in place: ← Backspace Delete, type, → past the quote.
		await tui.press(LEFT, BACKSPACE, DELETE, 'n', RIGHT);
		expect(footer(tui.lastFrame())).toBe(
			'params› {"name":"get_weather","arguments":{"city":"Lyn"█,"units":"celsius","days":1}}',
		);
		await tui.press(HOME);
		expect(footer(tui.lastFrame())).toBe(
			'params› █{"name":"get_weather","arguments":{"city":"Lyn","units":"celsius","days":1}}',
		);
		await tui.press(END, LEFT, LEFT, BACKSPACE, '3', ENTER);
		expect(send).toHaveBeenCalledWith('tools/call', {
			name: 'get_weather',
			arguments: {city: 'Lyn', units: 'celsius', days: 3},
		});
	});

	it('Esc cancels the send panel without sending', async () => {
		const send = vi.fn();
		const {tui} = await open(100, 30, {send});
		await tui.press('s', DOWN, ENTER);
		expect(footer(tui.lastFrame())).toBe('params› {}█');
		await tui.press(ESC);
		expect(tui.lastFrame()).not.toContain('params›');
		expect(send).not.toHaveBeenCalled();
	});

	it('r re-runs and shows the fresh session the action returns', async () => {
		const fresh = exchangeSession();
		fresh.pushChunk('stdin', 30, pingPair(9).request);
		const rerun = vi.fn(() => fresh);
		const {tui} = await open(100, 30, {rerun});
		await tui.press('r');
		expect(rerun).toHaveBeenCalledTimes(1);
		await tui.waitForFrame((frame) => selectedRow(frame) === '▶    8      30.0 C→S     43 req            ping #109');
	});

	it('q quits: the ink app exits and unmounts', async () => {
		const {tui} = await open();
		const exited = tui.instance.waitUntilExit();
		await tui.press('q');
		await expect(exited).resolves.toBeUndefined();
		expect(tui.stdin.isRaw).toBe(false);
	});

	it('Ctrl+C quits too, even from the search line', async () => {
		const {tui} = await open();
		const exited = tui.instance.waitUntilExit();
		await tui.press('/', 'x', CTRL_C);
		await expect(exited).resolves.toBeUndefined();
	});
});

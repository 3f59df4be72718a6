import {renderToString} from 'ink';
import {describe, expect, it} from 'vitest';
import {hexRows} from '../../../../src/core/bytes/hex-layout.js';
import {chunkLines, chunkSummary} from '../../../../src/render/tui/components/chunks-pane.js';
import {detailHeader, findingSummarySegments} from '../../../../src/render/tui/components/detail-pane.js';
import {findingItemSegments} from '../../../../src/render/tui/components/findings-pane.js';
import {makeFinding} from '../../../helpers/factories.js';
import {fitHints, footerSegments, type FooterModel} from '../../../../src/render/tui/components/footer.js';
import {HexPane, hexLineSegments, hexRowCount, visibleHexRows} from '../../../../src/render/tui/components/hex-pane.js';
import {jsonLines, MAX_JSON_LINES} from '../../../../src/render/tui/components/json-pane.js';
import {segmentsText} from '../../../../src/render/tui/components/line.js';
import {RAW_LIMIT, rawLines} from '../../../../src/render/tui/components/raw-pane.js';
import {statusSegments} from '../../../../src/render/tui/components/status-bar.js';
import {tabBarSegments} from '../../../../src/render/tui/components/tab-bar.js';
import {NO_FILTER, statusModel} from '../../../../src/render/tui/state/selectors.js';
import {
	byteToken,
	COLOR_THEME,
	createTheme,
	kindToken,
	MONO_THEME,
	resolveColor,
} from '../../../../src/render/tui/theme.js';
import {exchangeSession} from '../exchange.js';

// Colour is tested at the token level (style.md §1.7.2); one ANSI-level check covers the highlight.

const snapshot = exchangeSession().getSnapshot();
const {frames, findings} = snapshot;
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('hex rows: tokens', () => {
	it('paints cells by byte category, CR with its own token, and a highlighted CR LF as one block', () => {
		// 7b 22 61 22 3a 00 09 1b c3 a9 7d 0d 0a at stream offset 0x20; CR LF at 0x2b–0x2c highlighted.
		const [row] = hexRows(encode('{"a":\u0000\t\u001B\u00E9}\r\n'), {
			baseOffset: 0x20,
			bytesPerRow: 16,
			highlight: [{offset: 0x2b, length: 2}],
		});
		expect(hexLineSegments(row!, 16)).toEqual([
			{text: '00000020:', token: 'hex.offset'},
			{text: ' ', token: 'ui.plain'},
			{text: '7b22', token: 'byte.printable'},
			{text: ' ', token: 'ui.plain'},
			{text: '6122', token: 'byte.printable'},
			{text: ' ', token: 'ui.plain'},
			{text: '3a', token: 'byte.printable'},
			{text: '00', token: 'byte.null'},
			{text: ' ', token: 'ui.plain'},
			{text: '09', token: 'byte.whitespace'},
			{text: '1b', token: 'byte.other'},
			{text: '  ', token: 'ui.plain'},
			{text: 'c3a9', token: 'byte.nonAscii'},
			{text: ' ', token: 'ui.plain'},
			{text: '7d', token: 'byte.printable'},
			{text: '0d 0a', token: 'byte.highlight'},
			{text: '         ', token: 'ui.plain'},
			{text: '{"a":', token: 'byte.printable'},
			{text: '␀', token: 'byte.null'},
			{text: '_', token: 'byte.whitespace'},
			{text: '␛', token: 'byte.other'},
			{text: '××', token: 'byte.nonAscii'},
			{text: '}', token: 'byte.printable'},
			{text: '←↵', token: 'byte.highlight'},
		]);
		expect(segmentsText(hexLineSegments(row!, 16))).toBe(
			'00000020: 7b22 6122 3a00 091b  c3a9 7d0d 0a         {"a":␀_␛××}←↵',
		);
	});

	it('gives CR the byte.cr token when not highlighted, and shows squeezed rows', () => {
		const [row] = hexRows(encode('a\r'), {baseOffset: 0, bytesPerRow: 8});
		expect(hexLineSegments(row!, 8).filter((segment) => segment.token === 'byte.cr')).toEqual([
			{text: '0d', token: 'byte.cr'},
			{text: '←', token: 'byte.cr'},
		]);
		const squeezed = hexRows(new Uint8Array(64), {baseOffset: 0, bytesPerRow: 16, squeeze: true});
		expect(squeezed.map((r) => segmentsText(hexLineSegments(r, 16)))).toEqual([
			'00000000: 0000 0000 0000 0000  0000 0000 0000 0000  ␀␀␀␀␀␀␀␀␀␀␀␀␀␀␀␀',
			'00000010: * (3 identical rows, 48 bytes)',
		]);
	});

	it('reads only the visible rows of a frame', () => {
		const reads: [number, number][] = [];
		const read = (offset: number, length: number): Uint8Array => {
			reads.push([offset, length]);
			return new Uint8Array(length);
		};

		const rows = visibleHexRows({read, offset: 1000, byteLength: 10 * 1024 * 1024}, 16, 500, 20, []);
		expect(reads).toEqual([[9000, 320]]);
		expect(rows.map((r) => r.offset)).toEqual(Array.from({length: 20}, (_, i) => 9000 + 16 * i));
		expect(hexRowCount(10 * 1024 * 1024, 24)).toBe(436_907);
		expect(visibleHexRows({read, offset: 0, byteLength: 10}, 16, 1, 20, [])).toEqual([]);
	});

	it('emits inverse video around the highlighted bytes (FORCE_COLOR is set in test/setup.ts)', () => {
		const frame = frames[3]!;
		const rows = visibleHexRows(
			{read: (o, l) => snapshot.bytes('stdout', o, l), offset: frame.offset, byteLength: frame.byteLength},
			16,
			8,
			1,
			[{offset: 167, length: 2}],
		);
		const out = renderToString(<HexPane rows={rows} perRow={16} height={1} />, {columns: 80});
		expect(out).toContain('\u001B[7m');
		// Row 8 of the frame: `…7d 0d 0a`; the CR, the gap and the LF sit inside one inverse run.
		expect(out.slice(out.indexOf('\u001B[7m'))).toMatch(
			/^\u001B\[7m(?:\u001B\[[\d;]*m)*0d 0a\u001B\[39m\u001B\[22m\u001B\[27m/,
		);
	});
});

describe('theme tokens', () => {
	it('maps byte categories and frame kinds to tokens', () => {
		expect([
			byteToken(0x41, 'ascii-printable', false),
			byteToken(0x0d, 'ascii-whitespace', false),
			byteToken(0x0d, 'ascii-whitespace', true),
			byteToken(0x00, 'null', false),
		]).toEqual(['byte.printable', 'byte.cr', 'byte.highlight', 'byte.null']);
		expect([
			kindToken('text', 'stdout'),
			kindToken('text', 'stderr'),
			kindToken('request', 'stdin'),
			kindToken('error', 'stdout'),
			kindToken('blank', 'stdout'),
		]).toEqual(['kind.stray', 'stream.stderr', 'kind.message', 'kind.error', 'kind.blank']);
	});

	it('honours NO_COLOR and --color, and keeps only attributes without colour', () => {
		expect(resolveColor('auto', {}, true)).toBe(true);
		expect(resolveColor('auto', {NO_COLOR: '1'}, true)).toBe(false);
		expect(resolveColor('auto', {NO_COLOR: ''}, true)).toBe(true);
		expect(resolveColor('auto', {}, false)).toBe(false);
		expect(resolveColor('always', {NO_COLOR: '1'}, false)).toBe(true);
		expect(resolveColor('never', {}, true)).toBe(false);
		expect(createTheme(false)).toBe(MONO_THEME);
		expect(createTheme(true)).toBe(COLOR_THEME);
		const colours = Object.values(MONO_THEME.tokens).filter(
			(style) => style.color !== undefined || style.backgroundColor !== undefined,
		);
		expect(colours).toEqual([]);
		expect(MONO_THEME.tokens['byte.highlight']).toEqual({inverse: true, underline: true});
		expect(MONO_THEME.tokens['ui.selected']).toEqual({inverse: true});
	});
});

describe('pane text', () => {
	it('pretty-prints JSON with token colours and escaped strings', () => {
		const out = jsonLines({a: [1, true, null], 'k\u202E': 'x\u001B[2J', e: {}}, 40);
		expect(out.map(segmentsText)).toEqual([
			'{',
			'  "a": [',
			'    1,',
			'    true,',
			'    null',
			'  ],',
			'  "k\\u{202e}": "x\\u001b[2J",',
			'  "e": {}',
			'}',
		]);
		expect(out[1]).toEqual([
			{text: '  ', token: 'ui.plain'},
			{text: '"a"', token: 'json.key'},
			{text: ': [', token: 'json.punct'},
		]);
		expect(out[6]!.map((segment) => segment.token)).toEqual([
			'ui.plain',
			'json.key',
			'json.punct',
			'json.string',
			'json.punct',
		]);
		// Long strings are cut to the width with the bytes left out, and keep their closing quote.
		expect(segmentsText(jsonLines('x'.repeat(100), 30)[0]!)).toBe('"xxxxxxxxxxxxxx…" (+86 bytes)');
		expect(segmentsText(jsonLines({k: 'y'.repeat(100)}, 30)[1]!)).toBe('  "k": "yyyyyyy…" (+93 bytes)');
		// A string that fits is shown whole.
		expect(segmentsText(jsonLines('x'.repeat(27), 30)[0]!)).toBe(`"${'x'.repeat(27)}"`);
		const huge = jsonLines(
			Array.from({length: MAX_JSON_LINES + 5}, (_, i) => i),
			80,
		);
		expect(huge.length).toBe(MAX_JSON_LINES + 1);
		expect(segmentsText(huge.at(-1)!)).toBe('… (cut at 20000 lines; the raw and hex tabs show every byte)');
	});

	it('shows raw bytes escaped, a line per LF, wrapped to the width', () => {
		const bytes = new Uint8Array([...encode('ab\u001B[31mc\r\nsecond line\n'), 0xff, 0x41]);
		expect(rawLines(bytes, 10)).toEqual(['ab␛[31mc←↵', 'second lin', 'e↵', '\\xffA']);
		const big = new Uint8Array(RAW_LIMIT + 10).fill(0x41);
		const lines = rawLines(big.subarray(0, RAW_LIMIT), 1000, big.length);
		expect(lines.length).toBe(67);
		expect(lines.at(-1)).toBe('… (10 more bytes; the hex tab shows all 65,546)');
	});

	it('lists the reads that delivered a frame', () => {
		const frame = frames[6]!;
		expect(chunkLines(frame, snapshot.chunksOf(frame))).toEqual([
			'2 reads from 9.0 ms to 12.0 ms (3.0 ms apart)',
			'read #6 at 9.0 ms (+0.0 ms): frame bytes 0–152 (153 of a 153-byte read)',
			'read #7 at 12.0 ms (+3.0 ms): frame bytes 153–153 (1 of a 1-byte read)',
		]);
		expect(chunkSummary(snapshot.chunksOf(frames[0]!))).toBe('1 read at 1.0 ms');
		expect(chunkSummary([])).toBe('no reads recorded');
	});

	it('describes the frame and its finding', () => {
		expect(segmentsText(detailHeader(frames[3]!, 1))).toBe(
			'#3 S→C response #1 initialize (reply to #0) · 143 B @0x001a, CR LF · t 5.0 ms · 4.0ms latency · 1 read',
		);
		expect(detailHeader(frames[6]!, 2).at(-1)).toEqual({text: ' · 2 reads', token: 'severity.warning'});
		expect(findingSummarySegments(findings[1]!, 60)).toEqual([
			{text: '▲ crlf', token: 'severity.warning'},
			{text: ' @0x00a7 (2 B): ', token: 'ui.dim'},
			{text: 'a message on stdout ends with CR LF (…', token: 'ui.plain'},
		]);
	});

	it('places a spawn failure at the spawn, not at stdout @0x0000 (nothing was read)', () => {
		const spawn = makeFinding({
			code: 'spawn-failed',
			severity: 'error',
			offset: 0,
			byteLength: 0,
			message: 'cannot start `x`',
		});
		expect(segmentsText(findingItemSegments(spawn, 60))).toBe('    #– at the spawn  cannot start `x`');
		expect(segmentsText(findingSummarySegments(spawn, 60))).toBe('✖ spawn-failed at the spawn: cannot start `x`');
	});

	it('builds the tab line and the status bar from tokens', () => {
		expect(tabBarSegments('findings', 'json', 2, 0)).toEqual([
			{text: 'Detail', token: 'ui.dim'},
			{text: '  Hex   JSON   Raw   Chunks ', token: 'ui.plain'},
			{text: ' │ ', token: 'ui.dim'},
			{text: 'Findings 2', token: 'ui.focus'},
			{text: ' │ Stderr 0', token: 'ui.dim'},
		]);
		expect(tabBarSegments('frames', 'json', 0, 1).slice(0, 4)).toEqual([
			{text: 'Detail', token: 'ui.dim'},
			{text: '  Hex  ', token: 'ui.plain'},
			{text: ' JSON ', token: 'ui.selected'},
			{text: '  Raw   Chunks ', token: 'ui.plain'},
		]);
		expect(statusSegments(statusModel(snapshot), 80).slice(0, 2)).toEqual([
			{text: ' WARN ', token: 'verdict.warn'},
			{text: '  ', token: 'ui.plain'},
		]);
	});

	it('builds the footer: position, follow, filters, notice, hints; or the input line', () => {
		const base: FooterModel = {
			input: null,
			filter: NO_FILTER,
			cursor: 2,
			shown: 8,
			total: 8,
			isFollowing: false,
			notice: '',
			hints: '? help',
		};
		expect(segmentsText(footerSegments(base))).toBe('3/8 paused  ? help');
		const filtered = {
			...base,
			filter: {streams: {stdin: true, stdout: true, stderr: false}, isFindingsOnly: true, search: 'a\u001B'},
			shown: 2,
			cursor: 0,
			isFollowing: true,
			notice: 'sent ping',
		};
		expect(segmentsText(footerSegments(filtered))).toBe('1/2 of 8 follow [-ERR faults only /a␛]  sent ping  ? help');
		expect(segmentsText(footerSegments({...base, shown: 0, cursor: -1}))).toBe('0/0 of 8 paused  ? help');
		expect(segmentsText(footerSegments({...base, input: {mode: 'search', text: 'tools'}}))).toBe(
			'/tools█  Enter keep · Esc clear',
		);
		expect(
			segmentsText(
				footerSegments({
					...base,
					input: {mode: 'send-params', method: 'ping', label: 'ping', text: '{', cursor: 1, error: 'bad'},
				}),
			),
		).toBe('params› {█  ✖ bad');
		const params = {mode: 'send-params', method: 'tools/call', label: 'tools/call w', text: '{"city":""}'} as const;
		expect(segmentsText(footerSegments({...base, input: {...params, cursor: 9}}))).toBe('params› {"city":"█"}');
		// Past the width the text before the cursor is cut on the left, so the cursor stays on screen.
		expect(segmentsText(footerSegments({...base, input: {...params, cursor: 9}}, 16))).toBe('params› …ity":"█"}');
	});

	it('keeps the help and quit hints in a narrow footer, dropping others from the right', () => {
		const hints = 'Tab pane  →/l tab  n next fault  / search  s send  r rerun  ? help  q/^C quit';
		const model: FooterModel = {
			input: null,
			filter: NO_FILTER,
			cursor: 1,
			shown: 10,
			total: 10,
			isFollowing: false,
			notice: '',
			hints,
		};
		expect(segmentsText(footerSegments(model, 120))).toBe(`2/10 paused  ${hints}`);
		// 80 columns: `2/10 paused  ` leaves 67, and all the hints take 76.
		expect(segmentsText(footerSegments(model, 80))).toBe(
			'2/10 paused  Tab pane  →/l tab  n next fault  / search  ? help  q/^C quit',
		);
		expect(segmentsText(footerSegments(model, 40))).toBe('2/10 paused  Tab pane  ? help  q/^C quit');
		expect(segmentsText(footerSegments(model, 30))).toBe('2/10 paused  ? help  q/^C quit');
		expect(fitHints(hints, 10)).toBe('? help  q/^C quit');
	});
});

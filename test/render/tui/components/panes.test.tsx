import {renderToString} from 'ink';
import type {ReactElement} from 'react';
import stripAnsi from 'strip-ansi';
import {describe, expect, it} from 'vitest';
import {DetailPane} from '../../../../src/render/tui/components/detail-pane.js';
import {clientsLineSegments, FindingsPane} from '../../../../src/render/tui/components/findings-pane.js';
import {FrameList} from '../../../../src/render/tui/components/frame-list.js';
import {HelpOverlay, helpLayout} from '../../../../src/render/tui/components/help-overlay.js';
import {HexPane, visibleHexRows} from '../../../../src/render/tui/components/hex-pane.js';
import {jsonLines} from '../../../../src/render/tui/components/json-pane.js';
import {StatusBar} from '../../../../src/render/tui/components/status-bar.js';
import {StderrPane} from '../../../../src/render/tui/components/stderr-pane.js';
import {helpSections} from '../../../../src/render/tui/state/keymap.js';
import {
	findingsLayout,
	groupFindings,
	hexPanels,
	identityView,
	indexFindings,
	statusModel,
	stderrFrames,
} from '../../../../src/render/tui/state/selectors.js';
import {exchangeSession} from '../exchange.js';

// Presentational components rendered with ink's renderToString at fixed widths (style.md §1.7.2),
// asserted exactly on the ANSI-stripped output. The data is a real session fed with the bytes of
// ../exchange.ts.

const snapshot = exchangeSession().getSnapshot();
const {frames, findings} = snapshot;
const severity = indexFindings(findings).severity;
const WIDTHS = [60, 80, 120] as const;
const lines = (node: ReactElement, columns: number): string[] => stripAnsi(renderToString(node, {columns})).split('\n');
const stdoutBytes = (offset: number, length: number): Uint8Array => snapshot.bytes('stdout', offset, length);

describe('FrameList', () => {
	const expected: Record<(typeof WIDTHS)[number], string[]> = {
		60: [
			'     #        ms dir  bytes kind  method / id / text',
			'     0       1.0 C→S    158 req   initialize #1',
			'     1       2.0 ERR     28 text  [info] demo s… (+14 bytes)',
			' ✖   2       3.0 S→C     26 text  Server listening on stdio',
			'▶▲   3       5.0 S→C    143 resp  #1 initialize             ',
			'     4       6.0 C→S     55 note  notifications/initialized',
			'     5       7.0 C→S     47 req   tools/list #2',
			'     6      12.0 S→C    154 resp  #2 tools/list',
			'     7      13.0 ERR     25 text  ␛[31mwarn␛[0m: slow disk',
		],
		80: [
			'     #        ms dir  bytes kind   latency method / id / text',
			'     0       1.0 C→S    158 req            initialize #1',
			'     1       2.0 ERR     28 text           [info] demo server starting',
			' ✖   2       3.0 S→C     26 text           Server listening on stdio',
			'▶▲   3       5.0 S→C    143 resp     4.0ms #1 initialize                        ',
			'     4       6.0 C→S     55 note           notifications/initialized',
			'     5       7.0 C→S     47 req            tools/list #2',
			'     6      12.0 S→C    154 resp     5.0ms #2 tools/list',
			'     7      13.0 ERR     25 text           ␛[31mwarn␛[0m: slow disk',
		],
		120: [
			'     #        ms dir  bytes kind   latency method / id / text',
			'     0       1.0 C→S    158 req            initialize #1',
			'     1       2.0 ERR     28 text           [info] demo server starting',
			' ✖   2       3.0 S→C     26 text           Server listening on stdio',
			'▶▲   3       5.0 S→C    143 resp     4.0ms #1 initialize                                                                ',
			'     4       6.0 C→S     55 note           notifications/initialized',
			'     5       7.0 C→S     47 req            tools/list #2',
			'     6      12.0 S→C    154 resp     5.0ms #2 tools/list',
			'     7      13.0 ERR     25 text           ␛[31mwarn␛[0m: slow disk',
		],
	};

	it.each(WIDTHS)('renders the header and one line per frame at %i columns (latency column from 80)', (width) => {
		expect(
			lines(
				<FrameList
					frames={frames}
					view={identityView(8)}
					start={0}
					end={8}
					cursor={3}
					rows={8}
					width={width}
					severity={severity}
					isFocused
				/>,
				width,
			),
		).toEqual(expected[width]);
	});

	it('renders only the visible slice', () => {
		const out = lines(
			<FrameList
				frames={frames}
				view={identityView(8)}
				start={5}
				end={7}
				cursor={6}
				rows={2}
				width={80}
				severity={severity}
				isFocused={false}
			/>,
			80,
		);
		expect(out).toEqual([expected[80][0], expected[80][6], expected[80][7]!.replace(/^ /, '▶').padEnd(80)]);
	});
});

describe('HexPane', () => {
	const expected: Record<(typeof WIDTHS)[number], string[]> = {
		60: [
			'0000001a: 7b22 6a73 6f6e 7270  {"jsonrp',
			'00000022: 6322 3a22 322e 3022  c":"2.0"',
			'0000002a: 2c22 6964 223a 312c  ,"id":1,',
			'00000032: 2272 6573 756c 7422  "result"',
			'0000003a: 3a7b 2270 726f 746f  :{"proto',
			'00000042: 636f 6c56 6572 7369  colVersi',
			'0000004a: 6f6e 223a 2232 3032  on":"202',
			'00000052: 352d 3036 2d31 3822  5-06-18"',
			'0000005a: 2c22 6361 7061 6269  ,"capabi',
			'00000062: 6c69 7469 6573 223a  lities":',
			'0000006a: 7b22 746f 6f6c 7322  {"tools"',
			'00000072: 3a7b 7d7d 2c22 7365  :{}},"se',
			'0000007a: 7276 6572 496e 666f  rverInfo',
			'00000082: 223a 7b22 6e61 6d65  ":{"name',
			'0000008a: 223a 2264 656d 6f22  ":"demo"',
			'00000092: 2c22 7665 7273 696f  ,"versio',
			'0000009a: 6e22 3a22 312e 302e  n":"1.0.',
			'000000a2: 3022 7d7d 7d0d 0a    0"}}}←↵',
		],
		80: [
			'0000001a: 7b22 6a73 6f6e 7270  6322 3a22 322e 3022  {"jsonrpc":"2.0"',
			'0000002a: 2c22 6964 223a 312c  2272 6573 756c 7422  ,"id":1,"result"',
			'0000003a: 3a7b 2270 726f 746f  636f 6c56 6572 7369  :{"protocolVersi',
			'0000004a: 6f6e 223a 2232 3032  352d 3036 2d31 3822  on":"2025-06-18"',
			'0000005a: 2c22 6361 7061 6269  6c69 7469 6573 223a  ,"capabilities":',
			'0000006a: 7b22 746f 6f6c 7322  3a7b 7d7d 2c22 7365  {"tools":{}},"se',
			'0000007a: 7276 6572 496e 666f  223a 7b22 6e61 6d65  rverInfo":{"name',
			'0000008a: 223a 2264 656d 6f22  2c22 7665 7273 696f  ":"demo","versio',
			'0000009a: 6e22 3a22 312e 302e  3022 7d7d 7d0d 0a    n":"1.0.0"}}}←↵',
		],
		120: [
			'0000001a: 7b22 6a73 6f6e 7270  6322 3a22 322e 3022  2c22 6964 223a 312c  {"jsonrpc":"2.0","id":1,',
			'00000032: 2272 6573 756c 7422  3a7b 2270 726f 746f  636f 6c56 6572 7369  "result":{"protocolVersi',
			'0000004a: 6f6e 223a 2232 3032  352d 3036 2d31 3822  2c22 6361 7061 6269  on":"2025-06-18","capabi',
			'00000062: 6c69 7469 6573 223a  7b22 746f 6f6c 7322  3a7b 7d7d 2c22 7365  lities":{"tools":{}},"se',
			'0000007a: 7276 6572 496e 666f  223a 7b22 6e61 6d65  223a 2264 656d 6f22  rverInfo":{"name":"demo"',
			'00000092: 2c22 7665 7273 696f  6e22 3a22 312e 302e  3022 7d7d 7d0d 0a    ,"version":"1.0.0"}}}←↵',
		],
	};

	it.each(WIDTHS)('lays the CRLF frame out in %i columns with 1, 2 or 3 panels and CR/LF glyphs', (width) => {
		const frame = frames[3]!;
		const perRow = 8 * hexPanels(width);
		const rows = visibleHexRows(
			{read: stdoutBytes, offset: frame.offset, byteLength: frame.byteLength},
			perRow,
			0,
			20,
			[{offset: 167, length: 2}],
		);
		expect(lines(<HexPane rows={rows} perRow={perRow} height={20} />, width).filter((line) => line !== '')).toEqual(
			expected[width],
		);
	});
});

describe('DetailPane', () => {
	const json: Record<(typeof WIDTHS)[number], string[]> = {
		60: [
			'#3 S→C response #1 initialize (reply to #0) · 143 B @0x001a…',
			'▲ crlf @0x00a7 (2 B): a message on stdout ends with CR LF (…',
			'  "result": {',
			'    "protocolVersion": "2025-06-18",',
			'    "capabilities": {',
			'      "tools": {}',
			'    },',
			'    "serverInfo": {',
		],
		80: [
			'#3 S→C response #1 initialize (reply to #0) · 143 B @0x001a, CR LF · t 5.0 ms ·…',
			'▲ crlf @0x00a7 (2 B): a message on stdout ends with CR LF (0D 0A) instead of LF',
			'  "result": {',
			'    "protocolVersion": "2025-06-18",',
			'    "capabilities": {',
			'      "tools": {}',
			'    },',
			'    "serverInfo": {',
		],
		120: [
			'#3 S→C response #1 initialize (reply to #0) · 143 B @0x001a, CR LF · t 5.0 ms · 4.0ms latency · 1 read',
			'▲ crlf @0x00a7 (2 B): a message on stdout ends with CR LF (0D 0A) instead of LF',
			'  "result": {',
			'    "protocolVersion": "2025-06-18",',
			'    "capabilities": {',
			'      "tools": {}',
			'    },',
			'    "serverInfo": {',
		],
	};
	const hex: Record<(typeof WIDTHS)[number], string[]> = {
		60: [
			'#6 S→C response #2 tools/list (reply to #5) · 154 B @0x00a9…',
			'000000b9: 2c22 6964 223a 322c  ,"id":2,',
			'000000c1: 2272 6573 756c 7422  "result"',
			'000000c9: 3a7b 2274 6f6f 6c73  :{"tools',
		],
		80: [
			'#6 S→C response #2 tools/list (reply to #5) · 154 B @0x00a9 · t 12.0 ms · 5.0ms…',
			'000000c9: 3a7b 2274 6f6f 6c73  223a 5b7b 226e 616d  :{"tools":[{"nam',
			'000000d9: 6522 3a22 6563 686f  222c 2269 6e70 7574  e":"echo","input',
			'000000e9: 5363 6865 6d61 223a  7b22 7479 7065 223a  Schema":{"type":',
		],
		120: [
			'#6 S→C response #2 tools/list (reply to #5) · 154 B @0x00a9 · t 12.0 ms · 5.0ms latency · 2 reads',
			'000000d9: 6522 3a22 6563 686f  222c 2269 6e70 7574  5363 6865 6d61 223a  e":"echo","inputSchema":',
			'000000f1: 7b22 7479 7065 223a  226f 626a 6563 7422  2c22 7072 6f70 6572  {"type":"object","proper',
			'00000109: 7469 6573 223a 7b22  7465 7874 223a 7b22  7479 7065 223a 2273  ties":{"text":{"type":"s',
		],
	};

	it.each(WIDTHS)('shows header, the frame finding and pretty JSON scrolled by 3 lines at %i columns', (width) => {
		const frame = frames[3]!;
		const node = (
			<DetailPane
				frame={frame}
				findings={[findings[1]!]}
				readCount={1}
				content={{tab: 'json', lines: jsonLines(frame.message, width)}}
				scroll={3}
				width={width}
				height={8}
			/>
		);
		expect(lines(node, width)).toEqual(json[width]);
	});

	it.each(WIDTHS)('shows hex rows from row 2 and the two reads at %i columns', (width) => {
		const frame = frames[6]!;
		const perRow = 8 * hexPanels(width);
		const rows = visibleHexRows(
			{read: stdoutBytes, offset: frame.offset, byteLength: frame.byteLength},
			perRow,
			2,
			3,
			[],
		);
		const node = (
			<DetailPane
				frame={frame}
				findings={[]}
				readCount={2}
				content={{tab: 'hex', rows, perRow}}
				scroll={2}
				width={width}
				height={4}
			/>
		);
		expect(lines(node, width)).toEqual(hex[width]);
	});

	it('says when no frame is selected', () => {
		expect(
			lines(
				<DetailPane
					frame={undefined}
					findings={[]}
					readCount={0}
					content={{tab: 'raw', lines: []}}
					scroll={0}
					width={60}
					height={3}
				/>,
				60,
			),
		).toEqual(['No frame selected.', '', '']);
	});
});

describe('FindingsPane', () => {
	const expected: Record<(typeof WIDTHS)[number], string[]> = {
		60: [
			'✖ stray-output ×1',
			'    #2 S→C @0x0000 25 B  stdout carries a banner line befor…',
			'▲ crlf ×1',
			'    #3 S→C @0x00a7 2 B  a message on stdout ends with CR LF…',
			'────────────────────────────────────────────────────────────',
			'▲ crlf (warning, R2 O5): a message on stdout ends with CR LF',
			'  (0D 0A) instead of LF',
			'fix: Write LF only. Node.js: end each message with `"\\n"`,',
			'     not `os.EOL` (`"\\r\\n"` on Windows) or a literal',
			'     `"\\r\\n"`; Node itself never adds a CR (runtime:',
		],
		80: [
			'✖ stray-output ×1',
			'    #2 S→C @0x0000 25 B  stdout carries a banner line before any message, not a…',
			'▲ crlf ×1',
			'    #3 S→C @0x00a7 2 B  a message on stdout ends with CR LF (0D 0A) instead of …',
			'────────────────────────────────────────────────────────────────────────────────',
			'▲ crlf (warning, R2 O5): a message on stdout ends with CR LF (0D 0A) instead of',
			'  LF',
			'fix: Write LF only. Node.js: end each message with `"\\n"`, not `os.EOL`',
			'     (`"\\r\\n"` on Windows) or a literal `"\\r\\n"`; Node itself never adds a CR',
			'     (runtime: Node.js, inferred from the command `node`). Elsewhere: Python:',
		],
		120: [
			'✖ stray-output ×1',
			'    #2 S→C @0x0000 25 B  stdout carries a banner line before any message, not an MCP message',
			'▲ crlf ×1',
			'    #3 S→C @0x00a7 2 B  a message on stdout ends with CR LF (0D 0A) instead of LF',
			'────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────',
			'▲ crlf (warning, R2 O5): a message on stdout ends with CR LF (0D 0A) instead of LF',
			'fix: Write LF only. Node.js: end each message with `"\\n"`, not `os.EOL` (`"\\r\\n"` on Windows) or a literal `"\\r\\n"`;',
			'     Node itself never adds a CR (runtime: Node.js, inferred from the command `node`). Elsewhere: Python:',
			'     `sys.stdout.reconfigure(newline="\\n")` or a `TextIOWrapper` with `newline=""`, since the default text wrapper',
			'     writes `os.linesep`; .NET: write `"\\n"` explicitly (`Console.Out.Write(json + "\\n")`), not `WriteLine`, which',
		],
	};

	it.each(WIDTHS)('groups findings by code (errors first) and details the selected one at %i columns', (width) => {
		const node = (
			<FindingsPane
				findings={findings}
				layout={findingsLayout(groupFindings(findings))}
				cursor={1}
				scroll={0}
				width={width}
				height={10}
				isFocused
			/>
		);
		expect(lines(node, width)).toEqual(expected[width]);
	});

	it('says when there is nothing to report', () => {
		const node = (
			<FindingsPane findings={[]} layout={findingsLayout([])} cursor={0} scroll={0} width={80} height={2} isFocused />
		);
		expect(lines(node, 80)).toEqual(['No findings: nothing on the wire breaks a known client.', '']);
	});
});

describe('StatusBar', () => {
	const expected: Record<(typeof WIDTHS)[number], string[]> = {
		60: [' WARN   C→S 3/260 B  S→C 3/323 B  ERR 2/53 B  ✖1 ▲1  ● live'],
		80: [' WARN   C→S 3/260 B  S→C 3/323 B  ERR 2/53 B  ✖1 ▲1  ● live'],
		120: [' WARN  demo  C→S 3 fr 260 B  S→C 3 fr 323 B  ERR 2 ln 53 B  ✖ 1 ▲ 1 • 0  ● live'],
	};

	it.each(WIDTHS)('shows verdict, per-stream totals, counts and live state at %i columns', (width) => {
		expect(lines(<StatusBar model={statusModel(snapshot)} width={width} />, width)).toEqual(expected[width]);
	});

	it('shows an ended session with its exit', () => {
		const model = {...statusModel(snapshot), isEnded: true, exit: 'exit 1'};
		expect(lines(<StatusBar model={model} width={120} />, 120)).toEqual([
			' WARN  demo  C→S 3 fr 260 B  S→C 3 fr 323 B  ERR 2 ln 53 B  ✖ 1 ▲ 1 • 0  ■ ended, exit 1',
		]);
	});

	it('does not call a session live once its server exited', () => {
		const model = {...statusModel(snapshot), isEnded: false, exit: 'exit 1'};
		expect(lines(<StatusBar model={model} width={120} />, 120)).toEqual([
			' WARN  demo  C→S 3 fr 260 B  S→C 3 fr 323 B  ERR 2 ln 53 B  ✖ 1 ▲ 1 • 0  ■ server ended, exit 1',
		]);
		expect(lines(<StatusBar model={{...model, exit: 'SIGTERM'}} width={80} />, 80)).toEqual([
			' WARN   C→S 3/260 B  S→C 3/323 B  ERR 2/53 B  ✖1 ▲1  ■ server ended, SIGTERM',
		]);
	});

	it("escapes a crafted capture's exit signal (OSC 52, OSC 0, C1 CSI, backspaces)", () => {
		const signal = 'SIGKILL\u001b]52;c;UFdORUQ=\u0007\u001b]0;PWNED\u0007\u009b31m\b\b';
		const model = {...statusModel(snapshot), isEnded: true, exit: signal};
		const raw = renderToString(<StatusBar model={model} width={120} />, {columns: 120});
		expect(raw).not.toMatch(/[\u0007\u0008\u0080-\u009f]|\u001b\]/);
		expect(stripAnsi(raw)).toBe(
			' WARN  demo  C→S 3 fr 260 B  S→C 3 fr 323 B  ERR 2 ln 53 B  ✖ 1 ▲ 1 • 0  ■ ended, SIGKILL␛]52;c;UFdOR… (+21 bytes)',
		);
	});
});

describe('StderrPane', () => {
	const expected: Record<(typeof WIDTHS)[number], string[]> = {
		60: ['      2.0  [info] demo server starting', '     13.0  ␛[31mwarn␛[0m: slow disk'],
		80: ['      2.0  [info] demo server starting', '     13.0  ␛[31mwarn␛[0m: slow disk'],
		120: ['      2.0  [info] demo server starting', '     13.0  ␛[31mwarn␛[0m: slow disk'],
	};

	it.each(WIDTHS)('shows stderr lines with times, ANSI codes escaped, at %i columns', (width) => {
		const node = (
			<StderrPane
				frames={frames}
				lines={stderrFrames(frames)}
				start={0}
				end={2}
				cursor={1}
				width={width}
				height={2}
				isFocused
			/>
		);
		expect(lines(node, width)).toEqual(expected[width]);
	});
});

describe('HelpOverlay', () => {
	const expected: Record<(typeof WIDTHS)[number], string[]> = {
		60: [
			'Keys (? or Esc closes help · lines 1–11 of 40, ↑/↓ scroll)',
			'Everywhere',
			'  ↑/k     previous frame / finding / line; scroll detail up',
			'  ↓/j     next frame / finding / line; scroll detail down',
			'  PgUp    one page up',
			'  PgDn    one page down',
			'  g/Home  first row',
			'  G/End   last row (frames: follow the tail again)',
			'  Tab     next pane (frames, detail, findings, stderr)',
			'  S-Tab   previous pane',
			'  ←/h     previous detail tab (hex, json, raw, chunks)',
			'  →/l     next detail tab',
		],
		80: [
			'Keys (? or Esc closes help · lines 1–11 of 40, ↑/↓ scroll)',
			'Everywhere',
			'  ↑/k     previous frame / finding / line; scroll detail up',
			'  ↓/j     next frame / finding / line; scroll detail down',
			'  PgUp    one page up',
			'  PgDn    one page down',
			'  g/Home  first row',
			'  G/End   last row (frames: follow the tail again)',
			'  Tab     next pane (frames, detail, findings, stderr)',
			'  S-Tab   previous pane',
			'  ←/h     previous detail tab (hex, json, raw, chunks)',
			'  →/l     next detail tab',
		],
		120: [
			'Keys (? or Esc closes help · lines 1–11 of 22, ↑/↓ scroll)',
			'Everywhere                                                   Frame list',
			'  ↑/k     previous frame / finding / line; scroll detail up    Enter   show the selected frame in the detail pane',
			'  ↓/j     next frame / finding / line; scroll detail down',
			'  PgUp    one page up                                        Findings pane',
			"  PgDn    one page down                                        Enter   jump to the finding's frame (hex, bytes highligh…",
			'  g/Home  first row',
			'  G/End   last row (frames: follow the tail again)           Stderr pane',
			'  Tab     next pane (frames, detail, findings, stderr)         Enter   jump to the stderr line in the frame list',
			'  S-Tab   previous pane',
			'  ←/h     previous detail tab (hex, json, raw, chunks)       Search line and send panel',
			'  →/l     next detail tab                                      Enter   search: keep the filter; send: next step / send',
		],
	};

	it.each(WIDTHS)(
		'is generated from the key table, in two columns from 100 columns, scrollable, at %i columns',
		(width) => {
			expect(
				lines(
					<HelpOverlay lines={helpLayout(helpSections(new Set()), width, 11)} scroll={0} width={width} height={12} />,
					width,
				),
			).toEqual(expected[width]);
		},
	);
});

describe('FindingsPane clients line', () => {
	it('says what each client does above the findings, worst first, cut to the width', () => {
		const clients = [
			{
				client: 'ts-sdk-v1',
				outcome: 'degraded',
				decidedBy: ['invalid-utf8'],
				note: '',
				connects: true,
				toolsListed: true,
			},
			{
				client: 'python-sdk',
				outcome: 'fails',
				decidedBy: ['invalid-utf8'],
				note: '',
				connects: true,
				toolsListed: false,
			},
			{client: 'cursor', outcome: 'unknown', decidedBy: ['invalid-utf8'], note: '', connects: true, toolsListed: true},
		] as const;
		expect(clientsLineSegments(clients, 200)).toEqual([
			{
				text: 'clients: ✘ fails: Python SDK (invalid-utf8) · ? not established: Cursor (invalid-utf8) · ▲ degraded: TS SDK v1 (Claude Desktop/Code)',
				token: 'severity.error',
			},
		]);
		expect(clientsLineSegments(clients, 30)[0]!.text.length).toBeLessThanOrEqual(30);
	});
});

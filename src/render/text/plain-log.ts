import {isAtSpawn} from '../../core/findings/support/at-spawn.js';
import {carriedBytes} from '../../core/bytes/carried.js';
import {escapeBytes, escapeText, groupDigits} from '../../core/bytes/glyphs.js';
import {hexRows, hexWindow, type HexHighlight, type HexRow} from '../../core/bytes/hex-layout.js';
import {exercisedLine} from '../../core/session/exercised.js';
import {CLIENT_SHORT_LABEL, OUTCOME_MARK, OUTCOME_WORD, verdictMeaning} from '../../core/clients/outcome.js';
import {CLIENT_FAMILY_LABEL, clientsSummary} from '../../core/findings/support/catalog.js';
import {findingDocsRef} from '../../core/findings/support/docs-ref.js';
import {
	STREAM_LABEL,
	TAP_PHASE,
	type CaptureGapReason,
	type ExitInfo,
	type Finding,
	type Frame,
	type Mark,
	type ClientOutcomeKind,
	type Reaction,
	type SessionMeta,
	type SessionSnapshot,
	type Summary,
} from '../../core/types.js';
import {ansiHexLines} from '../hex/ansi.js';
import {hexByte, plainHexLines} from '../hex/plain.js';
import {paint, severityToken, streamToken, type ThemeToken} from './theme.js';

/**
 * The plain (non-TUI) human output of a probe: a header, one line per frame, findings with an xxd
 * excerpt, and a summary. Every function returns strings (lines without newlines); the CLI writes them.
 * Everything taken from the wire or from stderr is escaped (core/bytes/glyphs.ts) before it is shown.
 */

/** Colour and hex painter choice for findings and frame dumps. */
export interface TextRenderOptions {
	/** Paint with the theme (render/text/theme.ts). */
	readonly color: boolean;
	/** `plain`: xxd layout with `.` gutter and `^` markers; `ansi`: hexyl colours and glyph gutter. */
	readonly hex: 'plain' | 'ansi';
	/**
	 * The installed package's root (absolute, no trailing separator): the `docs:` line then points at the
	 * file that exists there (`/usr/lib/node_modules/mcp-wire/docs/findings.md#crlf`), not at a path
	 * relative to a checkout. Absent: `docs/findings.md#crlf`.
	 */
	readonly docsRoot?: string;
}

/** Columns of a text/json preview or method name in a frame line. */
const PREVIEW_COLUMNS = 60;
/**
 * Columns of a stderr line: shown whole (a traceback's `File "…", line N` is the crash reason),
 * cut only when it is absurdly long.
 */
const STDERR_COLUMNS = 2000;

const INDENT = '  ';

/** `word` as one shell word: as is when it has no character a POSIX shell treats specially, else in single quotes. */
export function shellWord(word: string): string {
	if (word !== '' && /^[\w@%+=:,./-]+$/.test(word)) {
		return word;
	}

	return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The header of a probe's output.
 * @param meta the session facts.
 * @param pid the server's pid when known (overrides `meta.pid`).
 * @returns lines naming mcp-wire's and Node's versions, the platform, the command (shell-quoted and
 *   escaped), the env mode with the names of `--env` keys, the cwd and the pid.
 */
export function formatHeader(meta: SessionMeta, pid?: number): string[] {
	const node = meta.node.startsWith('v') || meta.node === 'unknown' ? meta.node : `v${meta.node}`;
	// Every field can come from a capture file someone else wrote: all escaped (style.md §1.3).
	const lines = [escapeText(`${meta.tool.name} ${meta.tool.version} (${meta.mode}) · Node ${node} · ${meta.platform}`)];
	lines.push(`command  ${escapeText(meta.command.map((word) => shellWord(word)).join(' '))}`);
	const keys =
		meta.envKeys !== undefined && meta.envKeys.length > 0
			? ` + ${meta.envKeys.map((key) => escapeText(key)).join(', ')}`
			: '';
	lines.push(`env      ${escapeText(String(meta.envMode))}${keys}`);
	if (meta.cwd !== undefined) {
		lines.push(`cwd      ${escapeText(meta.cwd)}`);
	}

	const shownPid = pid ?? meta.pid;
	if (shownPid !== undefined) {
		lines.push(`pid      ${escapeText(String(shownPid))}`);
	}

	if (meta.protocolVersion !== undefined) {
		lines.push(`protocol ${escapeText(meta.protocolVersion)}`);
	}

	return lines;
}

function formatMs(ms: number): string {
	return ms.toFixed(1);
}

function formatId(id: Frame['id']): string {
	return `id=${typeof id === 'string' ? escapeText(JSON.stringify(id), 40) : String(id)}`;
}

function errorDetail(message: unknown): string | undefined {
	if (typeof message !== 'object' || message === null) {
		return undefined;
	}

	const error = (message as {error?: unknown}).error;
	if (typeof error !== 'object' || error === null) {
		return undefined;
	}

	const {code, message: text} = error as {code?: unknown; message?: unknown};
	const parts = ['error'];
	if (typeof code === 'number') {
		parts.push(String(code));
	}

	if (typeof text === 'string') {
		parts.push(escapeText(text, PREVIEW_COLUMNS));
	}

	return parts.join(' ');
}

/** A text frame up to this many bytes is quoted from its bytes when its decoded text has U+FFFD. */
const RAW_TEXT_BYTES = 4096;

/** Bytes of a stream, as a snapshot gives them (`[offset, offset + length)`, shorter or empty when not kept). */
type BytesOf = (stream: Frame['stream'], offset: number, length: number) => Uint8Array;

function frameDetail(frame: Frame, bytesOf?: BytesOf): string {
	const parts: string[] = [];
	switch (frame.kind) {
		case 'request':
		case 'notification': {
			if (frame.id !== undefined) {
				parts.push(frame.rawId === undefined ? formatId(frame.id) : `id=${escapeText(frame.rawId, 40)}`);
			}

			parts.push(escapeText(frame.method ?? '?', PREVIEW_COLUMNS));
			break;
		}

		case 'response':
		case 'error': {
			if (frame.id !== undefined) {
				parts.push(frame.rawId === undefined ? formatId(frame.id) : `id=${escapeText(frame.rawId, 40)}`);
			}

			if (frame.answers !== undefined) {
				parts.push(`${escapeText(frame.answers.method, PREVIEW_COLUMNS)}  (${formatMs(frame.answers.latencyMs)} ms)`);
			}

			if (frame.kind === 'error') {
				const detail = errorDetail(frame.message);
				if (detail !== undefined) {
					parts.push(` ${detail}`);
				}
			}

			break;
		}

		case 'json': {
			let json: string;
			try {
				json = JSON.stringify(frame.message) ?? String(frame.message);
			} catch {
				json = String(frame.message);
			}

			parts.push(escapeText(json, PREVIEW_COLUMNS));
			break;
		}

		case 'text': {
			const columns = frame.stream === 'stderr' ? STDERR_COLUMNS : PREVIEW_COLUMNS;
			const text = frame.text ?? '';
			// U+FFFD stands for bytes that are not UTF-8 (or for itself): quote the bytes, so `\xff` shows as the hex does.
			const raw =
				bytesOf !== undefined && text.includes('\uFFFD') && frame.bodyLength <= RAW_TEXT_BYTES
					? bytesOf(frame.stream, frame.bodyOffset, frame.bodyLength)
					: undefined;
			parts.push(
				`"${raw !== undefined && raw.length === frame.bodyLength ? escapeBytes(raw, columns) : escapeText(text, columns)}"`,
			);
			break;
		}

		case 'blank': {
			parts.push(frame.terminator === 'crlf' ? '←↵' : '↵');
			break;
		}
	}

	const tags: string[] = [];
	if (frame.framing === 'content-length') {
		tags.push('content-length');
	}

	if (frame.terminator === 'crlf' && frame.kind !== 'blank') {
		tags.push('CRLF');
	}

	if (frame.terminator === 'none') {
		tags.push('no LF');
	}

	if (frame.lineCount > 1) {
		tags.push(`${frame.lineCount} lines`);
	}

	if (tags.length > 0) {
		parts.push(` [${tags.join(', ')}]`);
	}

	return parts.join(' ');
}

/**
 * One line per frame, e.g. `   12.3 ms  S→C   245 B  response     id=0 initialize  (8.1 ms)`:
 * completion time (ms since session start, one decimal, right-aligned in 7), direction label, frame
 * byte count (right-aligned in 5), kind (padded to 12), then by kind: id and method (requests,
 * notifications), id, answered method and latency from `frame.answers` (responses; errors add the
 * error code and message), a JSON preview (`json`), the escaped, truncated line in quotes (`text`),
 * the terminator glyphs (`blank`); tags `[content-length, CRLF, no LF, N lines]` follow.
 * @param options `color` paints time dim and the label by stream (default off); `bytes` (a snapshot's
 *   `bytes`), when given, lets a text line whose decoded text has U+FFFD be quoted from its bytes (`\xff`).
 */
export function formatFrameLine(
	frame: Frame,
	options: {readonly color?: boolean; readonly bytes?: BytesOf} = {},
): string {
	const isColor = options.color === true;
	const time = paint('ui.dim', `${formatMs(frame.tMs).padStart(7)} ms`, isColor);
	const label = paint(streamToken(frame.stream), STREAM_LABEL[frame.stream], isColor);
	const kind = frame.kind === 'error' ? paint('severity.error', frame.kind.padEnd(12), isColor) : frame.kind.padEnd(12);
	return `${time}  ${label} ${String(frame.byteLength).padStart(5)} B  ${kind} ${frameDetail(frame, options.bytes)}`.trimEnd();
}

function paintRows(rows: readonly HexRow[], options: TextRenderOptions): string[] {
	return options.hex === 'ansi'
		? ansiHexLines(rows, {color: options.color, indent: INDENT})
		: plainHexLines(rows, {indent: INDENT});
}

const REACTION_LABEL: Readonly<Record<Reaction, string>> = {
	ok: 'OK',
	skip: 'SKIP',
	'skip-log': 'SKIP+LOG',
	'drop-log': 'DROP+LOG',
	hang: 'HANG',
	fatal: 'FATAL',
	corrupt: 'CORRUPT',
	unknown: '?',
};

/** Evidence bytes quoted inline (docs/findings.md, "how a finding is shown"): at most this many. */
const EVIDENCE_BYTES = 16;

/**
 * A finding as a block of lines (docs/findings.md, "how a finding is shown"):
 * 1. `ERROR stray-output · stdout S→C · offset 0 (0x0) · frame 0 · 12.3 ms · R5` (severity, code,
 *    stream, offset, frame, time, rules; `(inferred)` when the evidence is circumstantial),
 * 2. the message,
 * 3. `bytes: 0d 0a "←↵"`: up to 16 evidence bytes as hex and escaped text,
 * 4. an xxd excerpt around the evidence with the evidence highlighted (one row of context before and
 *    after, at most 6 rows; `… (+N bytes of evidence not shown)` when cut); for zero-length findings
 *    (about absence) the rows before the position; nothing when the stream is empty,
 * 5. `fix: <hint>`, then one `impact` line per client family,
 * 6. `docs: docs/findings.md#<code>`, the code's section (as a lint rule links its page).
 * @param snapshot supplies the bytes (`snapshot.bytes`).
 */
export function formatFinding(finding: Finding, snapshot: SessionSnapshot, options: TextRenderOptions): string[] {
	const isColor = options.color;
	const head = [
		paint(severityToken(finding.severity), finding.severity.toUpperCase(), isColor),
		' ',
		paint('ui.accent', finding.code, isColor),
		' · ',
		// A command that did not start was read from no stream: placed at the spawn, not at stdout offset 0.
		isAtSpawn(finding)
			? 'at the spawn (the command did not start)'
			: paint(streamToken(finding.stream), `${finding.stream} ${STREAM_LABEL[finding.stream]}`, isColor),
		isAtSpawn(finding) ? '' : ` · offset ${finding.offset} (0x${finding.offset.toString(16)})`,
		finding.frameIndex === undefined ? '' : ` · frame ${finding.frameIndex}`,
		` · ${formatMs(finding.tMs)} ms`,
		finding.rules.length > 0 ? ` · ${finding.rules.join(', ')}` : '',
		finding.confidence === 'inferred' ? ' (inferred)' : '',
	].join('');
	const lines = [head, INDENT + escapeText(finding.message)];
	if (finding.impact.length > 1) lines.push(`${INDENT}clients: ${clientsSummary(finding.impact)}`);

	if (finding.byteLength > 0) {
		const evidence = snapshot.bytes(finding.stream, finding.offset, Math.min(finding.byteLength, EVIDENCE_BYTES));
		const more =
			finding.byteLength > evidence.length ? ` … (+${groupDigits(finding.byteLength - evidence.length)} bytes)` : '';
		const hex = [...evidence].map((byte) => hexByte(byte)).join(' ');
		lines.push(`${INDENT}bytes: ${hex}${more}  "${escapeBytes(evidence)}"`);
	}

	const carried = finding.byteLength === 0 ? carriedBytes(finding) : undefined;
	if (carried) {
		// The evidence crossed another process's pipe (a Content-Length re-probe): show what it answered.
		lines.push(
			`${INDENT}a fresh process probed with Content-Length framing answered (its first ${carried.length} bytes):`,
		);
		lines.push(...paintRows(hexRows(carried, {baseOffset: 0}), options));
	} else if (!isAtSpawn(finding)) {
		lines.push(...excerptLines(finding, snapshot, options));
	}

	lines.push(`${INDENT}fix: ${escapeText(finding.hint)}`);
	const first = finding.impact[0];
	if (
		first &&
		finding.impact.length > 1 &&
		finding.impact.every((impact) => impact.reaction === first.reaction && impact.note === first.note)
	) {
		// Every client does the same (a spawn error, a crash): one line, not a table of equal rows.
		lines.push(`${INDENT}impact: every client: ${REACTION_LABEL[first.reaction]}  ${escapeText(first.note)}`);
	} else if (finding.impact.length > 0) {
		lines.push(`${INDENT}impact:`);
		const width = Math.max(...finding.impact.map((impact) => CLIENT_FAMILY_LABEL[impact.client].length));
		for (const impact of finding.impact) {
			const label = CLIENT_FAMILY_LABEL[impact.client].padEnd(width);
			lines.push(
				`${INDENT}${INDENT}${label}  ${REACTION_LABEL[impact.reaction].padEnd(8)}  ${escapeText(impact.note)}`.trimEnd(),
			);
		}
	}

	const docs = options.docsRoot === undefined ? '' : `${options.docsRoot}/`;
	lines.push(paint('ui.dim', `${INDENT}docs: ${docs}${findingDocsRef(finding.code)}`, isColor));
	return lines;
}

/** The xxd excerpt around a finding's bytes in its own stream, evidence highlighted. */
function excerptLines(finding: Finding, snapshot: SessionSnapshot, options: TextRenderOptions): string[] {
	const window = hexWindow((offset, length) => snapshot.bytes(finding.stream, offset, length), {
		offset: finding.offset,
		length: finding.byteLength,
		context: 1,
		// Long evidence (a whole frame) shows its start; short evidence (a CR, a BOM) sits in context.
		maxRows: finding.byteLength > 48 ? 3 : 6,
	});
	if (window.bytes.length === 0)
		return [paint('ui.dim', `${INDENT}(no bytes on ${finding.stream} before offset ${finding.offset})`, options.color)];
	const highlight: HexHighlight[] =
		finding.byteLength > 0 ? [{offset: finding.offset, length: finding.byteLength}] : [];
	const lines = paintRows(hexRows(window.bytes, {baseOffset: window.offset, highlight}), options);
	if (window.cutBytes > 0)
		lines.push(
			paint('ui.dim', `${INDENT}… (+${groupDigits(window.cutBytes)} bytes of evidence not shown)`, options.color),
		);
	return lines;
}

/** What the server listed: `3 tools, 0 prompts, 1 resource` (only the lists it was asked for). */
export function listCounts(summary: Pick<Summary, 'tools' | 'prompts' | 'resources'>): string[] {
	const counts: string[] = [];
	if (summary.tools !== undefined) counts.push(plural(summary.tools, 'tool'));
	if (summary.prompts !== undefined) counts.push(plural(summary.prompts, 'prompt'));
	if (summary.resources !== undefined) counts.push(plural(summary.resources, 'resource'));
	return counts;
}

/** How the server talks, said plainly: the initialize handshake (≤ 2025-11-25) or server/discover (2026-07-28, R19). */
export function eraNote(era: Summary['era']): string {
	return era === 'legacy' ? ' (initialize handshake)' : era === 'modern' ? ' (2026-07-28, server/discover)' : '';
}

/**
 * What a replayed capture's `stalls` (the tap's waits for its capture, `tap --capture-wait`) mean, in one
 * sentence for the plain log's summary and the report: e.g. `the tap held back the source 3 times, 412 ms
 * in all (longest 260 ms), so that the capture could keep every byte; times in the capture include these
 * waits; 1 wait reached --capture-wait and its read became a gap`. Numbers are grouped (`1,204 ms`).
 */
export function stallsNote(stalls: NonNullable<Summary['stalls']>): string {
	const held = `the tap held back the source ${stalls.count === 1 ? 'once' : `${groupDigits(stalls.count)} times`}, ${groupDigits(stalls.totalMs)} ms in all${stalls.count === 1 ? '' : ` (longest ${groupDigits(stalls.longestMs)} ms)`}, so that the capture could keep every byte; times in the capture include these waits`;
	if (stalls.timedOut === 0) return held;
	const ranOut =
		stalls.timedOut === 1 ? (stalls.count === 1 ? 'the wait' : '1 wait') : `${groupDigits(stalls.timedOut)} waits`;
	return `${held}; ${ranOut} reached --capture-wait and ${stalls.timedOut === 1 ? 'its read' : 'their reads'} became ${stalls.timedOut === 1 ? 'a gap' : 'gaps'}`;
}

/** Options for {@link formatFrameHex}. */
export interface FrameHexOptions extends TextRenderOptions {
	/** Rows shown at most (default 64, i.e. 1 KiB); the rest is summarised as `… (+N bytes)`. */
	readonly maxRows?: number;
}

/**
 * The whole frame as an xxd dump (for `--hex`), indented to sit under its frame line. Rows start at the
 * frame's stream offset (as `xxd -s`). Evidence of findings in this frame that covers only part of it
 * (a CR, a BOM, an ESC, an invalid byte) is highlighted.
 */
export function formatFrameHex(frame: Frame, snapshot: SessionSnapshot, options: FrameHexOptions): string[] {
	const maxBytes = Math.max(1, options.maxRows ?? 64) * 16;
	const bytes = snapshot.bytes(frame.stream, frame.offset, Math.min(frame.byteLength, maxBytes));
	const highlight = snapshot.findings
		.filter(
			(finding) =>
				finding.frameIndex === frame.index &&
				finding.stream === frame.stream &&
				finding.byteLength > 0 &&
				finding.byteLength < frame.byteLength,
		)
		.map((finding) => ({offset: finding.offset, length: finding.byteLength}));
	const lines = paintRows(hexRows(bytes, {baseOffset: frame.offset, highlight}), options);
	if (frame.byteLength > bytes.length) {
		lines.push(paint('ui.dim', `${INDENT}… (+${groupDigits(frame.byteLength - bytes.length)} bytes)`, options.color));
	}

	return lines;
}

function plural(n: number, word: string): string {
	return `${groupDigits(n)} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The client a capture shows connected, as its `initialize` names it (`claude-code 2.1.3`), or undefined
 * when there is none or it is mcp-wire's own probe (the header already says so).
 */
export function connectedClient(summary: Pick<Summary, 'clientInfo'>): string | undefined {
	const info = summary.clientInfo;
	if (info === undefined || info.name === 'mcp-wire') return undefined;
	return [info.name ?? '?', info.version ?? ''].join(' ').trim();
}

/**
 * The end-of-run summary: the verdict with error/warning/info counts, one line per finding code with its
 * count, what was exercised, per-stream totals, duration and exit, and what the server said about itself.
 * @param options `color` paints the verdict and severities (default off); `hint` adds the probe options that
 *   exercise more (`use --call`) to the `exercised` line (a probe's own session).
 */
export function formatSummary(
	summary: Summary,
	options: {readonly color?: boolean; readonly hint?: boolean} = {},
): string[] {
	const isColor = options.color === true;
	const verdictToken =
		summary.verdict === 'fail' ? 'severity.error' : summary.verdict === 'warn' ? 'severity.warning' : 'severity.info';
	const lines = [
		`verdict ${paint(verdictToken, summary.verdict.toUpperCase(), isColor)}: ${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}, ${groupDigits(summary.infos)} info · ${verdictMeaning(summary)}`,
	];
	const codeWidth = Math.max(0, ...summary.findings.map((entry) => entry.code.length));
	for (const entry of summary.findings) {
		lines.push(
			`${INDENT}${paint(severityToken(entry.severity), entry.severity.padEnd(7), isColor)}  ${entry.code.padEnd(codeWidth)}  ×${groupDigits(entry.count)}`,
		);
	}

	lines.push(...clientLines(summary, isColor));
	const exercised = exercisedLine(summary, {hint: options.hint === true});
	if (exercised !== undefined) lines.push(`exercised ${escapeText(exercised)}`);

	const streams = (['stdin', 'stdout', 'stderr'] as const).map((stream) => {
		const totals = summary.streams[stream];
		return `${STREAM_LABEL[stream]} ${stream} ${groupDigits(totals.bytes)} B in ${plural(totals.frames, 'frame')} (${plural(totals.chunks, 'chunk')})`;
	});
	lines.push(`streams  ${streams.join(' · ')}`);

	let exit = '';
	if (summary.exit !== undefined) {
		exit =
			summary.exit.signal === null
				? summary.exit.code === null
					? ' · exit unknown'
					: ` · server exit code ${summary.exit.code}`
				: ` · server killed by ${escapeText(summary.exit.signal)}`;
	}

	const tenths = Math.round(summary.durationMs * 10);
	lines.push(`duration ${groupDigits(Math.trunc(tenths / 10))}.${Math.abs(tenths % 10)} ms${exit}`);

	const server: string[] = [];
	if (summary.serverInfo !== undefined) {
		server.push(
			escapeText([summary.serverInfo.name ?? '?', summary.serverInfo.version ?? ''].join(' ').trim(), PREVIEW_COLUMNS),
		);
	}

	if (summary.protocolVersion !== undefined) {
		server.push(`protocol ${escapeText(summary.protocolVersion, 40)}${eraNote(summary.era)}`);
	} else if (summary.era !== undefined) {
		server.push(`${summary.era} era`);
	}

	const counts = listCounts(summary);

	if (counts.length > 0) {
		server.push(counts.join(', '));
	}

	if (server.length > 0) {
		lines.push(`server   ${server.join(' · ')}`);
	}

	const client = connectedClient(summary);
	if (client !== undefined)
		lines.push(`client   ${escapeText(client, PREVIEW_COLUMNS)} (clientInfo of its initialize)`);

	if (summary.stalls !== undefined) lines.push(`capture  ${stallsNote(summary.stalls)}`);

	return lines;
}

/**
 * Each finding code's first finding in two lines, its message and its fix: what stays on the terminal after
 * the TUI closes, above the summary, so the cause and the fix outlive the screen (docs/cli.md#the-terminal-ui).
 * @param findings the session's findings, in the order found (a table: `length` and `at`).
 * @param options `color` paints the severity and the code.
 */
export function formatFindingDigest(
	findings: {readonly length: number; at(index: number): Finding | undefined},
	options: {readonly color?: boolean} = {},
): string[] {
	const isColor = options.color === true;
	const seen = new Set<string>();
	const lines: string[] = [];
	for (let i = 0; i < findings.length; i++) {
		const finding = findings.at(i)!;
		if (seen.has(finding.code)) continue;
		seen.add(finding.code);
		lines.push(
			`${paint(severityToken(finding.severity), finding.severity.toUpperCase(), isColor)} ${paint('ui.accent', finding.code, isColor)}: ${escapeText(finding.message)}`,
			`${INDENT}fix: ${escapeText(finding.hint)}`,
		);
	}

	return lines;
}

const OUTCOME_TOKEN: Readonly<Record<ClientOutcomeKind, ThemeToken>> = {
	fails: 'severity.error',
	unknown: 'ui.dim',
	degraded: 'severity.warning',
	works: 'severity.info',
};

/**
 * One line per client family: what it does with this session and why (core/clients/outcome.ts), e.g.
 * `clients  ✘ fails     Python SDK: connects; the connection closes: invalid-utf8: UnicodeDecodeError…`;
 * one `every client` line when all of them have the same outcome and note.
 */
function clientLines(summary: Summary, isColor: boolean): string[] {
	const clients = summary.clients ?? [];
	const first = clients[0];
	if (
		first !== undefined &&
		clients.length > 1 &&
		clients.every((o) => o.outcome === first.outcome && o.note === first.note)
	) {
		// Every client does the same (a spawn error): one line, not six equal ones.
		const mark = paint(
			OUTCOME_TOKEN[first.outcome],
			`${OUTCOME_MARK[first.outcome]} ${OUTCOME_WORD[first.outcome].padEnd(15)}`,
			isColor,
		);
		return [`clients  ${mark}  every client  ${escapeText(first.note, 200)}`];
	}
	const labelWidth = Math.max(0, ...clients.map((o) => CLIENT_SHORT_LABEL[o.client].length));
	return clients.map((o, index) => {
		const mark = paint(
			OUTCOME_TOKEN[o.outcome],
			`${OUTCOME_MARK[o.outcome]} ${OUTCOME_WORD[o.outcome].padEnd(15)}`,
			isColor,
		);
		return `${index === 0 ? 'clients ' : ' '.repeat(8)} ${mark}  ${CLIENT_SHORT_LABEL[o.client].padEnd(labelWidth)}  ${escapeText(o.note, 200)}`;
	});
}

/** Phase marks worth a line in the log (the others are notes for the detectors). */
const PHASE_LINES: Readonly<Record<string, string>> = {
	'modern-era': 'initialize rejected naming 2026-07-28: probing with server/discover',
	[TAP_PHASE.clientClosedStdout]:
		"the client closed its end of stdout: the tap closed the server's, so its next write fails",
	[TAP_PHASE.sigkillAfterGrace]: 'the server outlived the forwarded signal: the tap sent SIGKILL',
	[TAP_PHASE.outputGivenUp]:
		'the server exited; a process it left still held its output: the tap stopped reading it and ended with the server',
	'stopped-early':
		'stopped waiting: the server is blocked reading stdin (it read the request and waits for more input)',
	'content-length-reply':
		'stopped waiting: the reply came framed with Content-Length and nothing followed it; no MCP client reads it (they wait until their timeout)',
};

/** Why a capture has a gap, for the frame log. */
export const GAP_WHY: Readonly<Record<CaptureGapReason, string>> = {
	lag: 'the capture fell behind forwarding',
	'write-failed': 'the capture file could not be written',
	'writer-timeout': 'the capture writer had not finished when the tap exited',
	'writer-failed': 'the capture writer failed',
	unrecorded: 'a hole in the capture file',
};

/**
 * One line for a process mark or the exit, aligned with frame lines, so the log shows what the client
 * did between frames: `   3012.1 ms  ···  stdin closed (EOF sent to the server)`. Stream EOFs are shown
 * for stdout only (the one that matters for a reader).
 * @returns the line, or undefined for marks not worth a line (phase notes, stdin/stderr EOF)
 */
export function formatMarkLine(
	mark: Mark | ({readonly type: 'exit'} & ExitInfo),
	options: {readonly color?: boolean} = {},
): string | undefined {
	let text: string | undefined;
	switch (mark.type) {
		case 'stdin-closed':
			text = 'stdin closed (EOF sent to the server)';
			break;
		case 'timeout':
			// The probe's own wait: what came after (the reply, or nothing) shows on the lines below.
			text = `mcp-wire stopped waiting for ${mark.method} (id ${JSON.stringify(mark.id)}) after ${groupDigits(mark.timeoutMs)} ms`;
			break;
		case 'signal-sent':
			text = `${mark.signal} sent`;
			break;
		case 'eof':
			text = mark.stream === 'stdout' ? 'stdout closed by the server' : undefined;
			break;
		case 'exit':
			text = mark.signal === null ? `process exited, code ${mark.code ?? '?'}` : `process killed by ${mark.signal}`;
			break;
		case 'phase':
			text = PHASE_LINES[mark.name];
			break;
		case 'reaped':
			text = `mcp-wire ended ${mark.pids.length === 1 ? 'a leftover process' : `${mark.pids.length} leftover processes`} of the server (pid ${mark.pids.join(', ')}) with ${mark.signal}`;
			break;
		case 'gap':
			text = `${groupDigits(mark.length)} bytes of ${mark.stream} not captured here (offset ${groupDigits(mark.offset)}: ${GAP_WHY[mark.reason]})`;
			break;
		case 'evidence':
			// Shown only when it names a survivor; stall looks are detail for the rules (and --json).
			if (mark.evidence.reason === 'exit' && mark.evidence.processes.length > 0)
				text = `still alive after the exit: ${mark.evidence.processes.map((p) => `pid ${p.pid}`).join(', ')}`;
			break;
	}
	if (text === undefined) return undefined;
	const isColor = options.color === true;
	// A crafted capture's method, signal or pids are strings of any kind: the line is escaped whole.
	return paint('ui.dim', `${formatMs(mark.tMs).padStart(7)} ms  ···  ${escapeText(text)}`, isColor);
}

import {displayWidth, escapeText, groupDigits} from '../../core/bytes/glyphs.js';
import {STREAM_LABEL, type Frame, type FrameKind, type JsonRpcId, type Severity} from '../../core/types.js';

/**
 * Pure text formatting for the TUI: times, sizes, frame row cells. Everything that came from the wire is
 * escaped here with core/bytes/glyphs.ts before it can reach a `<Text>` (style.md §1.3).
 */

/** `tMs` (ms) with one decimal below 100,000 ms, whole ms above: `12.3`, `123456`. */
export function formatMs(tMs: number): string {
	return tMs < 100_000 ? tMs.toFixed(1) : String(Math.round(tMs));
}

/** A latency for display: `12.3ms`, `1.25s`, `75s`. */
export function formatLatency(ms: number): string {
	if (ms < 1000) {
		return `${ms.toFixed(1)}ms`;
	}

	return ms < 10_000 ? `${(ms / 1000).toFixed(2)}s` : `${Math.round(ms / 1000)}s`;
}

/** Bytes for a fixed-width column: `999999` as is, above that `1.2M` (MiB), `3.4G` (GiB). */
export function formatByteCount(bytes: number): string {
	if (bytes < 1_000_000) {
		return String(bytes);
	}

	return bytes < 1024 ** 3 ? `${(bytes / 1024 ** 2).toFixed(1)}M` : `${(bytes / 1024 ** 3).toFixed(1)}G`;
}

/** Bytes for prose: `420 B`, `1.2 KiB`, `3.4 MiB` (shared with the plain progress line, render/size.ts). */
export {formatBytes} from '../size.js';

/** A stream offset as `0x` + at least 4 lowercase hex digits. */
export function formatOffset(offset: number): string {
	return `0x${offset.toString(16).padStart(4, '0')}`;
}

/** Short kind labels of the frame list (5 columns at most). */
export const KIND_LABEL: Readonly<Record<FrameKind, string>> = {
	request: 'req',
	notification: 'note',
	response: 'resp',
	error: 'error',
	json: 'json',
	text: 'text',
	blank: 'blank',
};

/** Severity markers (one column each). */
export const SEVERITY_MARK: Readonly<Record<Severity, string>> = {error: '✖', warning: '▲', info: '•'};

/** A JSON-RPC id for display, escaped: `#1`, `#"a b"`, `#null`. */
export function formatId(id: JsonRpcId): string {
	return typeof id === 'string' ? `#${escapeText(JSON.stringify(id))}` : `#${String(id)}`;
}

/** The error code and message of a JSON-RPC error response, if well-formed enough. */
function errorSummary(message: unknown): string {
	const error = (message as {error?: {code?: unknown; message?: unknown}} | undefined)?.error;
	if (!error || typeof error !== 'object') {
		return '';
	}

	const code = typeof error.code === 'number' ? String(error.code) : '';
	const text = typeof error.message === 'string' ? error.message : '';
	return [code, text].filter((part) => part !== '').join(' ');
}

/**
 * The one-line summary of a frame (method, id, text), escaped and fitted to `maxColumns`:
 * request `initialize #1`, notification `notifications/initialized`, response `#1 initialize`,
 * error `#1 tools/call ✖ -32601 Method not found`, text frames their escaped text, blank lines
 * `(blank line)`, JSON that is not JSON-RPC `(not JSON-RPC) {…}`.
 */
export function frameSummary(frame: Frame, maxColumns: number): string {
	const budget = Math.max(0, maxColumns);
	let text: string;
	switch (frame.kind) {
		case 'request': {
			text = `${escapeText(frame.method ?? '?')}${frame.id === undefined ? '' : ` ${formatId(frame.id)}`}`;
			break;
		}

		case 'notification': {
			text = escapeText(frame.method ?? '?');
			break;
		}

		case 'response':
		case 'error': {
			const id = frame.id === undefined ? '#?' : formatId(frame.id);
			const answered = frame.answers ? ` ${escapeText(frame.answers.method)}` : '';
			const error = frame.kind === 'error' ? ` ✖ ${escapeText(errorSummary(frame.message), budget)}` : '';
			text = `${id}${answered}${error}`;
			break;
		}

		case 'blank': {
			text = frame.terminator === 'crlf' ? '(blank line, CR LF)' : '(blank line)';
			break;
		}

		case 'json': {
			return fitColumns(`(not JSON-RPC) ${escapeText(jsonPreview(frame.message, budget + 1))}`, budget);
		}

		default: {
			return escapeText(frame.text ?? '', budget);
		}
	}

	return fitColumns(text, budget);
}

/**
 * Compact JSON text of a value, like `JSON.stringify`, but it stops after about `maxChars` characters, so
 * a one-line preview of a 10 MiB value costs what the preview costs. Not escaped.
 */
export function jsonPreview(value: unknown, maxChars: number): string {
	let out = '';
	const write = (value_: unknown): boolean => {
		if (out.length > maxChars) {
			return false;
		}

		if (Array.isArray(value_)) {
			out += '[';
			for (let i = 0; i < value_.length; i++) {
				if (i > 0) out += ',';
				if (!write(value_[i])) return false;
			}

			out += ']';
		} else if (value_ !== null && typeof value_ === 'object') {
			out += '{';
			let isFirst = true;
			for (const key in value_ as Record<string, unknown>) {
				if (!Object.hasOwn(value_, key)) continue;
				out += `${isFirst ? '' : ','}${JSON.stringify(key.length > maxChars ? key.slice(0, maxChars) : key)}:`;
				isFirst = false;
				if (!write((value_ as Record<string, unknown>)[key])) return false;
			}

			out += '}';
		} else if (typeof value_ === 'string') {
			out += JSON.stringify(value_.length > maxChars ? value_.slice(0, maxChars) : value_);
		} else {
			out += String(JSON.stringify(value_) ?? 'null');
		}

		return out.length <= maxChars;
	};

	write(value);
	return out.length > maxChars ? out.slice(0, maxChars) : out;
}

/** Cuts already escaped text to `maxColumns` columns, ending in `…` when cut. */
export function fitColumns(text: string, maxColumns: number): string {
	if (maxColumns <= 0) {
		return '';
	}

	if (text.length <= maxColumns && displayWidth(text) <= maxColumns) {
		return text;
	}

	let out = '';
	let width = 0;
	for (const char of text) {
		const w = displayWidth(char);
		if (width + w > maxColumns - 1) {
			break;
		}

		out += char;
		width += w;
	}

	return `${out}…`;
}

/** Pads escaped text with spaces to exactly `columns` columns (cutting it first if wider). */
export function padColumns(text: string, columns: number): string {
	const fitted = fitColumns(text, columns);
	return fitted + ' '.repeat(Math.max(0, columns - displayWidth(fitted)));
}

/** The cells of one frame-list row, all already escaped strings (primitive props for a memoised row). */
export interface FrameRowCells {
	/** Severity marker column: `✖`, `▲`, `•` or a space. */
	readonly mark: string;
	readonly index: string;
	readonly time: string;
	readonly dir: string;
	readonly bytes: string;
	readonly kind: string;
	/** Latency column (empty string when the layout has no latency column). */
	readonly latency: string;
	readonly summary: string;
}

/** Column layout of the frame list at a width: which columns exist and how wide the index is. */
export interface RowLayout {
	readonly width: number;
	readonly indexWidth: number;
	readonly hasLatency: boolean;
	/** Columns left for the summary. */
	readonly summaryWidth: number;
}

const TIME_WIDTH = 9;
const BYTES_WIDTH = 6;
const KIND_WIDTH = 5;
const LATENCY_WIDTH = 8;

/**
 * The frame list's column layout for `width` columns and `frameCount` frames:
 * `{sel}{mark} {index} {time} {dir} {bytes} {kind} [{latency}] {summary}`. The latency column appears
 * from 80 columns on; the index column is as wide as the largest index (at least 3).
 */
export function rowLayout(width: number, frameCount: number): RowLayout {
	const indexWidth = Math.max(3, String(Math.max(0, frameCount - 1)).length);
	const hasLatency = width >= 80;
	const fixed =
		2 +
		1 +
		indexWidth +
		1 +
		TIME_WIDTH +
		1 +
		3 +
		1 +
		BYTES_WIDTH +
		1 +
		KIND_WIDTH +
		1 +
		(hasLatency ? LATENCY_WIDTH + 1 : 0);
	return {width, indexWidth, hasLatency, summaryWidth: Math.max(0, width - fixed)};
}

/** The cells of a frame's row under a layout. */
export function frameRowCells(frame: Frame, severity: Severity | undefined, layout: RowLayout): FrameRowCells {
	return {
		mark: severity ? SEVERITY_MARK[severity] : ' ',
		index: String(frame.index).padStart(layout.indexWidth),
		time: formatMs(frame.tMs).padStart(TIME_WIDTH),
		dir: STREAM_LABEL[frame.stream],
		bytes: formatByteCount(frame.byteLength).padStart(BYTES_WIDTH),
		kind: KIND_LABEL[frame.kind].padEnd(KIND_WIDTH),
		latency: layout.hasLatency
			? (frame.answers ? formatLatency(frame.answers.latencyMs) : '').padStart(LATENCY_WIDTH)
			: '',
		summary: frameSummary(frame, layout.summaryWidth),
	};
}

/** The column titles line of the frame list, aligned with {@link frameRowCells}. */
export function rowHeader(layout: RowLayout): string {
	const parts = [
		' '.repeat(2),
		'#'.padStart(layout.indexWidth),
		'ms'.padStart(TIME_WIDTH),
		'dir',
		'bytes'.padStart(BYTES_WIDTH),
		'kind'.padEnd(KIND_WIDTH),
		...(layout.hasLatency ? ['latency'.padStart(LATENCY_WIDTH)] : []),
		'method / id / text',
	];
	return fitColumns(parts.join(' '), layout.width);
}

/**
 * Greedy word wrap of escaped text to `width` columns: breaks at spaces, splits words wider than a line,
 * and indents continuation lines by `indent` spaces.
 * @returns at least one line (an empty text gives `['']`).
 */
export function wrapText(text: string, width: number, indent = 0): string[] {
	const columns = Math.max(1, width);
	const pad = ' '.repeat(Math.min(indent, Math.max(0, columns - 1)));
	const lines: string[] = [];
	let line = '';
	let used = 0;
	let isAtStart = true;
	const flush = (): void => {
		lines.push(line);
		line = pad;
		used = pad.length;
		isAtStart = true;
	};

	for (const word of text.split(' ')) {
		const wordWidth = displayWidth(word);
		const needed = isAtStart ? wordWidth : wordWidth + 1;
		if (used + needed <= columns) {
			line += isAtStart ? word : ` ${word}`;
			used += needed;
			isAtStart = false;
			continue;
		}

		if (!isAtStart) {
			flush();
		}

		// A word wider than a whole line is split.
		for (const char of word) {
			const w = displayWidth(char);
			if (used + w > columns && !isAtStart) {
				flush();
			}

			line += char;
			used += w;
			isAtStart = false;
		}
	}

	lines.push(line);
	return lines;
}

/** `12,345` grouping re-exported for panes. */
export {groupDigits};

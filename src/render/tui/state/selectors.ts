import {toolArguments} from '../../../core/jsonrpc/tool-arguments.js';
import {codeAt, frameIndexAt, severityAt, type FindingTable} from '../../../core/session/stores/finding-list.js';
import type {FrameTable, TableSnapshot as SessionSnapshot} from '../../../core/session/stores/frame-table.js';
import {
	STREAM_LABEL,
	type FindingCode,
	type Frame,
	type Severity,
	type StreamName,
	type Summary,
	type Verdict,
} from '../../../core/types.js';

/**
 * Pure selectors: what the TUI derives from a session snapshot and the view state. Anything that walks
 * every frame or finding (filtering, indexing findings by frame) is meant to be memoised per snapshot
 * array (`useMemo` on `snapshot.frames` / `snapshot.findings`), so a key press that only moves the
 * selection costs O(visible rows).
 *
 * "Frame index" below is a frame's position in `snapshot.frames`, which equals `Frame.index` for a
 * session that retains its frames (the default).
 */

/** Which frames the list shows: per-stream toggles, findings-only, and a search text. */
export interface FrameFilter {
	readonly streams: Readonly<Record<StreamName, boolean>>;
	readonly isFindingsOnly: boolean;
	/** Case-insensitive substring over method, id and text; empty = no search. */
	readonly search: string;
}

/** The filter that shows everything. */
export const NO_FILTER: FrameFilter = {
	streams: {stdin: true, stdout: true, stderr: true},
	isFindingsOnly: false,
	search: '',
};

/**
 * An ordered selection of frames (the filtered frame list): `length` rows; row `p` shows frame
 * `indexAt(p)`. Frame indices ascend with the position.
 */
export interface FrameView {
	readonly length: number;
	indexAt(position: number): number;
	/** Position of `frameIndex`, or of the first shown frame after it (the last row when none follows); -1 when empty. */
	positionOf(frameIndex: number): number;
	/** True when `frameIndex` is one of the shown frames. */
	has(frameIndex: number): boolean;
}

/** All `length` frames, unfiltered (no allocation, O(1) per call). */
export function identityView(length: number): FrameView {
	return {
		length,
		indexAt: (position) => position,
		positionOf: (frameIndex) => (length === 0 ? -1 : Math.max(0, Math.min(length - 1, frameIndex))),
		has: (frameIndex) => Number.isInteger(frameIndex) && frameIndex >= 0 && frameIndex < length,
	};
}

/** First position in the ascending `sorted` whose value is ≥ `value`. */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const mid = (low + high) >>> 1;
		if (sorted[mid]! < value) {
			low = mid + 1;
		} else {
			high = mid;
		}
	}

	return low;
}

/** A view over an ascending list of frame indices. */
export function arrayView(indices: readonly number[]): FrameView {
	return {
		length: indices.length,
		indexAt: (position) => indices[position] ?? -1,
		positionOf: (frameIndex) =>
			indices.length === 0 ? -1 : Math.min(indices.length - 1, lowerBound(indices, frameIndex)),
		has: (frameIndex) => indices[lowerBound(indices, frameIndex)] === frameIndex,
	};
}

/** The stream of frame `index`, from the table's columns when it has them. */
function streamAt(frames: FrameTable, index: number): StreamName {
	return frames.streamAt ? frames.streamAt(index) : frames.at(index)!.stream;
}

/** True when a frame matches a lowercased search needle (method, the answered method, id, or text). */
export function matchesSearch(frame: Pick<Frame, 'method' | 'answers' | 'id' | 'text'>, needle: string): boolean {
	if (needle === '') {
		return true;
	}

	if (frame.method?.toLowerCase().includes(needle) || frame.answers?.method.toLowerCase().includes(needle)) {
		return true;
	}

	if (frame.id !== undefined) {
		const id = String(frame.id).toLowerCase();
		if (id === needle || id.includes(needle)) {
			return true;
		}
	}

	return frame.text !== undefined && frame.text.toLowerCase().includes(needle);
}

/** True when the filter shows every frame. */
export function isNoFilter(filter: FrameFilter): boolean {
	return (
		filter.streams.stdin &&
		filter.streams.stdout &&
		filter.streams.stderr &&
		!filter.isFindingsOnly &&
		filter.search === ''
	);
}

/**
 * The frames a filter shows. O(1) with no filter, O(frames) otherwise (memoise it).
 * @param flagged frame index → highest severity of its findings (from {@link indexFindings}).
 */
export function filterFrames(frames: FrameTable, filter: FrameFilter, flagged: FrameSeverity): FrameView {
	if (isNoFilter(filter)) {
		return identityView(frames.length);
	}

	const needle = filter.search.toLowerCase();
	if (needle !== '' && frames.search) {
		// An index searches without building each frame, reading the bodies it needs in big blocks (docs/performance.md#replay).
		return arrayView(
			frames.search(
				(i) => filter.streams[streamAt(frames, i)] && (!filter.isFindingsOnly || flagged.has(i)),
				(frame) => matchesSearch(frame, needle),
			),
		);
	}

	const indices: number[] = [];
	for (let i = 0; i < frames.length; i++) {
		// Stream and findings first: an index answers them from its columns without building the frame.
		if (!filter.streams[streamAt(frames, i)]) {
			continue;
		}

		if (filter.isFindingsOnly && !flagged.has(i)) {
			continue;
		}

		if (needle !== '' && !matchesSearch(frames.at(i)!, needle)) {
			continue;
		}

		indices.push(i);
	}

	return arrayView(indices);
}

const RANK: Readonly<Record<Severity, number>> = {error: 2, warning: 1, info: 0};

/** The higher of two severities. */
export function maxSeverity(a: Severity | undefined, b: Severity): Severity {
	return a === undefined || RANK[b] > RANK[a] ? b : a;
}

/** Frame index → highest severity of its findings (a `ReadonlyMap<number, Severity>` is one). */
export interface FrameSeverity {
	get(frameIndex: number): Severity | undefined;
	has(frameIndex: number): boolean;
}

/** Findings indexed by the frame they point at (typed arrays: no object per finding or per frame). */
export interface FindingIndex {
	/** Indices into `findings` of the findings pointing at frame `frameIndex`, in order found (empty for none). */
	findingsOf(frameIndex: number): readonly number[];
	/** Frame index → highest severity of its findings. */
	readonly severity: FrameSeverity;
	/** Frame indices with findings, ascending. */
	readonly flaggedFrames: ArrayLike<number>;
}

const SEVERITIES: readonly Severity[] = ['info', 'warning', 'error'];

/**
 * Indexes findings by frame: a counting sort of the findings by frame (two Int32Arrays) and the highest
 * severity per frame (a Uint8Array). O(findings + frames), reading the table's columns without building a
 * finding (docs/performance.md#tui-on-big-captures); memoise per `snapshot.findings`.
 */
export function indexFindings(findings: FindingTable): FindingIndex {
	let frameCount = 0;
	for (let i = 0; i < findings.length; i++) {
		const frame = frameIndexAt(findings, i);
		if (isFrameIndex(frame) && frame >= frameCount) frameCount = frame + 1;
	}

	// starts[f]..starts[f + 1]: the findings of frame f in `order`; rank[f]: 1 + RANK of its highest severity.
	const starts = new Int32Array(frameCount + 1);
	const rank = new Uint8Array(frameCount);
	let withFrame = 0;
	for (let i = 0; i < findings.length; i++) {
		const frame = frameIndexAt(findings, i);
		if (!isFrameIndex(frame)) continue;
		starts[frame + 1]!++;
		withFrame++;
		rank[frame] = Math.max(rank[frame]!, RANK[severityAt(findings, i)] + 1);
	}

	let flaggedCount = 0;
	for (let f = 0; f < frameCount; f++) {
		if (starts[f + 1]! > 0) flaggedCount++;
		starts[f + 1]! += starts[f]!;
	}

	const order = new Int32Array(withFrame);
	const next = starts.slice(0, frameCount);
	for (let i = 0; i < findings.length; i++) {
		const frame = frameIndexAt(findings, i);
		if (isFrameIndex(frame)) order[next[frame]!++] = i;
	}

	const flaggedFrames = new Int32Array(flaggedCount);
	for (let f = 0, k = 0; f < frameCount; f++) if (rank[f]! > 0) flaggedFrames[k++] = f;
	const inRange = (f: number): boolean => Number.isInteger(f) && f >= 0 && f < frameCount;
	return {
		findingsOf: (f) => (inRange(f) ? Array.from(order.subarray(starts[f]!, starts[f + 1]!)) : []),
		severity: {
			get: (f) => (inRange(f) && rank[f]! > 0 ? SEVERITIES[rank[f]! - 1] : undefined),
			has: (f) => inRange(f) && rank[f]! > 0,
		},
		flaggedFrames,
	};
}

function isFrameIndex(frame: number | undefined): frame is number {
	return frame !== undefined && Number.isInteger(frame) && frame >= 0;
}

/** One group of the findings pane: a code, its highest severity, and its findings (indices into `findings`). */
export interface FindingGroup {
	readonly code: FindingCode;
	readonly severity: Severity;
	readonly items: readonly number[];
}

/** Groups findings by code, errors first, then warnings, then info; ties in order of first appearance. */
export function groupFindings(findings: FindingTable): FindingGroup[] {
	const groups = new Map<FindingCode, {code: FindingCode; severity: Severity; items: number[]; first: number}>();
	for (let i = 0; i < findings.length; i++) {
		const code = codeAt(findings, i);
		const severity = severityAt(findings, i);
		const group = groups.get(code);
		if (group) {
			group.items.push(i);
			group.severity = maxSeverity(group.severity, severity);
		} else {
			groups.set(code, {code, severity, items: [i], first: i});
		}
	}

	return [...groups.values()]
		.sort((a, b) => RANK[b.severity] - RANK[a.severity] || a.first - b.first)
		.map(({code, severity, items}) => ({code, severity, items}));
}

/** One line of the findings pane: a group header or a finding (with its ordinal in grouped order). */
export type FindingLine =
	| {readonly type: 'group'; readonly code: FindingCode; readonly severity: Severity; readonly count: number}
	| {readonly type: 'item'; readonly finding: number; readonly ordinal: number};

/**
 * The findings pane as lines (a header per group, then its findings), and the findings in grouped order
 * (what the cursor walks). Lines are made for the rows asked for, not for every finding.
 */
export interface FindingsLayout {
	/** Lines, group headers included. */
	readonly lineCount: number;
	/** Findings (the cursor's range). */
	readonly count: number;
	/** Line `line` (`0 <= line < lineCount`), or undefined outside. */
	lineAt(line: number): FindingLine | undefined;
	/** Lines `[start, end)` (clamped). */
	lines(start: number, end: number): FindingLine[];
	/** The index into `findings` of the finding at `ordinal` in grouped order, or undefined outside. */
	findingAt(ordinal: number): number | undefined;
	/** The line of the finding at `ordinal`, or undefined outside. */
	lineOf(ordinal: number): number | undefined;
}

/** Last position in the ascending `sorted` whose value is ≤ `value` (-1 when none). */
function lastAtMost(sorted: readonly number[], value: number): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const mid = (low + high) >>> 1;
		if (sorted[mid]! <= value) low = mid + 1;
		else high = mid;
	}

	return low - 1;
}

/** Lays the grouped findings out as lines: O(groups), each line made when asked for. */
export function findingsLayout(groups: readonly FindingGroup[]): FindingsLayout {
	// Per group: the line of its header and the ordinal of its first finding.
	const headerLine: number[] = [];
	const firstOrdinal: number[] = [];
	let lineCount = 0;
	let count = 0;
	for (const group of groups) {
		headerLine.push(lineCount);
		firstOrdinal.push(count);
		lineCount += 1 + group.items.length;
		count += group.items.length;
	}

	const lineAt = (line: number): FindingLine | undefined => {
		if (!Number.isInteger(line) || line < 0 || line >= lineCount) return undefined;
		const g = lastAtMost(headerLine, line);
		const group = groups[g]!;
		const k = line - headerLine[g]! - 1;
		return k < 0
			? {type: 'group', code: group.code, severity: group.severity, count: group.items.length}
			: {type: 'item', finding: group.items[k]!, ordinal: firstOrdinal[g]! + k};
	};

	const inRange = (ordinal: number): boolean => Number.isInteger(ordinal) && ordinal >= 0 && ordinal < count;
	return {
		lineCount,
		count,
		lineAt,
		lines(start, end) {
			const out: FindingLine[] = [];
			for (let line = Math.max(0, start); line < Math.min(end, lineCount); line++) out.push(lineAt(line)!);
			return out;
		},
		findingAt(ordinal) {
			if (!inRange(ordinal)) return undefined;
			const g = lastAtMost(firstOrdinal, ordinal);
			return groups[g]!.items[ordinal - firstOrdinal[g]!];
		},
		lineOf(ordinal) {
			if (!inRange(ordinal)) return undefined;
			const g = lastAtMost(firstOrdinal, ordinal);
			return headerLine[g]! + 1 + ordinal - firstOrdinal[g]!;
		},
	};
}

/** Frame indices of the stderr lines, ascending. O(frames); memoise per `snapshot.frames`. */
export function stderrFrames(frames: FrameTable): number[] {
	const out: number[] = [];
	for (let i = 0; i < frames.length; i++) {
		if (streamAt(frames, i) === 'stderr') {
			out.push(i);
		}
	}

	return out;
}

/** What the status bar shows. */
export interface StatusModel {
	readonly verdict: Verdict;
	readonly streams: readonly {
		readonly label: string;
		readonly stream: StreamName;
		readonly frames: number;
		readonly bytes: number;
	}[];
	readonly errors: number;
	readonly warnings: number;
	readonly infos: number;
	readonly isEnded: boolean;
	/** `exit 0`, `SIGTERM`, or undefined while running. */
	readonly exit?: string;
	readonly server?: string;
	/**
	 * Set when the capture shown is incomplete (gaps, cut short): what `view`'s plain path says of it, e.g.
	 * `the capture is incomplete: 1000 bytes of stdout crossed the wire but are not in it (1 gap, …)`.
	 */
	readonly incomplete?: string;
	/** The tap's waits for its capture (`Summary.stalls`: a replayed tap capture whose end record has them). */
	readonly stalls?: NonNullable<Summary['stalls']>;
}

/** The handshake request the client is still waiting for: its method and when it was sent (session ms). */
export interface PendingHandshake {
	readonly method: string;
	readonly tMs: number;
}

const HANDSHAKE_METHODS: ReadonlySet<string> = new Set(['initialize', 'server/discover']);

/**
 * The handshake request (`initialize`, or `server/discover` in the 2026-07-28 era) still outstanding in a
 * live session: the last one the client sent, when no response or error answers it, the client has not
 * given up on it (a `timeout` mark) and the session has not ended. O(frames); memoise per snapshot.
 * @returns undefined once the handshake was answered (or given up on), and for an ended session.
 */
export function pendingHandshake(
	snapshot: Pick<SessionSnapshot, 'frames' | 'marks' | 'isEnded'>,
): PendingHandshake | undefined {
	if (snapshot.isEnded) return undefined;
	let request: {index: number; method: string; tMs: number; id: unknown} | undefined;
	let isAnswered = false;
	for (let i = 0; i < snapshot.frames.length; i++) {
		const frame = snapshot.frames.at(i)!;
		if (
			frame.stream === 'stdin' &&
			frame.kind === 'request' &&
			frame.method !== undefined &&
			HANDSHAKE_METHODS.has(frame.method)
		) {
			request = {index: frame.index, method: frame.method, tMs: frame.tMs, id: frame.id};
			isAnswered = false;
		} else if (request !== undefined && frame.answers?.requestIndex === request.index) {
			isAnswered = true;
		}
	}
	if (request === undefined || isAnswered) return undefined;
	const pending = request;
	if (
		snapshot.marks.some((mark) => mark.type === 'timeout' && mark.id === pending.id && mark.method === pending.method)
	)
		return undefined;
	return {method: pending.method, tMs: pending.tMs};
}

/** Bytes per stream that a capture's gap marks say were not captured. O(marks); memoise per `snapshot.marks`. */
export function gapBytes(marks: SessionSnapshot['marks']): Readonly<Record<StreamName, number>> {
	const missing = {stdin: 0, stdout: 0, stderr: 0};
	for (const mark of marks) if (mark.type === 'gap') missing[mark.stream] += mark.length;
	return missing;
}

/**
 * The status bar model of a snapshot (O(1)). Bytes per stream are the bytes captured: the session counts
 * a gap's bytes in the stream's length (offsets stay true), `missing` (from {@link gapBytes}) takes them
 * out. `incomplete`: see {@link StatusModel.incomplete}. `stalls`: the summary's, else `options.stalls` (a
 * capture still loading, whose end record gave them before the session is finished).
 */
export function statusModel(
	snapshot: SessionSnapshot,
	options: {
		readonly missing?: Readonly<Record<StreamName, number>>;
		readonly incomplete?: string;
		readonly stalls?: Summary['stalls'];
	} = {},
): StatusModel {
	const {summary} = snapshot;
	const streams = (['stdin', 'stdout', 'stderr'] as const).map((stream) => ({
		label: STREAM_LABEL[stream],
		stream,
		frames: summary.streams[stream].frames,
		bytes: Math.max(0, summary.streams[stream].bytes - (options.missing?.[stream] ?? 0)),
	}));
	const exit = snapshot.exit ?? summary.exit;
	const server = summary.serverInfo?.name;
	const stalls = summary.stalls ?? options.stalls;
	return {
		verdict: summary.verdict,
		streams,
		errors: summary.errors,
		warnings: summary.warnings,
		infos: summary.infos,
		isEnded: snapshot.isEnded,
		...(exit ? {exit: exit.signal ? exit.signal : `exit ${String(exit.code)}`} : {}),
		...(server === undefined ? {} : {server}),
		...(options.incomplete === undefined ? {} : {incomplete: options.incomplete}),
		...(stalls === undefined ? {} : {stalls}),
	};
}

/** Hex dump panels of 8 bytes that fit a width: 1, 2 or 3 (hexyl `--panels=auto`); row width is 10 + 29·panels. */
export function hexPanels(width: number): 1 | 2 | 3 {
	if (width >= 10 + 29 * 3) {
		return 3;
	}

	return width >= 10 + 29 * 2 ? 2 : 1;
}

/** A request the user can send with `s`: method, a params template, and a label. */
export interface SendOffer {
	readonly method: string;
	readonly params: unknown;
	readonly label: string;
}

/** Standard methods always offered. */
export const STANDARD_OFFERS: readonly SendOffer[] = [
	{method: 'ping', params: {}, label: 'ping'},
	{method: 'tools/list', params: {}, label: 'tools/list'},
	{method: 'prompts/list', params: {}, label: 'prompts/list'},
	{method: 'resources/list', params: {}, label: 'resources/list'},
	{method: 'resources/templates/list', params: {}, label: 'resources/templates/list'},
];

/**
 * The `arguments` of a prompt offered by `s`: its required arguments as `""` (prompt arguments are
 * strings), as `probe --get-prompt` sends them.
 */
export function promptArguments(prompt: unknown): Record<string, string> {
	const declared = (prompt as {arguments?: unknown} | undefined)?.arguments;
	const out: Record<string, string> = {};
	for (const argument of Array.isArray(declared) ? declared : []) {
		const {name, required} = (argument ?? {}) as {name?: unknown; required?: unknown};
		if (required === true && typeof name === 'string') out[name] = '';
	}

	return out;
}

/** The result array of the last response to `method` in the frames, or undefined. */
function lastListed(frames: FrameTable, method: string, key: string): unknown[] | undefined {
	for (let i = frames.length - 1; i >= 0; i--) {
		const frame = frames.at(i)!;
		if (frame.kind === 'response' && frame.stream === 'stdout' && frame.answers?.method === method) {
			const list = (frame.message as {result?: Record<string, unknown>}).result?.[key];
			return Array.isArray(list) ? list : undefined;
		}
	}

	return undefined;
}

/**
 * What `s` offers: the caller's extra offers first, then one per listed tool (`tools/call`), prompt
 * (`prompts/get`) and resource (`resources/read`) from the last list responses seen, then the standard
 * methods. O(frames) in the worst case: call it only when the send panel opens.
 */
export function sendOffers(frames: FrameTable, extra: readonly SendOffer[] = []): SendOffer[] {
	const offers: SendOffer[] = [...extra];
	for (const tool of lastListed(frames, 'tools/list', 'tools') ?? []) {
		const name = (tool as {name?: unknown}).name;
		if (typeof name === 'string') {
			offers.push({
				method: 'tools/call',
				// The generator of `probe --call`: required properties, `default`, `examples`, the first `enum` value.
				params: {name, arguments: toolArguments((tool as {inputSchema?: unknown}).inputSchema).value},
				label: `tools/call ${name}`,
			});
		}
	}

	for (const prompt of lastListed(frames, 'prompts/list', 'prompts') ?? []) {
		const name = (prompt as {name?: unknown}).name;
		if (typeof name === 'string') {
			offers.push({
				method: 'prompts/get',
				params: {name, arguments: promptArguments(prompt)},
				label: `prompts/get ${name}`,
			});
		}
	}

	for (const resource of lastListed(frames, 'resources/list', 'resources') ?? []) {
		const uri = (resource as {uri?: unknown}).uri;
		if (typeof uri === 'string') {
			offers.push({method: 'resources/read', params: {uri}, label: `resources/read ${uri}`});
		}
	}

	return [...offers, ...STANDARD_OFFERS];
}

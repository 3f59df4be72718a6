import {useMemo} from 'react';
import type {Finding, Frame} from '../../../core/types.js';
import type {TableSnapshot as SessionSnapshot} from '../../../core/session/stores/frame-table.js';
import {detailContentRows, type DetailContent} from '../components/detail-pane.js';
import type {HexRow} from '../../../core/bytes/hex-layout.js';
import {hexRowCount, visibleHexRows} from '../components/hex-pane.js';
import {jsonLines} from '../components/json-pane.js';
import {RAW_LIMIT, rawLines} from '../components/raw-pane.js';
import {chunkLines} from '../components/chunks-pane.js';
import type {DetailTab} from '../state/view-reducer.js';
import {maxScrollTop} from '../state/window.js';

/** What {@link useDetailContent} shows: the frame, its tab, the pane's size and where it is scrolled. */
export interface DetailInput {
	readonly snapshot: SessionSnapshot;
	readonly frame: Frame | undefined;
	readonly tab: DetailTab;
	readonly width: number;
	/** Bytes per hex row (8 × the hex panels that fit). */
	readonly perRow: number;
	/** Rows of the lower pane and how many findings the frame has (they take rows of it). */
	readonly lowerRows: number;
	readonly findingCount: number;
	/** The view state's detail scroll (clamped here to what the content allows). */
	readonly scroll: number;
	/** The finding to highlight in the hex tab, when it is on this frame's stream. */
	readonly highlight: Finding | undefined;
}

/** The detail pane's content for the current tab, and the numbers navigation needs. */
export interface DetailOutput {
	readonly content: DetailContent;
	/** The frame's chunks (reads), for the pane's read count. */
	readonly readCount: number;
	/** Lines of the whole content and rows shown, for scrolling. */
	readonly lines: number;
	readonly rows: number;
	readonly scroll: number;
}

/**
 * The detail pane of the current frame: only the current tab's content is built (memoised per frame,
 * tab and width), the hex tab only for the rows shown, with the shown finding highlighted.
 */
export function useDetailContent(input: DetailInput): DetailOutput {
	const {snapshot, frame, tab, width, perRow} = input;
	const rows = detailContentRows(input.lowerRows, input.findingCount);
	const chunks = useMemo(() => (frame ? snapshot.chunksOf(frame) : []), [frame, snapshot]);
	const json = useMemo(
		() => (tab === 'json' && frame?.message !== undefined ? jsonLines(frame.message, width) : undefined),
		[tab, frame, width],
	);
	const raw = useMemo(
		() =>
			tab === 'raw' && frame
				? rawLines(
						snapshot.bytes(frame.stream, frame.offset, Math.min(frame.byteLength, RAW_LIMIT)),
						width,
						frame.byteLength,
					)
				: [],
		[tab, frame, width, snapshot],
	);
	const chunkText = useMemo(() => (tab === 'chunks' && frame ? chunkLines(frame, chunks) : []), [tab, frame, chunks]);
	const lines =
		tab === 'hex'
			? hexRowCount(frame?.byteLength ?? 0, perRow)
			: tab === 'json'
				? (json?.length ?? 1)
				: tab === 'raw'
					? raw.length
					: chunkText.length;
	const scroll = Math.min(input.scroll, maxScrollTop(lines, rows));
	let content: DetailContent;
	switch (tab) {
		case 'hex':
			content = {tab: 'hex', rows: hexContent(input, scroll, rows), perRow};
			break;
		case 'json':
			content = {tab: 'json', lines: json};
			break;
		case 'raw':
			content = {tab: 'raw', lines: raw};
			break;
		case 'chunks':
			content = {tab: 'chunks', lines: chunkText};
			break;
	}
	return {content, readCount: chunks.length, lines, rows, scroll};
}

/** The hex rows shown (`rows` from `scroll`), the highlighted finding's bytes marked. */
function hexContent(input: DetailInput, scroll: number, rows: number): HexRow[] {
	const {frame, highlight, snapshot, perRow} = input;
	if (!frame) return [];
	const marked =
		highlight && highlight.stream === frame.stream ? [{offset: highlight.offset, length: highlight.byteLength}] : [];
	return visibleHexRows(
		{
			read: (offset, length) => snapshot.bytes(frame.stream, offset, length),
			offset: frame.offset,
			byteLength: frame.byteLength,
		},
		perRow,
		scroll,
		rows,
		marked,
	);
}

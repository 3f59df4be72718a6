import {escapeText, groupDigits} from '../../../core/bytes/glyphs.js';
import {STREAM_LABEL, TAP_PHASE, type Frame} from '../../../core/types.js';
import {cell, code, details, html, ms, plural, prose, table} from '../md.js';
import {block, type ReportContext, type SectionOutput} from './context.js';

/** Rows up to which the timeline is shown unfolded. */
const VISIBLE_ROWS = 8;
/** Process-event rows the timeline shows at most (more when more frames are shown). */
const EVENT_ROWS = 50;

/** ` id=…`: the id token as written when it is not canonical (`0.0`, `1e2`; as the plain log shows it), else the parsed id. */
function idText(frame: Frame): string {
	const {id, rawId} = frame;
	if (rawId !== undefined) return ` id=${rawId}`;
	return id === undefined ? '' : ` id=${typeof id === 'string' ? JSON.stringify(id) : String(id)}`;
}

function errorText(message: unknown): string {
	const error = typeof message === 'object' && message !== null ? (message as {error?: unknown}).error : undefined;
	if (typeof error !== 'object' || error === null) {
		return '';
	}

	const {code: errorCode, message: text} = error as {code?: unknown; message?: unknown};
	return [
		typeof errorCode === 'number' ? ` ${errorCode}` : '',
		typeof text === 'string' ? ` ${escapeText(text, 40)}` : '',
	].join('');
}

function jsonPreview(message: unknown): string {
	try {
		return JSON.stringify(message) ?? String(message);
	} catch {
		return String(message);
	}
}

/** What a frame is, in one cell: kind, method or id, and tags for its framing (`CRLF`, `no LF`, `N lines`, `content-length`). */
function frameCell(frame: Frame): string {
	let text: string;
	switch (frame.kind) {
		case 'request':
		case 'notification': {
			text = `${frame.kind} ${code(frame.method ?? '?', 40)}${escapeText(idText(frame), 40)}`;
			break;
		}

		case 'response':
		case 'error': {
			const answers = frame.answers === undefined ? '' : ` → ${code(frame.answers.method, 40)}`;
			text = `${frame.kind}${escapeText(idText(frame), 40)}${answers}${frame.kind === 'error' ? ` ${code(errorText(frame.message).trim() || 'error')}` : ''}`;
			break;
		}

		case 'json': {
			text = `json ${code(jsonPreview(frame.message), 40)}`;
			break;
		}

		case 'text': {
			text = `text ${code(frame.text ?? '', 40)}`;
			break;
		}

		case 'blank': {
			text = 'blank';
			break;
		}
	}

	const tags: string[] = [];
	if (frame.framing === 'content-length') {
		tags.push('content-length');
	}

	if (frame.terminator === 'crlf') {
		tags.push('CRLF');
	}

	if (frame.terminator === 'none') {
		tags.push('no LF');
	}

	if (frame.lineCount > 1) {
		tags.push(`${frame.lineCount} lines`);
	}

	return cell(tags.length > 0 ? `${text} [${tags.join(', ')}]` : text);
}

/**
 * The frame timeline: the first `plan.timelineFrames` stdin/stdout frames with completion time (ms since
 * start), direction, bytes, what the frame is, the latency of responses, and the codes found in it;
 * client timeouts, stdin closing, signals and the exit are interleaved as italic rows. Folded into
 * `<details>` when longer than a few rows.
 */
export function timelineSection(context: ReportContext): SectionOutput {
	const frames = context.snapshot.frames.filter((frame) => frame.stream !== 'stderr');
	// Every stdin/stdout frame of the session, also when only the first ones were kept (keep.ts).
	const total = Math.max(
		frames.length,
		context.snapshot.summary.streams.stdin.frames + context.snapshot.summary.streams.stdout.frames,
	);
	const events = timelineEvents(context);
	if (total === 0 && events.length === 0) {
		return {blocks: [block(27, 'the timeline', ['**Frames:** none crossed stdin or stdout.'])], leftOut: []};
	}

	const limit = Math.min(frames.length, context.plan.timelineFrames);
	if (limit === 0 && total > 0) {
		return {blocks: [], leftOut: [`the frame timeline (${plural(total, 'frame')})`]};
	}

	const codesByFrame = new Map<number, Set<string>>();
	for (const finding of context.snapshot.findings) {
		if (finding.frameIndex !== undefined && context.kept === undefined) {
			const set = codesByFrame.get(finding.frameIndex) ?? new Set<string>();
			set.add(finding.code);
			codesByFrame.set(finding.frameIndex, set);
		}
	}

	const shown = frames.slice(0, limit);
	if (context.kept !== undefined)
		for (const frame of shown) codesByFrame.set(frame.index, new Set(context.kept.codesOfFrame(frame.index)));
	const until = limit < total ? shown.at(-1)!.tMs : Infinity;
	const rows: Array<{tMs: number; order: number; cells: string[]}> = shown.map((frame, order) => ({
		tMs: frame.tMs,
		order,
		cells: [
			String(frame.index),
			ms(frame.tMs),
			STREAM_LABEL[frame.stream],
			groupDigits(frame.byteLength),
			frameCell(frame),
			frame.answers === undefined ? '' : ms(frame.answers.latencyMs),
			[...(codesByFrame.get(frame.index) ?? [])].map((findingCode) => code(findingCode)).join(', '),
		],
	}));
	const inTime = events.filter((entry) => entry.tMs <= until);
	// Rows for process events are bounded too (a crafted capture can hold any number of marks).
	const eventLimit = Math.max(EVENT_ROWS, limit);
	for (const event of inTime.slice(0, eventLimit)) {
		rows.push({
			tMs: event.tMs,
			order: rows.length,
			cells: ['', ms(event.tMs), '', '', `*${cell(prose(event.text))}*`, '', ''],
		});
	}

	rows.sort((a, b) => a.tMs - b.tMs || a.order - b.order);
	const body = table(
		['frame', 'ms', 'dir', 'bytes', 'what', 'latency ms', 'findings'],
		['r', 'r', 'l', 'r', 'l', 'r', 'l'],
		rows.map((row) => row.cells),
	);
	// Frames are named by their index (from 0, as the table and `view` number them; stderr lines take numbers too).
	const leftOut =
		limit < total ? [`the ${plural(total - limit, 'frame')} after frame ${shown.at(-1)!.index} in the timeline`] : [];
	if (inTime.length > eventLimit)
		leftOut.push(`${plural(inTime.length - eventLimit, 'process event')} in the timeline`);
	const title =
		limit < total
			? `Frame timeline: the first ${limit} of ${plural(total, 'frame')} on stdin/stdout`
			: `Frame timeline: ${plural(total, 'frame')} on stdin/stdout`;
	if (rows.length <= VISIBLE_ROWS) {
		return {blocks: [block(30, 'the frame timeline', [`**${title}**`, '', ...body])], leftOut};
	}

	return {blocks: [block(30, 'the frame timeline', details(html(title), body))], leftOut};
}

/** Gaps merged into one timeline row. */
interface GapRun {
	readonly stream: string;
	readonly reason: string;
	count: number;
	bytes: number;
	readonly start: number;
	end: number;
}

interface TimelineEvent {
	readonly tMs: number;
	text: string;
	readonly gap?: GapRun;
}

function gapText(gap: GapRun): string {
	return gap.count === 1
		? `${gap.bytes} bytes of ${gap.stream} not captured from offset ${gap.start} (${gap.reason})`
		: `${groupDigits(gap.bytes)} bytes of ${gap.stream} not captured in ${groupDigits(gap.count)} gaps from offset ${gap.start} to ${gap.end} (${gap.reason})`;
}

/** Process events worth a timeline row: client timeouts, stdin closed, signals, the tap's own moves, the exit. */
function timelineEvents(context: ReportContext): TimelineEvent[] {
	const events: TimelineEvent[] = [];
	for (const mark of context.snapshot.marks) {
		switch (mark.type) {
			case 'timeout': {
				events.push({
					tMs: mark.tMs,
					text: `client gave up on ${code(mark.method, 60)} (id ${code(JSON.stringify(mark.id), 40)}) after ${groupDigits(mark.timeoutMs)} ms`,
				});
				break;
			}

			case 'stdin-closed': {
				events.push({tMs: mark.tMs, text: 'client closed stdin'});
				break;
			}

			case 'signal-sent': {
				events.push({tMs: mark.tMs, text: `client sent ${mark.signal}`});
				break;
			}

			case 'reaped': {
				events.push({
					tMs: mark.tMs,
					text: `mcp-wire ended leftover process${mark.pids.length === 1 ? '' : 'es'} of the server (pid ${mark.pids.join(', ')}) with ${mark.signal}`,
				});
				break;
			}

			case 'gap': {
				// Consecutive gaps on one stream for one reason are one row: a capture that fell behind for
				// a while can hold hundreds of thousands of them.
				const last = events.at(-1)?.gap;
				if (last !== undefined && last.stream === mark.stream && last.reason === mark.reason) {
					last.count += 1;
					last.bytes += mark.length;
					last.end = mark.offset + mark.length;
					events.at(-1)!.text = gapText(last);
					break;
				}

				const gap = {
					stream: mark.stream,
					reason: mark.reason,
					count: 1,
					bytes: mark.length,
					start: mark.offset,
					end: mark.offset + mark.length,
				};
				events.push({tMs: mark.tMs, text: gapText(gap), gap});
				break;
			}

			case 'phase': {
				if (mark.name === 'stopped-early')
					events.push({tMs: mark.tMs, text: 'the probe stopped waiting: the server was blocked reading stdin'});
				if (mark.name === 'content-length-reply')
					events.push({
						tMs: mark.tMs,
						text: 'the probe stopped waiting: the reply came framed with Content-Length, which no MCP client reads',
					});
				if (mark.name === TAP_PHASE.clientClosedStdout)
					events.push({tMs: mark.tMs, text: "client closed its end of stdout (the tap closed the server's)"});
				if (mark.name === TAP_PHASE.sigkillAfterGrace)
					events.push({tMs: mark.tMs, text: 'server outlived the forwarded signal: the tap sent SIGKILL'});
				if (mark.name === TAP_PHASE.outputGivenUp)
					events.push({
						tMs: mark.tMs,
						text: 'server exited; a process it left still held its output: the tap stopped reading it',
					});
				break;
			}

			default:
		}
	}

	const exit = context.snapshot.exit;
	if (exit !== undefined) {
		events.push({
			tMs: exit.tMs,
			text: exit.signal === null ? `process exited with code ${exit.code ?? '?'}` : `process killed by ${exit.signal}`,
		});
	}

	return events;
}

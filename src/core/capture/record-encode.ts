import {Buffer, isAscii, isUtf8} from 'node:buffer';
import {findingDocsRef} from '../findings/support/docs-ref.js';
import type {Chunk, Finding, Frame, SessionEvent, SessionMeta, Summary} from '../types.js';
import {CHUNK_PREVIEW_MAX_BYTES, LINE_ENDS, RECORD_FORMAT, escapeLineEnd, toLine} from './record-format.js';

// Plain NDJSON encoding of the record format (record-format.ts): one event, one line of text.
// record-encode-pieces.ts writes the same bytes in pieces for big events.

/** Copies `source[key]` into `target` when it is not undefined (keeps a field order, drops absent fields). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
	if (value !== undefined) {
		target[key] = value;
	}
}

/**
 * Encodes the `session` header record.
 * @param meta the session facts.
 * @returns one line of JSON, without a trailing newline (and never containing one).
 */
export function encodeHeader(meta: SessionMeta): string {
	const record: Record<string, unknown> = {
		type: 'session',
		format: RECORD_FORMAT,
		tool: {name: meta.tool.name, version: meta.tool.version},
	};
	record['node'] = meta.node;
	record['platform'] = meta.platform;
	record['command'] = [...meta.command];
	put(record, 'cwd', meta.cwd);
	record['envMode'] = meta.envMode;
	put(record, 'envKeys', meta.envKeys === undefined ? undefined : [...meta.envKeys]);
	record['startedAt'] = meta.startedAt;
	put(record, 'pid', meta.pid);
	record['mode'] = meta.mode;
	put(record, 'protocolVersion', meta.protocolVersion);
	put(record, 'name', meta.name);
	put(record, 'home', meta.home);
	put(record, 'user', meta.user);
	put(record, 'capturePath', meta.capturePath);
	return toLine(record);
}

/**
 * A number as `JSON.stringify` writes it: `ToString` when finite, else `null` (ECMA-262
 * SerializeJSONProperty). An integer as a template string, the fastest way; anything else by
 * `JSON.stringify` itself, which writes a time like `10.85716499999998` about three times as fast as a
 * template string does (docs/performance.md#replay). Reference: `JSON.stringify(value)`.
 */
export function jsonNumber(value: number): string {
	return Number.isInteger(value) ? `${value}` : JSON.stringify(value);
}

/**
 * The start of a chunk record, up to and including its `length` (no closing brace): the text
 * `toLine({type: 'chunk', seq, stream, tMs, offset, length})` has before its last `}`.
 */
export function chunkHead(chunk: Chunk): string {
	return `{"type":"chunk","seq":${jsonNumber(chunk.seq)},"stream":"${chunk.stream}","tMs":${jsonNumber(chunk.tMs)},"offset":${jsonNumber(chunk.offset)},"length":${chunk.bytes.byteLength}`;
}

/**
 * A chunk record's line: the same text as `toLine` of the record `{type, seq, stream, tMs, offset, length,
 * base64, text?}` (`text`: the bytes as UTF-8 when they are valid UTF-8, 1 to {@link CHUNK_PREVIEW_MAX_BYTES}
 * bytes), written directly: one record per read is the most common line of `--json` (docs/performance.md#replay: building
 * an object and stringifying it cost a third more at 1M frames). Only `text` can hold U+0085/U+2028/U+2029,
 * and only when the bytes are not ASCII; the other fields are digits, a stream name and base64.
 */
function chunkLine(chunk: Chunk): string {
	const buffer = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength);
	const head = `${chunkHead(chunk)},"base64":"${buffer.toString('base64')}"`;
	if (buffer.length === 0 || buffer.length > CHUNK_PREVIEW_MAX_BYTES) return `${head}}`;
	if (isAscii(buffer)) return `${head},"text":${JSON.stringify(buffer.toString('latin1'))}}`;
	if (isUtf8(buffer))
		return `${head},"text":${JSON.stringify(buffer.toString('utf8')).replaceAll(LINE_ENDS, escapeLineEnd)}}`;
	return `${head}}`;
}

/** The `frame` record of a frame, its fields in the order they are written (undefined ones left out). */
export function frameRecord(frame: Frame): Record<string, unknown> {
	const record: Record<string, unknown> = {
		type: 'frame',
		index: frame.index,
		stream: frame.stream,
		framing: frame.framing,
		offset: frame.offset,
		byteLength: frame.byteLength,
		bodyOffset: frame.bodyOffset,
		bodyLength: frame.bodyLength,
		terminator: frame.terminator,
		lineCount: frame.lineCount,
		tMs: frame.tMs,
		firstTMs: frame.firstTMs,
		firstSeq: frame.firstSeq,
		lastSeq: frame.lastSeq,
		kind: frame.kind,
	};
	put(record, 'message', frame.message);
	put(record, 'method', frame.method);
	put(record, 'id', frame.id);
	put(
		record,
		'answers',
		frame.answers === undefined
			? undefined
			: {method: frame.answers.method, requestIndex: frame.answers.requestIndex, latencyMs: frame.answers.latencyMs},
	);
	put(record, 'text', frame.text);
	return record;
}

function findingRecord(finding: Finding): Record<string, unknown> {
	const record: Record<string, unknown> = {
		type: 'finding',
		code: finding.code,
		severity: finding.severity,
		stream: finding.stream,
		offset: finding.offset,
		byteLength: finding.byteLength,
	};
	put(record, 'frameIndex', finding.frameIndex);
	record['tMs'] = finding.tMs;
	record['message'] = finding.message;
	record['hint'] = finding.hint;
	record['rules'] = [...finding.rules];
	// The code's section in docs/findings.md; written, never read back (decoding derives nothing from it).
	record['docs'] = findingDocsRef(finding.code);
	record['impact'] = finding.impact.map((impact) => ({
		client: impact.client,
		reaction: impact.reaction,
		note: impact.note,
	}));
	put(record, 'detail', finding.detail);
	put(record, 'confidence', finding.confidence);
	put(record, 'origin', finding.origin);
	return record;
}

function summaryRecord(summary: Summary): Record<string, unknown> {
	const record: Record<string, unknown> = {
		type: 'summary',
		verdict: summary.verdict,
		findings: summary.findings.map((entry) => ({code: entry.code, severity: entry.severity, count: entry.count})),
		errors: summary.errors,
		warnings: summary.warnings,
		infos: summary.infos,
		streams: summary.streams,
		durationMs: summary.durationMs,
	};
	put(
		record,
		'exit',
		summary.exit === undefined
			? undefined
			: {code: summary.exit.code, signal: summary.exit.signal, tMs: summary.exit.tMs},
	);
	put(record, 'era', summary.era);
	put(record, 'serverInfo', summary.serverInfo);
	put(record, 'clientInfo', summary.clientInfo);
	put(record, 'protocolVersion', summary.protocolVersion);
	put(record, 'tools', summary.tools);
	put(record, 'prompts', summary.prompts);
	put(record, 'resources', summary.resources);
	put(
		record,
		'clients',
		summary.clients?.map((entry) => ({
			client: entry.client,
			outcome: entry.outcome,
			decidedBy: [...entry.decidedBy],
			note: entry.note,
			connects: entry.connects,
			toolsListed: entry.toolsListed,
		})),
	);
	put(
		record,
		'incomplete',
		summary.incomplete === undefined
			? undefined
			: {
					cutShort: summary.incomplete.cutShort,
					missingBytes: summary.incomplete.missingBytes,
					gaps: summary.incomplete.gaps,
				},
	);
	put(
		record,
		'stalls',
		summary.stalls === undefined
			? undefined
			: {
					count: summary.stalls.count,
					totalMs: summary.stalls.totalMs,
					longestMs: summary.stalls.longestMs,
					timedOut: summary.stalls.timedOut,
				},
	);
	return record;
}

/**
 * Encodes one session event as a record (see the module table).
 * @returns one line of JSON, without a trailing newline (and never containing one).
 */
export function encodeEvent(event: SessionEvent): string {
	switch (event.type) {
		case 'chunk': {
			return chunkLine(event.chunk);
		}

		case 'frame': {
			return toLine(frameRecord(event.frame));
		}

		case 'finding': {
			return toLine(findingRecord(event.finding));
		}

		case 'mark': {
			return toLine({type: 'mark', mark: event.mark});
		}

		case 'exit': {
			return toLine({type: 'exit', code: event.exit.code, signal: event.exit.signal, tMs: event.exit.tMs});
		}

		case 'summary': {
			return toLine(summaryRecord(event.summary));
		}
	}
}

import {Buffer} from 'node:buffer';
import {
	FINDING_CODES,
	type Chunk,
	type ClientImpact,
	type ExitInfo,
	type Finding,
	type FindingCode,
	type Frame,
	type Mark,
	type ProcessEvidence,
	type ProcessObservation,
	type SessionEvent,
	type StreamTotals,
	type Summary,
} from '../types.js';
import {
	RECORD_FORMAT,
	type DecodeProblem,
	type DecodedLine,
	type DecodedRecords,
	type SessionHeader,
} from './record-format.js';

// Decoding: hand-written checks (core may not import zod), every failure becomes a RecordError.

class RecordError extends Error {}

type Json = Record<string, unknown>;

function fail(message: string): never {
	throw new RecordError(message);
}

/** True for a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: unknown, what: string): Json {
	return isObject(value) ? value : fail(`${what} is not an object`);
}

function count(record: Json, key: string): number {
	const value = record[key];
	return Number.isSafeInteger(value) && (value as number) >= 0
		? (value as number)
		: fail(`\`${key}\` is not a non-negative integer`);
}

function optionalCount(record: Json, key: string): number | undefined {
	return record[key] === undefined ? undefined : count(record, key);
}

function num(record: Json, key: string): number {
	const value = record[key];
	return typeof value === 'number' && Number.isFinite(value) ? value : fail(`\`${key}\` is not a finite number`);
}

function str(record: Json, key: string): string {
	const value = record[key];
	return typeof value === 'string' ? value : fail(`\`${key}\` is not a string`);
}

function optionalStr(record: Json, key: string): string | undefined {
	return record[key] === undefined ? undefined : str(record, key);
}

function oneOf<T extends string>(record: Json, key: string, allowed: readonly T[]): T {
	const value = record[key];
	return typeof value === 'string' && (allowed as readonly string[]).includes(value)
		? (value as T)
		: fail(`\`${key}\` is not one of ${allowed.join(', ')}`);
}

function strings(record: Json, key: string): string[] {
	const value = record[key];
	return Array.isArray(value) && value.every((item) => typeof item === 'string')
		? [...(value as string[])]
		: fail(`\`${key}\` is not an array of strings`);
}

/** Builds an object from entries, leaving out undefined values (optional fields stay absent). */
function compact<T>(entries: Record<string, unknown>): T {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(entries)) {
		if (value !== undefined) {
			out[key] = value;
		}
	}

	return out as T;
}

const STREAMS = ['stdin', 'stdout', 'stderr'] as const;
const GAP_REASONS = ['lag', 'write-failed', 'writer-timeout', 'writer-failed', 'unrecorded'] as const;
const SEVERITIES = ['error', 'warning', 'info'] as const;
const CLIENTS = ['ts-sdk-v1', 'ts-sdk-v2', 'python-sdk', 'vscode', 'rmcp', 'cursor'] as const;
const REACTIONS = ['ok', 'skip', 'skip-log', 'drop-log', 'hang', 'fatal', 'corrupt', 'unknown'] as const;
// With the length a multiple of 4, this is standard padded base64. A flat character class, no repeated
// group: V8 backtracks a repeated group recursively and overflows its stack on a chunk of a few MB.
const BASE64 = /^[A-Za-z\d+/]*={0,2}$/;

function decodeHeader(record: Json, isTapCapture = false): SessionHeader {
	const format = record['format'];
	if (!Number.isSafeInteger(format) || (format as number) < 1) {
		fail('`format` is not a positive integer');
	}

	const tool = object(record['tool'], '`tool`');
	if (tool['name'] !== 'mcp-wire') {
		fail('`tool.name` is not "mcp-wire"');
	}

	// A binary capture is the tap's alone (docs/capture-format.md#format-2-binary): a header without the fields
	// that only describe where it ran (a hand-made or trimmed capture) still opens, with what the tap writes.
	const isTapFormat = isTapCapture;
	const described = (from: Json, key: string): string =>
		isTapFormat && from[key] === undefined ? 'unknown' : str(from, key);
	return compact<SessionHeader>({
		format,
		tool: {name: 'mcp-wire', version: described(tool, 'version')},
		node: described(record, 'node'),
		platform: described(record, 'platform'),
		command: strings(record, 'command'),
		cwd: optionalStr(record, 'cwd'),
		envMode:
			isTapFormat && record['envMode'] === undefined
				? 'inherit'
				: oneOf(record, 'envMode', ['sdk-default', 'inherit', 'gui-minimal', 'client-full', 'client-allowlist']),
		envKeys: record['envKeys'] === undefined ? undefined : strings(record, 'envKeys'),
		startedAt: str(record, 'startedAt'),
		pid: optionalCount(record, 'pid'),
		mode: isTapFormat && record['mode'] === undefined ? 'tap' : oneOf(record, 'mode', ['probe', 'tap', 'replay']),
		protocolVersion: optionalStr(record, 'protocolVersion'),
		name: optionalStr(record, 'name'),
		home: optionalStr(record, 'home'),
		user: optionalStr(record, 'user'),
		capturePath: optionalStr(record, 'capturePath'),
	});
}

/**
 * A `chunk` record's chunk; `given`: its bytes when the caller decoded `base64` itself (record-decode-bytes.ts).
 * @throws RecordError when a field is missing or mistyped, or `base64` is not valid or disagrees with `length`.
 */
export function decodeChunk(record: Json, given?: Uint8Array): Chunk {
	const length = count(record, 'length');
	let bytes: Uint8Array;
	if (given === undefined) {
		const base64 = str(record, 'base64');
		if (base64.length % 4 !== 0 || !BASE64.test(base64)) {
			fail('`base64` is not valid base64');
		}

		const decoded = Buffer.from(base64, 'base64');
		// A view, not a second copy (docs/performance.md#replay): a big chunk's bytes have their own memory, a small
		// one's are a slice of Node's 8 KiB buffer pool, which Node never writes to again. Copying every small
		// chunk out of the pool cost a replay more than decoding its base64.
		bytes = new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.length);
	} else {
		bytes = given;
	}

	if (bytes.byteLength !== length) {
		fail(`\`base64\` holds ${bytes.byteLength} bytes but \`length\` says ${length}`);
	}

	return {
		seq: count(record, 'seq'),
		stream: oneOf(record, 'stream', STREAMS),
		tMs: num(record, 'tMs'),
		offset: count(record, 'offset'),
		bytes,
	};
}

function decodeId(value: unknown): Frame['id'] {
	if (
		value === undefined ||
		value === null ||
		typeof value === 'string' ||
		(typeof value === 'number' && Number.isFinite(value))
	) {
		return value;
	}

	return fail('`id` is not a string, number or null');
}

function decodeFrame(record: Json): Frame {
	let answers: Frame['answers'];
	if (record['answers'] !== undefined) {
		const raw = object(record['answers'], '`answers`');
		answers = {method: str(raw, 'method'), requestIndex: count(raw, 'requestIndex'), latencyMs: num(raw, 'latencyMs')};
	}

	return compact<Frame>({
		index: count(record, 'index'),
		stream: oneOf(record, 'stream', STREAMS),
		framing: oneOf(record, 'framing', ['newline', 'content-length']),
		offset: count(record, 'offset'),
		byteLength: count(record, 'byteLength'),
		bodyOffset: count(record, 'bodyOffset'),
		bodyLength: count(record, 'bodyLength'),
		terminator: oneOf(record, 'terminator', ['lf', 'crlf', 'none', 'length']),
		lineCount: count(record, 'lineCount'),
		tMs: num(record, 'tMs'),
		firstTMs: num(record, 'firstTMs'),
		firstSeq: count(record, 'firstSeq'),
		lastSeq: count(record, 'lastSeq'),
		kind: oneOf(record, 'kind', ['request', 'notification', 'response', 'error', 'json', 'text', 'blank']),
		message: record['message'],
		method: optionalStr(record, 'method'),
		id: decodeId(record['id']),
		answers,
		text: optionalStr(record, 'text'),
	});
}

function decodeImpact(value: unknown): ClientImpact {
	const raw = object(value, 'an `impact` entry');
	return {client: oneOf(raw, 'client', CLIENTS), reaction: oneOf(raw, 'reaction', REACTIONS), note: str(raw, 'note')};
}

function decodeFinding(record: Json): Finding {
	const impact = record['impact'];
	if (!Array.isArray(impact)) {
		fail('`impact` is not an array');
	}

	const detail = record['detail'];
	if (detail !== undefined && !isObject(detail)) {
		fail('`detail` is not an object');
	}

	return compact<Finding>({
		code: oneOf<FindingCode>(record, 'code', FINDING_CODES),
		severity: oneOf(record, 'severity', SEVERITIES),
		stream: oneOf(record, 'stream', STREAMS),
		offset: count(record, 'offset'),
		byteLength: count(record, 'byteLength'),
		frameIndex: optionalCount(record, 'frameIndex'),
		tMs: num(record, 'tMs'),
		message: str(record, 'message'),
		hint: str(record, 'hint'),
		rules: strings(record, 'rules'),
		impact: impact.map((entry) => decodeImpact(entry)),
		detail,
		confidence: record['confidence'] === undefined ? undefined : oneOf(record, 'confidence', ['observed', 'inferred']),
		origin: record['origin'] === undefined ? undefined : oneOf(record, 'origin', ['derived', 'probe']),
	});
}

function decodeMark(value: unknown): Mark {
	const raw = object(value, '`mark`');
	const tMs = num(raw, 'tMs');
	const type = oneOf(raw, 'type', [
		'stdin-closed',
		'eof',
		'signal-sent',
		'timeout',
		'phase',
		'evidence',
		'reaped',
		'gap',
		'observed',
	]);
	switch (type) {
		case 'stdin-closed': {
			return {type, tMs};
		}

		case 'eof': {
			return {type, stream: oneOf(raw, 'stream', STREAMS), tMs};
		}

		case 'signal-sent': {
			return {type, signal: oneOf(raw, 'signal', ['SIGTERM', 'SIGKILL']), tMs};
		}

		case 'timeout': {
			const id = decodeId(raw['id']);
			if (id === undefined) {
				fail('`mark.id` is missing');
			}

			return {type, id, method: str(raw, 'method'), timeoutMs: num(raw, 'timeoutMs'), tMs};
		}

		case 'phase': {
			return {type, name: str(raw, 'name'), tMs};
		}

		case 'evidence': {
			return {type, evidence: decodeEvidence(object(raw['evidence'], '`mark.evidence`')), tMs};
		}

		case 'reaped': {
			const pids = raw['pids'];
			if (!Array.isArray(pids) || !pids.every((pid) => Number.isSafeInteger(pid) && (pid as number) > 0)) {
				fail('`mark.pids` is not an array of pids');
			}

			return {type, pids: [...(pids as number[])], signal: oneOf(raw, 'signal', ['SIGTERM', 'SIGKILL']), tMs};
		}

		case 'observed': {
			return {
				type,
				what: oneOf(raw, 'what', ['spawn-failed', 'no-reply', 'reprobe-answered', 'pre-initialized-request']),
				offset: count(raw, 'offset'),
				detail: object(raw['detail'], '`mark.detail`'),
				tMs,
			};
		}

		case 'gap': {
			return {
				type,
				stream: oneOf(raw, 'stream', STREAMS),
				offset: count(raw, 'offset'),
				length: count(raw, 'length'),
				reason: oneOf(raw, 'reason', GAP_REASONS),
				tMs,
			};
		}
	}
}

const ACTIVITIES = [
	'reading-stdin',
	'idle',
	'timer',
	'waiting-child',
	'busy',
	'network',
	'reading',
	'writing',
	'zombie',
	'stopped',
	'unknown',
] as const;

function optionalBool(record: Json, key: string): boolean | undefined {
	const value = record[key];
	if (value === undefined) return undefined;
	return typeof value === 'boolean' ? value : fail(`\`${key}\` is not a boolean`);
}

function fds(value: unknown, key: string): number[] | undefined {
	if (value === undefined) return undefined;
	return Array.isArray(value) && value.every((fd) => Number.isSafeInteger(fd) && (fd as number) >= 0)
		? [...(value as number[])]
		: fail(`\`holds.${key}\` is not an array of fds`);
}

function decodeObservation(value: unknown): ProcessObservation {
	const raw = object(value, 'a `processes` entry');
	let syscall: ProcessObservation['syscall'];
	if (raw['syscall'] !== undefined) {
		const call = object(raw['syscall'], '`syscall`');
		const timeout = call['timeoutMs'];
		if (timeout !== undefined && timeout !== null && !(typeof timeout === 'number' && Number.isFinite(timeout)))
			fail('`syscall.timeoutMs` is not a number or null');
		syscall = compact({
			name: optionalStr(call, 'name'),
			fd: optionalCount(call, 'fd'),
			timeoutMs: timeout as number | null | undefined,
		});
	}

	let holds: ProcessObservation['holds'];
	if (raw['holds'] !== undefined) {
		const held = object(raw['holds'], '`holds`');
		holds = compact({
			stdin: fds(held['stdin'], 'stdin'),
			stdout: fds(held['stdout'], 'stdout'),
			stderr: fds(held['stderr'], 'stderr'),
		});
	}

	const startTMs = raw['startTMs'];
	if (startTMs !== undefined && !(typeof startTMs === 'number' && Number.isFinite(startTMs)))
		fail('`startTMs` is not a finite number');
	return compact<ProcessObservation>({
		pid: count(raw, 'pid'),
		ppid: optionalCount(raw, 'ppid'),
		command: raw['command'] === undefined ? undefined : strings(raw, 'command'),
		comm: optionalStr(raw, 'comm'),
		state: optionalStr(raw, 'state'),
		wchan: optionalStr(raw, 'wchan'),
		syscall,
		activity: oneOf(raw, 'activity', ACTIVITIES),
		threads: optionalCount(raw, 'threads'),
		startTMs,
		holds,
		connecting: raw['connecting'] === undefined ? undefined : strings(raw, 'connecting'),
	});
}

function decodeEvidence(raw: Json): ProcessEvidence {
	const processes = raw['processes'];
	if (!Array.isArray(processes)) fail('`evidence.processes` is not an array');
	const open = raw['openPipes'];
	if (open !== undefined && !(Array.isArray(open) && open.every((name) => name === 'stdout' || name === 'stderr')))
		fail('`evidence.openPipes` is not a list of stdout/stderr');
	return compact<ProcessEvidence>({
		reason: oneOf(raw, 'reason', ['stall', 'timeout', 'shutdown', 'exit']),
		observed: optionalBool(raw, 'observed') ?? fail('`evidence.observed` is missing'),
		note: optionalStr(raw, 'note'),
		rootPid: optionalCount(raw, 'rootPid'),
		rootAlive: optionalBool(raw, 'rootAlive'),
		processes: processes.map((entry) => decodeObservation(entry)),
		sameStdoutStderr: optionalBool(raw, 'sameStdoutStderr'),
		openPipes: open === undefined ? undefined : [...(open as ('stdout' | 'stderr')[])],
	});
}

function decodeExit(record: Json): ExitInfo {
	const code = record['code'];
	const signal = record['signal'];
	if (code !== null && !Number.isSafeInteger(code)) {
		fail('`code` is not an integer or null');
	}

	if (signal !== null && typeof signal !== 'string') {
		fail('`signal` is not a string or null');
	}

	return {code: code as number | null, signal: signal as string | null, tMs: num(record, 'tMs')};
}

function decodeTotals(value: unknown, stream: string): StreamTotals {
	const raw = object(value, `\`streams.${stream}\``);
	return {bytes: count(raw, 'bytes'), chunks: count(raw, 'chunks'), frames: count(raw, 'frames')};
}

function decodeSummary(record: Json): Summary {
	const findings = record['findings'];
	if (!Array.isArray(findings)) {
		fail('`findings` is not an array');
	}

	const streams = object(record['streams'], '`streams`');
	let serverInfo: Summary['serverInfo'];
	if (record['serverInfo'] !== undefined) {
		const raw = object(record['serverInfo'], '`serverInfo`');
		serverInfo = compact({name: optionalStr(raw, 'name'), version: optionalStr(raw, 'version')});
	}
	let clientInfo: Summary['clientInfo'];
	if (record['clientInfo'] !== undefined) {
		const raw = object(record['clientInfo'], '`clientInfo`');
		clientInfo = compact({name: optionalStr(raw, 'name'), version: optionalStr(raw, 'version')});
	}

	return compact<Summary>({
		verdict: oneOf(record, 'verdict', ['ok', 'warn', 'fail', 'stopped']),
		findings: findings.map((entry) => {
			const raw = object(entry, 'a `findings` entry');
			return {
				code: oneOf<FindingCode>(raw, 'code', FINDING_CODES),
				severity: oneOf(raw, 'severity', SEVERITIES),
				count: count(raw, 'count'),
			};
		}),
		errors: count(record, 'errors'),
		warnings: count(record, 'warnings'),
		infos: count(record, 'infos'),
		streams: {
			stdin: decodeTotals(streams['stdin'], 'stdin'),
			stdout: decodeTotals(streams['stdout'], 'stdout'),
			stderr: decodeTotals(streams['stderr'], 'stderr'),
		},
		durationMs: num(record, 'durationMs'),
		exit: record['exit'] === undefined ? undefined : decodeExit(object(record['exit'], '`exit`')),
		era: record['era'] === undefined ? undefined : oneOf(record, 'era', ['legacy', 'modern']),
		serverInfo,
		clientInfo,
		protocolVersion: optionalStr(record, 'protocolVersion'),
		tools: optionalCount(record, 'tools'),
		prompts: optionalCount(record, 'prompts'),
		resources: optionalCount(record, 'resources'),
		clients: decodeClients(record['clients']),
		incomplete:
			record['incomplete'] === undefined ? undefined : decodeIncomplete(object(record['incomplete'], '`incomplete`')),
		stalls: record['stalls'] === undefined ? undefined : decodeStalls(object(record['stalls'], '`stalls`')),
	});
}

function decodeStalls(raw: Json): Summary['stalls'] {
	return {
		count: count(raw, 'count'),
		totalMs: count(raw, 'totalMs'),
		longestMs: count(raw, 'longestMs'),
		timedOut: count(raw, 'timedOut'),
	};
}

function decodeIncomplete(raw: Json): Summary['incomplete'] {
	if (typeof raw['cutShort'] !== 'boolean') fail('`incomplete.cutShort` is not a boolean');
	return {cutShort: raw['cutShort'], missingBytes: count(raw, 'missingBytes'), gaps: count(raw, 'gaps')};
}

const OUTCOMES = ['works', 'degraded', 'fails', 'unknown'] as const;

/**
 * The summary's `clients` list. It is derived (replay recomputes it), so a list this version cannot
 * read (written by another version, a code it does not know) is left out rather than failing the record.
 */
function decodeClients(value: unknown): Summary['clients'] {
	if (!Array.isArray(value)) return undefined;
	const out: NonNullable<Summary['clients']>[number][] = [];
	for (const entry of value) {
		if (!isObject(entry)) return undefined;
		const {client, outcome, decidedBy, note, connects, toolsListed} = entry;
		const isFlag = (flag: unknown): flag is boolean | null => flag === null || typeof flag === 'boolean';
		if (
			!(CLIENTS as readonly unknown[]).includes(client) ||
			!(OUTCOMES as readonly unknown[]).includes(outcome) ||
			typeof note !== 'string'
		)
			return undefined;
		if (
			!Array.isArray(decidedBy) ||
			!decidedBy.every((code) => (FINDING_CODES as readonly unknown[]).includes(code)) ||
			!isFlag(connects) ||
			!isFlag(toolsListed)
		)
			return undefined;
		out.push({
			client: client as (typeof CLIENTS)[number],
			outcome: outcome as (typeof OUTCOMES)[number],
			decidedBy: decidedBy as FindingCode[],
			note,
			connects,
			toolsListed,
		});
	}

	return out;
}

/**
 * Decodes one line (without its newline; a trailing CR is ignored). Never throws.
 * @returns the header or event it holds, `empty` for a blank line, or a problem message (`isJson` says
 *   whether the line was at least JSON, which tells a cut last line from a bad record).
 */
export function decodeRecord(line: string, options: DecodeRecordOptions = {}): DecodedLine {
	return decodeRecordText(line, options);
}

/** Options of {@link decodeRecord}. */
export interface DecodeRecordOptions {
	/**
	 * The line is the header of a binary capture (format 2, written by the tap only): missing `node`,
	 * `platform`, `tool.version` read as `unknown`, a missing `envMode` as `inherit` and `mode` as `tap`.
	 */
	readonly isTapCapture?: boolean;
}

/** {@link decodeRecord}'s work: one line of text to a header, an event, `empty` or a problem. Never throws. */
export function decodeRecordText(line: string, options: DecodeRecordOptions = {}): DecodedLine {
	const text = line.endsWith('\r') ? line.slice(0, -1) : line;
	if (text.trim() === '') {
		return {kind: 'empty'};
	}

	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return {kind: 'problem', message: 'not JSON', isJson: false};
	}

	if (!isObject(value) || typeof value['type'] !== 'string') {
		return {kind: 'problem', message: 'not a record (a JSON object with a string `type`)', isJson: true};
	}

	const type = value['type'];
	try {
		switch (type) {
			case 'session': {
				const header = decodeHeader(value, options.isTapCapture === true);
				return header.format > RECORD_FORMAT
					? {
							kind: 'header',
							header,
							problem: `format ${header.format} is newer than this version of mcp-wire reads (${RECORD_FORMAT}); records are read as format ${RECORD_FORMAT}`,
						}
					: {kind: 'header', header};
			}

			case 'chunk': {
				return {kind: 'event', event: {type: 'chunk', chunk: decodeChunk(value)}};
			}

			case 'frame': {
				return {kind: 'event', event: {type: 'frame', frame: decodeFrame(value)}};
			}

			case 'finding': {
				return {kind: 'event', event: {type: 'finding', finding: decodeFinding(value)}};
			}

			case 'mark': {
				return {kind: 'event', event: {type: 'mark', mark: decodeMark(value['mark'])}};
			}

			case 'exit': {
				return {kind: 'event', event: {type: 'exit', exit: decodeExit(value)}};
			}

			case 'summary': {
				return {kind: 'event', event: {type: 'summary', summary: decodeSummary(value)}};
			}

			default: {
				return {
					kind: 'problem',
					message: `unknown record type ${JSON.stringify(type).slice(0, 60)}, skipped`,
					isJson: true,
				};
			}
		}
	} catch (error) {
		if (error instanceof RecordError) {
			return {kind: 'problem', message: `bad ${type} record: ${error.message}, skipped`, isJson: true};
		}

		return {kind: 'problem', message: `bad ${type} record, skipped`, isJson: true};
	}
}

/**
 * Decodes a whole capture or `--json` dump. Never throws on bad input: every line that cannot be used
 * becomes a problem with its 1-based line number, and decoding goes on.
 * - A last line without a final newline that is not complete JSON is a cut file: `isTruncated` is true,
 *   a problem says so, and every record before it is kept.
 * - Unknown record types, records with missing or mistyped fields, and non-JSON lines are problems and
 *   are skipped. Blank lines are ignored.
 * - The first valid `session` record is the header; a `format` newer than {@link RECORD_FORMAT} is a
 *   problem (the records are still read). A missing header, or a second one, is a problem.
 * - Chunk bytes come back exactly (a fresh `Uint8Array`); the `text` preview is ignored.
 */
export function decodeRecords(text: string): DecodedRecords {
	const lines = text.split('\n');
	const isTerminated = text.endsWith('\n');
	if (isTerminated) {
		lines.pop();
	}

	let header: SessionHeader | undefined;
	const events: SessionEvent[] = [];
	const problems: DecodeProblem[] = [];
	let isTruncated = false;
	for (const [index, line] of lines.entries()) {
		const lineNumber = index + 1;
		const decoded = decodeRecord(line);
		switch (decoded.kind) {
			case 'empty': {
				break;
			}

			case 'header': {
				if (header === undefined) {
					header = decoded.header;
					if (decoded.problem !== undefined) {
						problems.push({line: lineNumber, message: decoded.problem});
					}
				} else {
					problems.push({line: lineNumber, message: 'a second session header, skipped'});
				}

				break;
			}

			case 'event': {
				if (header === undefined && events.length === 0) {
					problems.push({line: lineNumber, message: 'records before any session header'});
				}

				events.push(decoded.event);
				break;
			}

			case 'problem': {
				const isLast = index === lines.length - 1;
				if (isLast && !isTerminated && !decoded.isJson) {
					isTruncated = true;
					problems.push({
						line: lineNumber,
						message: 'the file ends inside a record (truncated capture); the cut record is skipped',
					});
				} else {
					problems.push({line: lineNumber, message: decoded.message});
				}

				break;
			}
		}
	}

	if (header === undefined && events.length === 0 && lines.some((line) => line.trim() !== '')) {
		problems.push({line: 1, message: 'no session header'});
	}

	return {header, events, problems, isTruncated};
}

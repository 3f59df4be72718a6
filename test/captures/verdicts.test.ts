import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {
	encodeCaptureStart,
	encodeChunkRecord,
	encodeEndRecord,
	encodeJsonRecord,
	RECORD_TYPE,
} from '../../src/core/capture/binary-codec.js';
import {encodeEvent, encodeHeader} from '../../src/core/capture/record-codec.js';
import {listCaptures} from '../../src/captures/capture-store.js';
import {
	captureVerdicts,
	MAX_VERDICT_BYTES,
	readVerdictIndex,
	replayVerdict,
	VERDICT_INDEX,
	type CaptureVerdict,
} from '../../src/captures/verdicts.js';
import {verdictText} from '../../src/cli/commands/sessions.js';
import {makeMeta} from '../helpers/factories.js';

// `sessions` gives each capture the verdict of its replay, kept in an index (docs/cli.md#sessions); a
// capture cut short is `cut short`, never the verdict of the part it holds.
const META = makeMeta({mode: 'tap', startedAt: '2026-01-01T00:00:00.000Z'});
const INIT =
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n';
const RESULT =
	'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}\n';
const STRAY = 'server starting\n';
const exitRecord = encodeJsonRecord(
	RECORD_TYPE.exit,
	9,
	encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 9}}),
);
const closed = encodeJsonRecord(RECORD_TYPE.mark, 8, encodeEvent({type: 'mark', mark: {type: 'stdin-closed', tMs: 8}}));

/** A binary capture of an initialize exchange; `stray` puts a text line before the reply on stdout. */
function binary(options: {stray?: boolean; end?: boolean}): Buffer {
	const stdout = options.stray ? STRAY + RESULT : RESULT;
	const end = encodeEndRecord(
		{
			complete: true,
			recorded: {stdin: INIT.length, stdout: stdout.length, stderr: 0},
			missing: {stdin: 0, stdout: 0, stderr: 0},
			gaps: 0,
		},
		10,
	);
	return Buffer.concat([
		encodeCaptureStart(META),
		encodeChunkRecord('stdin', 1, 0, Buffer.from(INIT)),
		encodeChunkRecord('stdout', 5, 0, Buffer.from(stdout)),
		closed,
		exitRecord,
		...(options.end === false ? [] : [end]),
	]);
}

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(path.join(tmpdir(), 'mcp-wire-verdicts-'));
});
afterEach(() => {
	rmSync(dir, {recursive: true, force: true});
});

const write = (name: string, bytes: Buffer | string): string => {
	const file = path.join(dir, name);
	writeFileSync(file, bytes);
	return file;
};

describe('replayVerdict', () => {
	it('the summary verdict of a whole capture, of either format and name', async () => {
		expect(await replayVerdict(write('a.mcpcap', binary({})))).toBe('ok');
		expect(await replayVerdict(write('b.mcpcap', binary({stray: true})))).toBe('warn');
		expect(await replayVerdict(write('old.ndjson', binary({stray: true})))).toBe('warn');
		const records = [
			encodeHeader(META),
			encodeEvent({type: 'chunk', chunk: {seq: 0, stream: 'stdin', offset: 0, tMs: 1, bytes: Buffer.from(INIT)}}),
			encodeEvent({type: 'chunk', chunk: {seq: 1, stream: 'stdout', offset: 0, tMs: 5, bytes: Buffer.from(RESULT)}}),
			encodeEvent({type: 'mark', mark: {type: 'stdin-closed', tMs: 8}}),
			encodeEvent({type: 'exit', exit: {code: 0, signal: null, tMs: 9}}),
		];
		expect(await replayVerdict(write('doctor.ndjson', `${records.join('\n')}\n`))).toBe('ok');
		// Without the exit: the session ended before the server did.
		expect(await replayVerdict(write('cut.ndjson', `${records.slice(0, 3).join('\n')}\n`))).toBe('cut-short');
	});

	it('cut short, not the verdict of what it holds: a binary capture without its end record, one cut inside a record', async () => {
		expect(await replayVerdict(write('killed.mcpcap', binary({stray: true, end: false})))).toBe('cut-short');
		const whole = binary({});
		expect(await replayVerdict(write('cut.mcpcap', whole.subarray(0, whole.length - 20)))).toBe('cut-short');
	});

	it('none for a file that is not a capture or cannot be read', async () => {
		expect(await replayVerdict(write('notes.mcpcap', 'hello\n'))).toBeUndefined();
		expect(await replayVerdict(path.join(dir, 'absent.mcpcap'))).toBeUndefined();
	});
});

describe('captureVerdicts', () => {
	const name = (minute: number, pid: number): string => `2026-01-01T00-0${minute}-00.000Z-demo-${pid}.mcpcap`;

	it('replays each finished capture once and keeps its verdict in the index; a live one gets none', async () => {
		write(name(1, 11), binary({}));
		write(name(2, 12), binary({stray: true, end: false}));
		write(name(3, 13), binary({stray: true}));
		const entries = listCaptures(dir);
		const replayed: string[] = [];
		const replay = async (file: string): Promise<CaptureVerdict | undefined> => {
			replayed.push(path.basename(file));
			return replayVerdict(file);
		};
		const options = {version: '1.0.0', isLive: (entry: {pid: number}) => entry.pid === 13, replay};
		const first = await captureVerdicts(dir, entries, options);
		expect(entries.map((entry) => first.get(entry.path))).toEqual([undefined, 'cut-short', 'ok']);
		expect(replayed).toEqual([name(2, 12), name(1, 11)]);
		expect(JSON.parse(readFileSync(path.join(dir, VERDICT_INDEX), 'utf8'))).toEqual({
			[name(2, 12)]: {bytes: entries[1]!.bytes, mtimeMs: entries[1]!.mtimeMs, version: '1.0.0', verdict: 'cut-short'},
			[name(1, 11)]: {bytes: entries[2]!.bytes, mtimeMs: entries[2]!.mtimeMs, version: '1.0.0', verdict: 'ok'},
		});

		// Again: from the index, nothing replayed; the tap that ended is replayed now.
		replayed.length = 0;
		const second = await captureVerdicts(dir, entries, {...options, isLive: () => false});
		expect(entries.map((entry) => second.get(entry.path))).toEqual(['warn', 'cut-short', 'ok']);
		expect(replayed).toEqual([name(3, 13)]);

		// Another version, or a file that changed: replayed again.
		replayed.length = 0;
		await captureVerdicts(dir, entries.slice(2), {...options, version: '1.0.1'});
		expect(replayed).toEqual([name(1, 11)]);
		// The index keeps only captures of `all` (default: those asked about).
		expect([...readVerdictIndex(dir).keys()]).toEqual([name(1, 11)]);
	});

	it('no verdict and no replay for a capture over the size limit; a damaged index is rebuilt', async () => {
		write(VERDICT_INDEX, '{"x": 1, ');
		const file = write(name(1, 21), binary({}));
		const [entry] = listCaptures(dir);
		const replayed: string[] = [];
		const big = {...entry!, bytes: MAX_VERDICT_BYTES + 1};
		const verdicts = await captureVerdicts(dir, [big], {
			version: '1',
			isLive: () => false,
			replay: async (f) => {
				replayed.push(f);
				return 'ok';
			},
		});
		expect([verdicts.get(file), replayed]).toEqual([undefined, []]);
		expect(readVerdictIndex(dir).size).toBe(0);
	});
});

describe('verdictText', () => {
	it.each([
		['ok', 'ok'],
		['warn', 'warn'],
		['fail', 'fail'],
		['cut-short', 'cut short'],
		[undefined, '—'],
	] as const)('%s → %s', (verdict, text) => {
		expect(verdictText(verdict)).toBe(text);
	});
});

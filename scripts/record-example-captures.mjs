#!/usr/bin/env node
/**
 * Records a `--json` dump of a real probe of every example server (examples/servers/manifest.json) into
 * test/fixtures/captures/<name>.ndjson, for the report goldens (test/render/report/example-goldens.test.ts).
 *
 * Usage, from anywhere: `node scripts/record-example-captures.mjs [--no-build] [--jobs N] [NAME...]`
 * - builds first (`npm run build`) unless `--no-build`;
 * - runs `node bin/mcp-wire.js probe --json [--timeout <entry.timeoutMs>] [<entry.args>...] -- <entry.command>`
 *   from the repo root (`args`: the probe options an entry needs, e.g. `--call get_weather` to reach a handler) (without `timeoutMs`, the probe's defaults: 30 s for initialize, 10 s per request, an early
 *   stop when the server is seen blocked reading stdin), N probes at a time (default 4);
 * - NAME... limits it to those manifest entries.
 *
 * The dumps leave the machine (they are committed), so the script makes sure no absolute path of this
 * machine or user name is in them: the repo root becomes `<repo>` and the home directory `~`, in the
 * captured bytes and in every string of the other records alike. Rewriting captured bytes changes their
 * length, so chunk records get their `offset`, `length`, `base64` and `text` recomputed per stream, the
 * recorded `frame` and derived `finding` records of that stream (which replay re-derives anyway,
 * core/session/replay.ts) are dropped, and the summary's byte total is corrected. Anything still matching
 * the user name or a path afterwards is printed and makes the script exit 1.
 *
 * Exit code 0 when every entry was recorded and is clean, 1 otherwise. Writes only under
 * test/fixtures/captures/.
 */
import {spawn, spawnSync} from 'node:child_process';
import {mkdirSync, readFileSync, realpathSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const ROOT = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..'));
const OUT_DIR = join(ROOT, 'test', 'fixtures', 'captures');

const args = process.argv.slice(2);
const isBuild = !args.includes('--no-build');
const jobsAt = args.indexOf('--jobs');
const jobs = jobsAt === -1 ? 4 : Math.max(1, Number(args[jobsAt + 1]) || 1);
const names = args.filter((arg, index) => !arg.startsWith('--') && !(jobsAt !== -1 && index === jobsAt + 1));

const manifest = JSON.parse(readFileSync(join(ROOT, 'examples', 'servers', 'manifest.json'), 'utf8'));
const entries = names.length === 0 ? manifest : manifest.filter((entry) => names.includes(entry.name));
const unknown = names.filter((name) => !manifest.some((entry) => entry.name === name));
if (unknown.length > 0) {
	process.stderr.write(`record-example-captures: not in the manifest: ${unknown.join(', ')}\n`);
	process.exit(1);
}

if (isBuild) {
	const build = spawnSync('npm', ['run', 'build', '--silent'], {cwd: ROOT, stdio: 'inherit'});
	if (build.status !== 0) {
		process.stderr.write('record-example-captures: npm run build failed\n');
		process.exit(1);
	}
}

let user;
try {
	user = os.userInfo().username;
} catch {
	user = process.env.USER ?? process.env.USERNAME;
}

const home = os.homedir();
/** [from, to] string replacements, longest first (the repo root may sit inside the home directory). */
const replacements = [
	[ROOT, '<repo>'],
	...(ROOT === process.cwd() ? [] : [[process.cwd(), '<repo>']]),
	...(home.length > 1 ? [[home, '~']] : []),
].sort((a, b) => b[0].length - a[0].length);

function scrub(text) {
	let out = text;
	for (const [from, to] of replacements) {
		out = out.split(from).join(to);
	}

	return out;
}

function escapeRegExp(text) {
	return text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const userPattern =
	user === undefined ? undefined : new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(user)}(?![A-Za-z0-9_])`);

/** Replaces paths in every string inside a parsed record (header fields, finding details, the summary). */
function scrubDeep(value) {
	if (typeof value === 'string') return scrub(value);
	if (Array.isArray(value)) return value.map((item) => scrubDeep(item));
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubDeep(item)]));
	}

	return value;
}

/**
 * Parses the dump's lines and removes this machine's paths: from the captured bytes of chunk records
 * (recomputing `offset`, `length`, `base64` and `text` per stream) and from every string of the other
 * records. Frames and derived findings of a stream whose bytes changed hold stale offsets and are dropped
 * (replay re-derives them); probe-origin findings are kept; the summary's byte totals are corrected.
 * @returns the records to write and the streams whose bytes changed.
 */
function scrubRecords(lines) {
	const nextOffset = {stdin: 0, stdout: 0, stderr: 0};
	const rewritten = new Set();
	const records = lines.map((line) => JSON.parse(line));
	for (const [index, record] of records.entries()) {
		if (record.type !== 'chunk') {
			// The header names the capturing user (for `report`'s redaction): a committed dump names nobody.
			if (record.type === 'session') delete record.user;
			records[index] = scrubDeep(record);
			continue;
		}

		const bytes = Buffer.from(record.base64, 'base64');
		const text = bytes.toString('latin1');
		const clean = scrub(text);
		if (clean !== text) {
			const cleanBytes = Buffer.from(clean, 'latin1');
			record.base64 = cleanBytes.toString('base64');
			record.length = cleanBytes.byteLength;
			if (record.text !== undefined) record.text = cleanBytes.toString('utf8');
			rewritten.add(record.stream);
		}

		record.offset = nextOffset[record.stream];
		nextOffset[record.stream] += record.length;
	}

	if (rewritten.size === 0) return {records, rewritten};
	const kept = records.filter((record) => {
		if (record.type === 'frame') return !rewritten.has(record.stream);
		if (record.type === 'finding') return record.origin === 'probe' || !rewritten.has(record.stream);
		return true;
	});
	for (const record of kept) {
		if (record.type !== 'summary') continue;
		for (const stream of rewritten) {
			record.streams[stream].bytes = nextOffset[stream];
		}
	}

	return {records: kept, rewritten};
}

function encode(record) {
	return JSON.stringify(record).replaceAll(
		/[\u0085\u2028\u2029]/g,
		(char) => `\\u${char.codePointAt(0).toString(16).padStart(4, '0')}`,
	);
}

function probe(entry) {
	// Without `timeoutMs` the probe's own defaults apply (initialize 30 s, other requests 10 s; it stops
	// early when the server is seen blocked reading stdin): a recording shows what a user's probe shows.
	const timeout = entry.timeoutMs === undefined ? [] : ['--timeout', String(entry.timeoutMs)];
	const argv = [
		join(ROOT, 'bin', 'mcp-wire.js'),
		'probe',
		'--json',
		...timeout,
		...(entry.args ?? []),
		'--',
		...entry.command,
	];
	return new Promise((resolve) => {
		const child = spawn(process.execPath, argv, {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe']});
		const out = [];
		const err = [];
		child.stdout.on('data', (part) => out.push(part));
		child.stderr.on('data', (part) => err.push(part));
		child.on('close', (code) =>
			resolve({code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8')}),
		);
	});
}

async function record(entry) {
	const run = await probe(entry);
	if (run.code !== 0 && run.code !== 1) {
		return `${entry.name}: probe exited ${run.code}: ${run.stderr.trim()}`;
	}

	const lines = run.stdout.split('\n').filter((line) => line !== '');
	const {records, rewritten} = scrubRecords(lines);
	const text = `${records.map((item) => encode(item)).join('\n')}\n`;
	const leaks = [];
	for (const item of records) {
		const shown =
			JSON.stringify({...item, base64: undefined}) +
			(item.type === 'chunk' ? Buffer.from(item.base64, 'base64').toString('latin1') : '');
		const what =
			replacements.find(([from]) => shown.includes(from))?.[0] ??
			(userPattern?.test(shown) ? `the user name "${user}"` : undefined);
		if (what !== undefined) {
			leaks.push(`${what} in ${item.type}${item.type === 'chunk' ? ` ${item.stream}@${item.offset}` : ''}`);
		}
	}

	writeFileSync(join(OUT_DIR, `${entry.name}.ndjson`), text);
	const findings = records
		.filter((item) => item.type === 'finding')
		.map((item) => `${item.code}@${item.stream}:${item.offset}`);
	const note = rewritten.size > 0 ? ` (rewrote paths in ${[...rewritten].join(', ')})` : '';
	process.stderr.write(
		`${entry.name}: exit ${run.code}, ${records.length} records${note}; ${findings.join(', ') || 'no findings'}\n`,
	);
	return leaks.length > 0 ? `${entry.name}: still holds ${leaks.join(', ')}` : undefined;
}

mkdirSync(OUT_DIR, {recursive: true});
const failures = [];
const queue = [...entries];
await Promise.all(
	Array.from({length: Math.min(jobs, queue.length)}, async () => {
		for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
			const failure = await record(entry);
			if (failure !== undefined) failures.push(failure);
		}
	}),
);

for (const failure of failures) {
	process.stderr.write(`record-example-captures: ${failure}\n`);
}

process.stderr.write(
	`record-example-captures: ${entries.length - failures.length}/${entries.length} clean in ${OUT_DIR.slice(ROOT.length + 1)}\n`,
);
process.exit(failures.length === 0 ? 0 : 1);

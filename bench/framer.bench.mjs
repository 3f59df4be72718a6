// Framer throughput against a fair streaming NDJSON baseline, on the same bytes cut into the same chunks.
//
//   npm run build && node bench/framer.bench.mjs [--mb 100] [--chunk 65536] [--runs 7]
//
// The compared runs are interleaved on the same data (order rotated each repetition, so a machine that
// gets busier or quieter shifts both); printed are the medians of the per-repetition ratios (docs/performance.md#framer-and-session-throughput).
// The session runs as probe and view run it (`retain: true`, the default); so does its memory check.
//
// MCP_WIRE_DIST=/path/to/dist/ overrides where the built library is loaded from (default ../dist/).
// MCP_WIRE_BEFORE_DIST=/path/to/other/dist/ adds that build's framer and session to the same interleaved
// runs and prints this build's speed over it (a change against a build of main, docs/performance.md).
// The exported helpers (makeNdjsonStream, toChunks, measure, baselineThroughput, framerThroughput)
// let a later bench add the session and detectors to the same run with the same data.
import {Buffer} from 'node:buffer';
import {performance} from 'node:perf_hooks';
import process from 'node:process';
import {pathToFileURL} from 'node:url';

/** A dist directory as a URL that ends in `/`. */
const distUrl = (dir) => pathToFileURL(dir.endsWith('/') ? dir : `${dir}/`);
const distRoot = process.env.MCP_WIRE_DIST ? distUrl(process.env.MCP_WIRE_DIST) : new URL('../dist/', import.meta.url);
const beforeRoot = process.env.MCP_WIRE_BEFORE_DIST ? distUrl(process.env.MCP_WIRE_BEFORE_DIST) : undefined;

/** Loads the built framing module (dist/core/framing/index.js), of `root` (default: this build). */
export async function loadFraming(root = distRoot) {
	return import(new URL('core/framing/index.js', root).href);
}

/** Small deterministic PRNG (mulberry32). */
function prng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

const WORDS = [
	'the',
	'file',
	'server',
	'returned',
	'résumé',
	'naïve',
	'données',
	'über',
	'Straße',
	'数据',
	'文件',
	'検索',
	'😀',
	'λ',
	'path',
	'value',
	'tool',
	'result',
	'line',
	'error',
	'count',
	'quote"d',
	'tab\there',
	'C:\\dir',
];

function sentence(random, words) {
	const out = [];
	for (let i = 0; i < words; i++) {
		out.push(WORDS[Math.floor(random() * WORDS.length)]);
	}

	return out.join(' ');
}

/**
 * A realistic MCP stdout+stdin mix as NDJSON: ~50% small notifications (progress, log messages),
 * ~25% tools/call requests, ~25% responses carrying 1–6 KB of tool text with some non-ASCII.
 * @param {number} targetBytes approximate size in bytes
 * @returns {Buffer}
 */
export function makeNdjsonStream(targetBytes = 100 * 1024 * 1024, seed = 42) {
	const random = prng(seed);
	const pool = [];
	for (let i = 0; i < 3000; i++) {
		const pick = random();
		let message;
		if (pick < 0.35) {
			message = {
				jsonrpc: '2.0',
				method: 'notifications/progress',
				params: {progressToken: `tok-${i}`, progress: i % 100, total: 100},
			};
		} else if (pick < 0.5) {
			message = {
				jsonrpc: '2.0',
				method: 'notifications/message',
				params: {level: 'info', logger: 'fs', data: sentence(random, 12)},
			};
		} else if (pick < 0.75) {
			message = {
				jsonrpc: '2.0',
				id: i,
				method: 'tools/call',
				params: {name: 'search_files', arguments: {query: sentence(random, 4), limit: 20}},
			};
		} else {
			const text = sentence(random, 150 + Math.floor(random() * 800));
			message = {jsonrpc: '2.0', id: i, result: {content: [{type: 'text', text}], isError: false}};
		}

		pool.push(`${JSON.stringify(message)}\n`);
	}

	const lines = [];
	let size = 0;
	while (size < targetBytes) {
		const line = pool[Math.floor(random() * pool.length)];
		lines.push(line);
		size += Buffer.byteLength(line);
	}

	return Buffer.from(lines.join(''), 'utf8');
}

/** Cuts `data` into chunks of `chunkBytes` shaped like the core Chunk type. */
export function toChunks(data, chunkBytes = 65_536, stream = 'stdout') {
	const chunks = [];
	for (let offset = 0, seq = 0; offset < data.length; offset += chunkBytes, seq++) {
		chunks.push({
			seq,
			stream,
			tMs: seq * 0.01,
			offset,
			bytes: data.subarray(offset, Math.min(data.length, offset + chunkBytes)),
		});
	}

	return chunks;
}

/**
 * The fair streaming baseline: concatenate the partial tail with the new chunk, indexOf LF,
 * toString, JSON.parse per line (what the TS SDK ReadBuffer does, C1, minus zod).
 * @returns {{messages: number}}
 */
export function baselineThroughput(chunks) {
	let tail;
	let messages = 0;
	for (const chunk of chunks) {
		const buf = tail === undefined ? chunk.bytes : Buffer.concat([tail, chunk.bytes]);
		let pos = 0;
		let lf = buf.indexOf(10, pos);
		while (lf !== -1) {
			const message = JSON.parse(buf.toString('utf8', pos, lf));
			if (message !== undefined) {
				messages++;
			}

			pos = lf + 1;
			lf = buf.indexOf(10, pos);
		}

		tail = pos < buf.length ? buf.subarray(pos) : undefined;
	}

	return {messages};
}

/**
 * The framer over the same chunks, with an emit callback that only counts. The framer names no finding:
 * it reports facts, and a frame with a content fact is one that is not one clean JSON value on its line
 * (a stray line, a blank one, …); the rules decide what those are.
 * @param {{createFramer: Function}} framing the loaded framing module
 * @returns {{frames: number, unclean: number}}
 */
export function framerThroughput(framing, chunks) {
	const framer = framing.createFramer('stdout', {mode: 'protocol'});
	let frames = 0;
	let unclean = 0;
	const emit = (output) => {
		frames++;
		if (output.facts?.content !== undefined) unclean++;
	};

	for (const chunk of chunks) {
		framer.push(chunk, emit);
	}

	framer.end(0, emit);
	return {frames, unclean};
}

/**
 * A realistic two-way exchange for the whole session: client requests (tools/call with unique ids) on
 * stdin, and on stdout the server's progress/log notifications and a response to every request, carrying
 * 1–6 KB of tool text. Returns the two streams' chunks interleaved in arrival order.
 * @returns {{chunks: Array<object>, bytes: number}}
 */
export function makeExchangeChunks(targetBytes = 100 * 1024 * 1024, chunkBytes = 65_536, seed = 7) {
	const random = prng(seed);
	const texts = Array.from({length: 200}, () => sentence(random, 150 + Math.floor(random() * 800)));
	// The handshake first, as on every real session (without it every message is message-before-initialize).
	const stdin = [
		`${JSON.stringify({jsonrpc: '2.0', id: 0, method: 'initialize', params: {protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {name: 'bench', version: '0'}}})}\n`,
		`${JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'})}\n`,
	];
	const stdout = [
		`${JSON.stringify({jsonrpc: '2.0', id: 0, result: {protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 'bench', version: '0'}}})}\n`,
	];
	let size = 0;
	for (let id = 1; size < targetBytes; id++) {
		// The query is cut on code points (a UTF-16 cut can split a surrogate pair: non-portable-json), and
		// the request carries the token its progress notification names (else unknown-progress-token).
		const query = Array.from(texts[id % 200])
			.slice(0, 40)
			.join('');
		const request = `${JSON.stringify({jsonrpc: '2.0', id, method: 'tools/call', params: {name: 'search_files', arguments: {query, limit: 20}, _meta: {progressToken: id}}})}\n`;
		const note = `${JSON.stringify({jsonrpc: '2.0', method: 'notifications/progress', params: {progressToken: id, progress: 50, total: 100}})}\n`;
		const response = `${JSON.stringify({jsonrpc: '2.0', id, result: {content: [{type: 'text', text: texts[id % 200]}], isError: false}})}\n`;
		stdin.push(request);
		stdout.push(note, response);
		size += request.length + note.length + response.length;
	}

	const inChunks = toChunks(Buffer.from(stdin.join(''), 'utf8'), chunkBytes, 'stdin');
	const outChunks = toChunks(Buffer.from(stdout.join(''), 'utf8'), chunkBytes, 'stdout');
	// Interleave so that requests tend to arrive before their responses (stdin is ~1/10 of the bytes).
	const chunks = [];
	let i = 0;
	let o = 0;
	while (i < inChunks.length || o < outChunks.length) {
		if (i < inChunks.length && (o >= outChunks.length || i / inChunks.length < (o + 1) / outChunks.length))
			chunks.push(inChunks[i++]);
		else chunks.push(outChunks[o++]);
	}

	return {chunks, bytes: chunks.reduce((n, c) => n + c.bytes.length, 0)};
}

/** The baseline over two streams: one tail per stream. */
export function baselineTwoStreams(chunks) {
	const tails = {stdin: undefined, stdout: undefined};
	let messages = 0;
	for (const chunk of chunks) {
		const tail = tails[chunk.stream];
		const buf = tail === undefined ? chunk.bytes : Buffer.concat([tail, chunk.bytes]);
		let pos = 0;
		let lf = buf.indexOf(10, pos);
		while (lf !== -1) {
			if (JSON.parse(buf.toString('utf8', pos, lf)) !== undefined) messages++;
			pos = lf + 1;
			lf = buf.indexOf(10, pos);
		}

		tails[chunk.stream] = pos < buf.length ? buf.subarray(pos) : undefined;
	}

	return {messages};
}

/**
 * The whole pure pipeline, as a probe or a replay runs it: Session (framer + JSON-RPC classification +
 * request/response correlation + every detector + catalog), keeping chunks and frames (`retain: true`,
 * the default, as `probe` and `view` use it; pass `{retain: false}` for the tap's mode).
 */
export function sessionThroughput(core, chunks, options = {}) {
	const session = new core.Session(
		{
			tool: {name: 'mcp-wire', version: 'bench'},
			node: process.version,
			platform: process.platform,
			command: ['bench'],
			envMode: 'sdk-default',
			startedAt: new Date(0).toISOString(),
			mode: 'replay',
		},
		options,
	);
	let frames = 0;
	let findings = 0;
	const codes = new Set();
	session.on((event) => {
		if (event.type === 'frame') frames++;
		else if (event.type === 'finding') {
			findings++;
			codes.add(event.finding.code);
		}
	});
	for (const chunk of chunks) session.pushChunk(chunk.stream, chunk.tMs, chunk.bytes);
	session.finish(0);
	return {frames, findings, codes};
}

/**
 * Runs each of `fns` `runs` times, interleaved: in repetition r the order is rotated by r. Returns per
 * function the times (ms, in repetition order) and the last result.
 */
export function interleave(fns, runs) {
	const out = fns.map(() => ({times: [], result: undefined}));
	for (let r = 0; r < runs; r++) {
		for (let k = 0; k < fns.length; k++) {
			const i = (k + r) % fns.length;
			const start = performance.now();
			out[i].result = fns[i]();
			out[i].times.push(performance.now() - start);
		}
	}
	return out;
}

/** Median of numbers. */
export function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs `fn` `runs` times; returns the fastest time in ms and the last result. */
export function measure(fn, runs) {
	let best = Number.POSITIVE_INFINITY;
	let result;
	for (let i = 0; i < runs; i++) {
		const start = performance.now();
		result = fn();
		best = Math.min(best, performance.now() - start);
	}

	return {ms: best, result};
}

function argument(name, fallback) {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}

async function main() {
	const megabytes = argument('mb', 100);
	const chunkBytes = argument('chunk', 65_536);
	const runs = argument('runs', 7);
	const framing = await loadFraming();
	const data = makeNdjsonStream(megabytes * 1024 * 1024);
	const chunks = toChunks(data, chunkBytes);
	const mb = data.length / 1e6;
	process.stdout.write(
		`stream: ${mb.toFixed(1)} MB NDJSON, ${chunks.length} chunks of ${chunkBytes} bytes, ${runs} interleaved repetitions (medians)\n`,
	);

	const framingBefore = beforeRoot === undefined ? undefined : await loadFraming(beforeRoot);
	// Warm up all on a slice so that none pays the JIT in the timed runs.
	const warm = chunks.slice(0, 64);
	baselineThroughput(warm);
	framerThroughput(framing, warm);
	if (framingBefore) framerThroughput(framingBefore, warm);

	const [baseline, framer, framerBefore] = interleave(
		[
			() => baselineThroughput(chunks),
			() => framerThroughput(framing, chunks),
			...(framingBefore ? [() => framerThroughput(framingBefore, chunks)] : []),
		],
		runs,
	);
	if (baseline.result.messages !== framer.result.frames) {
		throw new Error(`frame count mismatch: baseline ${baseline.result.messages}, framer ${framer.result.frames}`);
	}
	// Speed ratio per repetition: baseline time / framer time (> 1: the framer is faster).
	const framerRatio = median(baseline.times.map((ms, i) => ms / framer.times[i]));

	// The whole session (framer + detectors, retain: true as probe and view run it) on a two-way exchange.
	const core = await import(new URL('core/index.js', distRoot).href);
	const coreBefore = beforeRoot === undefined ? undefined : await import(new URL('core/index.js', beforeRoot).href);
	const exchange = makeExchangeChunks(megabytes * 1024 * 1024, chunkBytes);
	const exchangeMb = exchange.bytes / 1e6;
	sessionThroughput(core, exchange.chunks.slice(0, 64));
	if (coreBefore) sessionThroughput(coreBefore, exchange.chunks.slice(0, 64));
	baselineTwoStreams(exchange.chunks.slice(0, 64));
	const [baseline2, whole, wholeBefore] = interleave(
		[
			() => baselineTwoStreams(exchange.chunks),
			() => sessionThroughput(core, exchange.chunks),
			...(coreBefore ? [() => sessionThroughput(coreBefore, exchange.chunks)] : []),
		],
		runs,
	);
	for (const run of [whole, wholeBefore]) {
		if (run === undefined) continue;
		if (baseline2.result.messages !== run.result.frames) {
			throw new Error(`frame count mismatch: baseline ${baseline2.result.messages}, session ${run.result.frames}`);
		}
		if (run.result.findings !== 0) {
			throw new Error(
				`a healthy exchange produced ${run.result.findings} findings (${[...run.result.codes].join(', ')})`,
			);
		}
	}
	const sessionRatio = median(baseline2.times.map((ms, i) => ms / whole.times[i]));
	// This build over the other one (> 1: this one is faster), per repetition, interleaved in the same runs.
	const versus = (before, after) =>
		before === undefined ? undefined : median(before.times.map((ms, i) => ms / after.times[i]));
	const framerVsBefore = versus(framerBefore, framer);
	const sessionVsBefore = versus(wholeBefore, whole);

	// Memory, in the mode probe and view use (retain: true): retained heap per MB of stream after 10 MB
	// and after the whole run. It grows with the stream (the session keeps every chunk and frame); the
	// figure that matters is how many bytes of heap each byte of stream costs.
	let heapNote = 'run with --expose-gc (npm run bench does) for the retained-heap check';
	if (typeof globalThis.gc === 'function') {
		const retained = (mbLimit, options) => {
			const part = exchange.chunks.slice(0, Math.ceil((mbLimit * 1e6) / chunkBytes));
			const partMb = part.reduce((n, c) => n + c.bytes.length, 0) / 1e6;
			globalThis.gc();
			const before = process.memoryUsage();
			const session = new core.Session(
				{
					tool: {name: 'mcp-wire', version: 'bench'},
					node: '',
					platform: '',
					command: [],
					envMode: 'sdk-default',
					startedAt: '',
					mode: 'replay',
				},
				options,
			);
			for (const chunk of part) session.pushChunk(chunk.stream, chunk.tMs, chunk.bytes);
			globalThis.gc();
			const after = process.memoryUsage();
			session.finish(0);
			// Chunk bytes are views of one big Buffer (external memory, not counted): heap = frames, objects.
			return {mb: (after.heapUsed - before.heapUsed) / 1e6, perMb: (after.heapUsed - before.heapUsed) / 1e6 / partMb};
		};
		const small = retained(10, {});
		const all = retained(exchangeMb, {});
		const flat = retained(exchangeMb, {retain: false});
		heapNote = [
			`session retained heap (retain: true, as probe/view): ${small.mb.toFixed(1)} MB after 10 MB (${small.perMb.toFixed(2)} MB/MB), ${all.mb.toFixed(1)} MB after ${exchangeMb.toFixed(0)} MB (${all.perMb.toFixed(2)} MB/MB)`,
			`session retained heap (retain: false, the tap's mode): ${flat.mb.toFixed(1)} MB after ${exchangeMb.toFixed(0)} MB`,
		].join('\n');
	}

	const memory = process.memoryUsage();
	const rate = (ms, megabytes) => (megabytes / (median(ms) / 1000)).toFixed(1);
	process.stdout.write(
		[
			`baseline (concat tail + indexOf + toString + JSON.parse): ${rate(baseline.times, mb)} MB/s (median ${median(baseline.times).toFixed(0)} ms, ${baseline.result.messages} messages)`,
			`framer   (createFramer protocol, counting emit):         ${rate(framer.times, mb)} MB/s (median ${median(framer.times).toFixed(0)} ms, ${framer.result.frames} frames, ${framer.result.unclean} with a content fact)`,
			`ratio framer/baseline speed (median of per-repetition ratios): ${framerRatio.toFixed(2)} (target >= 0.5) ${framerRatio >= 0.5 ? 'PASS' : 'FAIL'}`,
			`two-way exchange: ${exchangeMb.toFixed(1)} MB on stdin+stdout`,
			`baseline (same, one tail per stream):                     ${rate(baseline2.times, exchangeMb)} MB/s (median ${median(baseline2.times).toFixed(0)} ms, ${baseline2.result.messages} messages)`,
			`session  (framer + classify + correlate + detectors):     ${rate(whole.times, exchangeMb)} MB/s (median ${median(whole.times).toFixed(0)} ms, ${whole.result.frames} frames, ${whole.result.findings} findings)`,
			`ratio session/baseline speed (median of per-repetition ratios): ${sessionRatio.toFixed(2)} (target >= 0.5) ${sessionRatio >= 0.5 ? 'PASS' : 'FAIL'}`,
			...(framerVsBefore === undefined
				? []
				: [
						`before (${process.env.MCP_WIRE_BEFORE_DIST}): framer ${rate(framerBefore.times, mb)} MB/s, session ${rate(wholeBefore.times, exchangeMb)} MB/s`,
						`ratio this build/before speed (median of per-repetition ratios): framer ${framerVsBefore.toFixed(3)}, session ${sessionVsBefore.toFixed(3)} (target >= 0.95)`,
					]),
			heapNote,
			`heapUsed ${(memory.heapUsed / 1e6).toFixed(0)} MB, rss ${(memory.rss / 1e6).toFixed(0)} MB (the stream itself is ${mb.toFixed(0)} MB of external memory)`,
			'',
		].join('\n'),
	);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
	await main();
}

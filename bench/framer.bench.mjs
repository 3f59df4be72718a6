// Framer throughput against a fair streaming NDJSON baseline, on the same bytes cut into the same chunks.
//
//   npm run build && node bench/framer.bench.mjs [--mb 100] [--chunk 65536] [--runs 3]
//
// MCP_WIRE_DIST=/path/to/dist/ overrides where the built library is loaded from (default ../dist/).
// The exported helpers (makeNdjsonStream, toChunks, measure, baselineThroughput, framerThroughput)
// let a later bench add the session and detectors to the same run with the same data.
import {Buffer} from 'node:buffer';
import {performance} from 'node:perf_hooks';
import process from 'node:process';
import {pathToFileURL} from 'node:url';

const distRoot = process.env.MCP_WIRE_DIST
	? pathToFileURL(process.env.MCP_WIRE_DIST.endsWith('/') ? process.env.MCP_WIRE_DIST : `${process.env.MCP_WIRE_DIST}/`)
	: new URL('../dist/', import.meta.url);

/** Loads the built framing module (dist/core/framing/index.js). */
export async function loadFraming() {
	return import(new URL('core/framing/index.js', distRoot).href);
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

const WORDS = ['the', 'file', 'server', 'returned', 'résumé', 'naïve', 'données', 'über', 'Straße', '数据', '文件', '検索', '😀', 'λ', 'path', 'value', 'tool', 'result', 'line', 'error', 'count', 'quote"d', 'tab\there', 'C:\\dir'];

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
			message = {jsonrpc: '2.0', method: 'notifications/progress', params: {progressToken: `tok-${i}`, progress: i % 100, total: 100}};
		} else if (pick < 0.5) {
			message = {jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', logger: 'fs', data: sentence(random, 12)}};
		} else if (pick < 0.75) {
			message = {jsonrpc: '2.0', id: i, method: 'tools/call', params: {name: 'search_files', arguments: {query: sentence(random, 4), limit: 20}}};
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
		chunks.push({seq, stream, tMs: seq * 0.01, offset, bytes: data.subarray(offset, Math.min(data.length, offset + chunkBytes))});
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
 * The framer over the same chunks, with an emit callback that only counts.
 * @param {{createFramer: Function}} framing the loaded framing module
 * @returns {{frames: number, findings: number}}
 */
export function framerThroughput(framing, chunks) {
	const framer = framing.createFramer('stdout', {mode: 'protocol'});
	let frames = 0;
	let findings = 0;
	const emit = (output) => {
		frames++;
		findings += output.findings.length;
	};

	for (const chunk of chunks) {
		framer.push(chunk, emit);
	}

	framer.end(0, emit);
	return {frames, findings};
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
	const stdin = [];
	const stdout = [];
	let size = 0;
	for (let id = 1; size < targetBytes; id++) {
		const request = `${JSON.stringify({jsonrpc: '2.0', id, method: 'tools/call', params: {name: 'search_files', arguments: {query: texts[id % 200].slice(0, 40), limit: 20}}})}\n`;
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
		if (i < inChunks.length && (o >= outChunks.length || i / inChunks.length < (o + 1) / outChunks.length)) chunks.push(inChunks[i++]);
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
 * request/response correlation + every detector + catalog), with `retain: false` so memory stays flat.
 */
export function sessionThroughput(core, chunks) {
	const session = new core.Session(
		{tool: {name: 'mcp-wire', version: 'bench'}, node: process.version, platform: process.platform, command: ['bench'], envMode: 'sdk-default', startedAt: new Date(0).toISOString(), mode: 'replay'},
		{retain: false},
	);
	let frames = 0;
	let findings = 0;
	session.on((event) => {
		if (event.type === 'frame') frames++;
		else if (event.type === 'finding') findings++;
	});
	for (const chunk of chunks) session.pushChunk(chunk.stream, chunk.tMs, chunk.bytes);
	session.finish(0);
	return {frames, findings};
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
	const runs = argument('runs', 3);
	const framing = await loadFraming();
	const data = makeNdjsonStream(megabytes * 1024 * 1024);
	const chunks = toChunks(data, chunkBytes);
	const mb = data.length / 1e6;
	process.stdout.write(`stream: ${mb.toFixed(1)} MB NDJSON, ${chunks.length} chunks of ${chunkBytes} bytes, best of ${runs}\n`);

	// Warm up both on a slice so that neither pays the JIT in the timed runs.
	const warm = chunks.slice(0, 64);
	baselineThroughput(warm);
	framerThroughput(framing, warm);

	const baseline = measure(() => baselineThroughput(chunks), runs);
	const framer = measure(() => framerThroughput(framing, chunks), runs);
	const baselineRate = mb / (baseline.ms / 1000);
	const framerRate = mb / (framer.ms / 1000);
	if (baseline.result.messages !== framer.result.frames) {
		throw new Error(`frame count mismatch: baseline ${baseline.result.messages}, framer ${framer.result.frames}`);
	}

	// The whole session (framer + detectors) on a two-way exchange, against the same baseline.
	const core = await import(new URL('core/index.js', distRoot).href);
	const exchange = makeExchangeChunks(megabytes * 1024 * 1024, chunkBytes);
	const exchangeMb = exchange.bytes / 1e6;
	sessionThroughput(core, exchange.chunks.slice(0, 64));
	baselineTwoStreams(exchange.chunks.slice(0, 64));
	const baseline2 = measure(() => baselineTwoStreams(exchange.chunks), runs);
	const whole = measure(() => sessionThroughput(core, exchange.chunks), runs);
	if (baseline2.result.messages !== whole.result.frames) {
		throw new Error(`frame count mismatch: baseline ${baseline2.result.messages}, session ${whole.result.frames}`);
	}

	if (whole.result.findings !== 0) throw new Error(`a healthy exchange produced ${whole.result.findings} findings`);
	// Memory: the session's retained heap after a 10 MB and after the whole run must be about the same.
	let heapNote = 'run with --expose-gc (npm run bench does) for the retained-heap check';
	if (typeof globalThis.gc === 'function') {
		const retained = (mbLimit) => {
			const part = exchange.chunks.slice(0, Math.ceil((mbLimit * 1e6) / chunkBytes));
			const core2 = core;
			globalThis.gc();
			const before = process.memoryUsage().heapUsed;
			const session = new core2.Session({tool: {name: 'mcp-wire', version: 'bench'}, node: '', platform: '', command: [], envMode: 'sdk-default', startedAt: '', mode: 'replay'}, {retain: false});
			for (const chunk of part) session.pushChunk(chunk.stream, chunk.tMs, chunk.bytes);
			globalThis.gc();
			const after = process.memoryUsage().heapUsed;
			session.finish(0);
			return (after - before) / 1e6;
		};
		heapNote = `session retained heap (retain: false): ${retained(10).toFixed(1)} MB after 10 MB, ${retained(exchangeMb).toFixed(1)} MB after ${exchangeMb.toFixed(0)} MB (flat = no per-byte objects)`;
	}

	const baseline2Rate = exchangeMb / (baseline2.ms / 1000);
	const wholeRate = exchangeMb / (whole.ms / 1000);
	const memory = process.memoryUsage();
	process.stdout.write(
		[
			`baseline (concat tail + indexOf + toString + JSON.parse): ${baselineRate.toFixed(1)} MB/s (${baseline.ms.toFixed(0)} ms, ${baseline.result.messages} messages)`,
			`framer   (createFramer protocol, counting emit):         ${framerRate.toFixed(1)} MB/s (${framer.ms.toFixed(0)} ms, ${framer.result.frames} frames, ${framer.result.findings} findings)`,
			`ratio framer/baseline: ${(framerRate / baselineRate).toFixed(2)} (target >= 0.5)`,
			`two-way exchange: ${exchangeMb.toFixed(1)} MB on stdin+stdout`,
			`baseline (same, one tail per stream):                     ${baseline2Rate.toFixed(1)} MB/s (${baseline2.ms.toFixed(0)} ms, ${baseline2.result.messages} messages)`,
			`session  (framer + classify + correlate + detectors):     ${wholeRate.toFixed(1)} MB/s (${whole.ms.toFixed(0)} ms, ${whole.result.frames} frames, ${whole.result.findings} findings)`,
			`ratio session/baseline: ${(wholeRate / baseline2Rate).toFixed(2)} (target >= 0.5)`,
			heapNote,
			`heapUsed ${(memory.heapUsed / 1e6).toFixed(0)} MB, rss ${(memory.rss / 1e6).toFixed(0)} MB (the stream itself is ${mb.toFixed(0)} MB of external memory)`,
			'',
		].join('\n'),
	);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
	await main();
}

// TUI key-press latency at 100 frames and at 1,000,000 frames, in the same run (issue 4: the ratio stays
// at or below 2 because rendering is proportional to the visible rows only; issue 12 goal 3), the time
// to open the big capture and the RSS after opening it.
//
//   npm run build && node bench/tui.bench.mjs [--frames 1000000] [--presses 200] [--columns 120] [--rows 40]
//
// Both sessions come from real capture files (made by bench/gen-captures.mjs, not committed) opened the
// way `view` opens them: the file read as a stream of records, each fed to a replay with the SDK schemas.
// React runs in production mode, as the CLI runs it (NODE_ENV=production unless set otherwise).
//
// Both TUIs run at once through the production entry (startTui: ink with injected streams, default
// maxFps 30, no debug mode) on fake 120×40 terminals. A measurement writes one key (j or k) to a fake
// stdin and waits for the next write to that fake stdout: that write is the next rendered frame. Presses
// alternate between the two TUIs, so load elsewhere on the machine hits both alike, and are spaced by
// 40 ms so ink's 30 fps throttle never delays a frame (its leading edge renders at once).
// MCP_WIRE_DIST=/path/to/dist/ overrides where the built library is loaded from (default ../dist/).
import {Buffer} from 'node:buffer';
import {spawnSync} from 'node:child_process';
import {EventEmitter} from 'node:events';
import os from 'node:os';
import path from 'node:path';
import {performance} from 'node:perf_hooks';
import process from 'node:process';
import {setTimeout as sleep} from 'node:timers/promises';
import {fileURLToPath, pathToFileURL} from 'node:url';

// The CLI runs the TUI with React in production mode (cli/main.ts); so does this bench.
process.env.NODE_ENV ??= 'production';

const distRoot = process.env.MCP_WIRE_DIST
	? pathToFileURL(process.env.MCP_WIRE_DIST.endsWith('/') ? process.env.MCP_WIRE_DIST : `${process.env.MCP_WIRE_DIST}/`)
	: new URL('../dist/', import.meta.url);

function option(name, fallback) {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const FRAMES = option('frames', 1_000_000);
const CAPTURE_DIR = path.join(os.tmpdir(), 'mcp-wire-captures');
const PRESSES = option('presses', 200);
const COLUMNS = option('columns', 120);
const ROWS = option('rows', 40);

const META = {
	tool: {name: 'mcp-wire', version: 'bench'},
	node: process.version,
	platform: process.platform,
	command: ['bench'],
	envMode: 'sdk-default',
	startedAt: '2026-01-01T00:00:00.000Z',
	mode: 'replay',
};

/**
 * A session of `frameCount` frames: an initialize handshake, then tools/call requests and their results
 * (two frames per call), stdout delivered in reads of up to 64 KiB as a pipe would, and one stderr line
 * per 1,000 calls.
 */
export function buildSession(Session, frameCount) {
	const session = new Session(META);
	const encode = (text) => Buffer.from(text, 'utf8');
	let t = 0;
	session.pushChunk('stdin', (t += 1), encode('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n'));
	session.pushChunk('stdout', (t += 2), encode('{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1"}}}\n'));
	let frames = 2;
	let id = 1;
	let stdin = [];
	let stdout = [];
	let stdoutBytes = 0;
	const flush = () => {
		if (stdin.length > 0) session.pushChunk('stdin', t, encode(stdin.join('')));
		if (stdout.length > 0) session.pushChunk('stdout', (t += 0.5), encode(stdout.join('')));
		stdin = [];
		stdout = [];
		stdoutBytes = 0;
	};

	while (frames < frameCount) {
		t += 0.25;
		stdin.push(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/srv/data/file-${id}.txt"}}}\n`);
		frames++;
		if (frames < frameCount) {
			const line = `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"contents of file ${id}: the quick brown fox jumps over the lazy dog"}]}}\n`;
			stdout.push(line);
			stdoutBytes += line.length;
			frames++;
		}

		if (id % 1000 === 0 && frames < frameCount) {
			flush();
			session.pushChunk('stderr', t, encode(`[info] ${id} calls served\n`));
			frames++;
		}

		if (stdoutBytes > 60_000) flush();
		id++;
	}

	flush();
	session.finish(t + 1);
	return session;
}

class FakeStdout extends EventEmitter {
	isTTY = true;
	columns = COLUMNS;
	rows = ROWS;
	writes = 0;
	#waiters = [];
	write(chunk, encodingOrCallback, callback) {
		this.writes++;
		const waiters = this.#waiters;
		this.#waiters = [];
		for (const resolve of waiters) resolve(performance.now());
		const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
		if (typeof done === 'function') done();
		return true;
	}

	nextWrite() {
		return new Promise((resolve) => this.#waiters.push(resolve));
	}

	getColorDepth() {
		return 8;
	}
}

class FakeStdin extends EventEmitter {
	isTTY = true;
	#queue = [];
	write(data) {
		this.#queue.push(data);
		this.emit('readable');
	}

	read() {
		return this.#queue.shift() ?? null;
	}

	setEncoding() {}
	setRawMode() {}
	resume() {}
	pause() {}
	ref() {}
	unref() {}
}

function percentile(sorted, p) {
	return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

function summarise(samples) {
	const sorted = [...samples].sort((a, b) => a - b);
	return {median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length};
}

/** Opens the TUI on a session (fake 120×40 terminal) and returns a handle to press keys and quit. */
export async function openTui(startTui, session) {
	const stdout = new FakeStdout();
	const stdin = new FakeStdin();
	const done = startTui({store: session, stdin, stdout, color: true});
	await sleep(200);
	// Go to the top so j/k move the selection (and re-render) every time.
	stdin.write('g');
	await sleep(60);
	return {
		/** Presses a key and resolves with the ms until the next frame is written. */
		async press(key) {
			const next = stdout.nextWrite();
			const start = performance.now();
			stdin.write(key);
			return (await next) - start;
		},
		async quit() {
			stdin.write('q');
			await done;
		},
	};
}

/**
 * Measures key press → next rendered frame on several open TUIs, alternating between them press by
 * press, so background load on the machine hits every TUI alike.
 * @returns per TUI, {median, p95, mean} in ms.
 */
export async function measureKeyLatency(tuis, presses) {
	const samples = tuis.map(() => []);
	for (let i = 0; i < presses; i++) {
		const key = i % 20 < 10 ? 'j' : 'k';
		for (const [t, tui] of tuis.entries()) {
			samples[t].push(await tui.press(key));
			await sleep(40);
		}
	}

	return samples.map(summarise);
}

/** Open a capture file as `view` does: records streamed from the file into a replay (SDK schemas in). */
export async function openCapture(file) {
	const {readRecordFile} = await import(new URL('tap/attach.js', distRoot).href);
	const {createReplay} = await import(new URL('core/session/replay.js', distRoot).href);
	const {SDK_SCHEMAS} = await import(new URL('core/jsonrpc/sdk-schemas.js', distRoot).href);
	let replay;
	await readRecordFile(file, {
		onHeader: (header) => {
			replay = createReplay(header, {schemas: SDK_SCHEMAS});
		},
		onEvent: (event) => replay.feed(event),
	});
	return replay.finish();
}

async function main() {
	const {startTui} = await import(new URL('render/tui/start-tui.js', distRoot).href);
	const fmt = (value) => value.toFixed(3).padStart(8);
	const gen = spawnSync(process.execPath, [fileURLToPath(new URL('gen-captures.mjs', import.meta.url)), '--dir', CAPTURE_DIR, '--frames', `100,${FRAMES}`, '--no-huge'], {stdio: 'inherit'});
	if (gen.status !== 0) throw new Error('bench/gen-captures.mjs failed');

	const smallSession = await openCapture(path.join(CAPTURE_DIR, 'frames-100.ndjson'));
	const smallCount = smallSession.getSnapshot().frames.length;
	const small = await openTui(startTui, smallSession);
	// Warm up (JIT, module init) before anything is measured.
	await measureKeyLatency([small], 40);

	const buildStart = performance.now();
	const largeSession = await openCapture(path.join(CAPTURE_DIR, `frames-${FRAMES}.ndjson`));
	const buildMs = performance.now() - buildStart;
	const frameCount = largeSession.getSnapshot().frames.length;
	const large = await openTui(startTui, largeSession);
	const rssMiB = process.memoryUsage().rss / 1024 ** 2;

	const [smallStats, largeStats] = await measureKeyLatency([small, large], PRESSES);
	await small.quit();
	await large.quit();

	const ratio = largeStats.median / smallStats.median;
	process.stdout.write(
		[
			`tui key press → next frame (${COLUMNS}×${ROWS}, ${PRESSES} presses each, alternating, NODE_ENV=${process.env.NODE_ENV ?? '(unset)'}; ms)`,
			`  frames        median       p95      mean`,
			`  ${String(smallCount).padStart(7)}  ${fmt(smallStats.median)}  ${fmt(smallStats.p95)}  ${fmt(smallStats.mean)}`,
			`  ${String(frameCount).padStart(7)}  ${fmt(largeStats.median)}  ${fmt(largeStats.p95)}  ${fmt(largeStats.mean)}`,
			`  ratio (median ${frameCount} / median ${smallCount}): ${ratio.toFixed(2)}  (target <= 2) ${ratio <= 2 ? 'OK' : 'OVER'}`,
			`  opening the ${frameCount}-frame capture (stream + replay): ${buildMs.toFixed(0)} ms`,
			`  RSS after opening it: ${rssMiB.toFixed(1)} MiB  (target < 200) ${rssMiB < 200 ? 'OK' : 'OVER'}`,
			'',
		].join('\n'),
	);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	await main();
}

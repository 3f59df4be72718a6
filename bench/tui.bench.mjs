// The TUI on big captures (docs/performance.md#tui-on-big-captures), measured in the configuration users run:
//
//   npm run build && node bench/tui.bench.mjs [--frames 1000000] [--reps 5] [--presses 40]
//        [--screen-reps 3] [--before DIR] [--rss-frames 100000,1000000] [--columns 120] [--rows 40] [--dir DIR]
//        [--skip-screen] [--skip-keys] [--skip-rss] [--rss-faults 60000] [--rss-reps 1]
//
// 1. First screen on the 280 MB capture (huge-5mb.ndjson: 40 frames of 5 MB): the real CLI
//    (`node bin/mcp-wire.js view FILE`, React in production mode as the CLI sets it) runs in a pseudo
//    terminal of 120×40 (util-linux `script`). Measured from the spawn: the first screen (the frame
//    list's header line is on it: the plain first screen painted while ink loads, or the TUI), the TUI
//    drawn (its status bar counts frames: `C→S 2 fr`), a key pressed 200 ms after that until the next
//    output (keys while loading), the whole capture shown (`■ ended` in the status bar), and the
//    process's peak RSS
//    (VmHWM) once it is all shown. `mcp-wire --version` is timed alongside, as the floor of starting
//    Node on this machine. With `--before DIR` (a build of an older mcp-wire: DIR/bin/mcp-wire.js) the
//    old and new CLI run interleaved, their order rotated each repetition, and the per-repetition ratio
//    new/old is reported as a median.
// 2. Key → redraw latency at 100 frames and at `--frames` frames: both captures are opened through the
//    CLI's own `view` command (dist/cli/commands/view.js, with the TUI hook started on fake 120×40
//    terminals instead of the process's), fully loaded, then keys (j/k) are pressed on both TUIs,
//    interleaved press by press, the order of the two rotated each repetition. A measurement writes
//    one key and waits for the next write to that fake stdout (the next rendered frame); presses are
//    spaced by 40 ms so ink's 30 fps throttle never delays one. The V8 settings of the CLI's TUI process
//    (cli/tui-heap.ts) are set in this process first. Reported: the median over repetitions
//    of the per-repetition ratio of medians (large/small), and this process's RSS and peak RSS with
//    both captures open.
// 3. Peak RSS of the real CLI's `view` (as in 1) once the whole capture is shown, for the captures of
//    `--rss-frames` frames (one run each: memory, not time), and for `--rss-faults` captures of that many
//    frames where every frame carries a finding (faults-N.ndjson: the findings pane's memory), `--rss-reps`
//    runs each; with `--before DIR` the older build runs too, interleaved (order rotated each repetition),
//    and the median of the per-repetition ratios new/before is reported. The load average is printed beside.
//
// Captures come from bench/gen-captures.mjs (made on demand, not committed; default dir
// $TMPDIR/mcp-wire-captures). MCP_WIRE_DIST=/path/to/dist/ overrides where the built library is
// loaded from for part 2 (default ../dist/). Pass/fail lines compare with the targets in docs/performance.md#tui-on-big-captures.
import {spawn, spawnSync} from 'node:child_process';
import {EventEmitter} from 'node:events';
import {readFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {performance} from 'node:perf_hooks';
import process from 'node:process';
import {setTimeout as sleep} from 'node:timers/promises';
import {fileURLToPath, pathToFileURL} from 'node:url';

// The CLI runs the TUI with React in production mode (cli/main.ts); so does this bench in part 2.
process.env.NODE_ENV ??= 'production';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const distRoot = process.env.MCP_WIRE_DIST
	? pathToFileURL(process.env.MCP_WIRE_DIST.endsWith('/') ? process.env.MCP_WIRE_DIST : `${process.env.MCP_WIRE_DIST}/`)
	: new URL('../dist/', import.meta.url);

function option(name, fallback) {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : process.argv[index + 1];
}

const FRAMES = Number(option('frames', 1_000_000));
const REPS = Number(option('reps', 5));
const PRESSES = Number(option('presses', 40));
const SCREEN_REPS = Number(option('screen-reps', 3));
const COLUMNS = Number(option('columns', 120));
const ROWS = Number(option('rows', 40));
const CAPTURE_DIR = option('dir', path.join(os.tmpdir(), 'mcp-wire-captures'));
const BEFORE = option('before', undefined);
const RSS_FRAMES = option('rss-frames', '100000,1000000').split(',').filter(Boolean).map(Number);
const RSS_FAULTS = option('rss-faults', '').split(',').filter(Boolean).map(Number);
const RSS_REPS = Number(option('rss-reps', 1));
const HUGE = path.join(CAPTURE_DIR, 'huge-5mb.ndjson');

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const mib = (bytes) => bytes / 1024 ** 2;

// ---------------------------------------------------------------------------------------------------
// Part 1: the real CLI in a pseudo terminal.

// Escape sequences (CSI, OSC, single-character) out of the terminal output, to look for text.

const ANSI = /\u001B(?:\[[0-9;?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)|[@-Z\\-_])/g;

/** Peak RSS (VmHWM) of a process in bytes, or undefined when /proc cannot tell. */
function peakRss(pid) {
	try {
		const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

/** The child of `pid` (`script` runs one shell, which execs node). */
function childOf(pid) {
	try {
		return Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]) || undefined;
	} catch {
		return undefined;
	}
}

/**
 * Runs `node BIN ARGS` in a pseudo terminal of COLUMNS × ROWS and resolves with what was seen, in ms
 * since the spawn: `firstScreen` (the frame list header is shown), `keyMs` (a key pressed right after the
 * first screen until the next output), `loaded` (`■ ended` shown), `exit`, and `peakRss` (bytes).
 * Without `view`, it only waits for the exit.
 */
function runInPty(bin, args, {isView}) {
	const env = {...process.env};
	delete env.NODE_ENV; // the CLI chooses, as it does for a user
	const command = `stty cols ${COLUMNS} rows ${ROWS}; exec ${process.execPath} ${bin} ${args.join(' ')}`;
	const start = performance.now();
	const child = spawn('script', ['-qfec', command, '/dev/null'], {stdio: ['pipe', 'pipe', 'ignore'], env});
	const seen = {};
	let tail = '';
	let keyAt;
	let hasQuit = false;
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			reject(new Error(`${bin} ${args.join(' ')}: no end after 600 s`));
		}, 600_000);
		child.stdout.on('data', (data) => {
			const now = performance.now() - start;
			if (keyAt !== undefined && seen.keyMs === undefined) seen.keyMs = now - keyAt;
			tail = (tail + data.toString('utf8')).replace(ANSI, '').slice(-4000);
			if (!isView) return;
			if (seen.firstScreen === undefined && tail.includes(' ms dir ')) seen.firstScreen = now;
			if (seen.framesDrawn === undefined && /C→S \d+ fr/.test(tail)) {
				seen.framesDrawn = now;
				// A key while the rest loads, once the TUI reads keys: g (to the top), timed to the next output.
				setTimeout(() => {
					keyAt = performance.now() - start;
					child.stdin.write('g');
				}, 200);
			}

			if (seen.loaded === undefined && tail.includes('■ ended')) {
				seen.loaded = now;
				const pid = childOf(child.pid);
				seen.peakRss = pid === undefined ? undefined : peakRss(pid);
			}

			if (seen.loaded !== undefined && seen.keyMs !== undefined && !hasQuit) {
				hasQuit = true;
				child.stdin.write('q');
			}
		});
		child.on('error', reject);
		child.on('exit', (code) => {
			clearTimeout(timer);
			seen.exit = performance.now() - start;
			seen.code = code;
			resolve(seen);
		});
	});
}

async function firstScreen() {
	const versions = [{label: 'new', bin: path.join(ROOT, 'bin', 'mcp-wire.js')}];
	if (BEFORE !== undefined)
		versions.push({label: 'before', bin: path.join(path.resolve(BEFORE), 'bin', 'mcp-wire.js')});
	const runs = Object.fromEntries(versions.map((v) => [v.label, []]));
	const starts = [];
	const ratios = [];
	const framesRatios = [];
	for (let rep = 0; rep < SCREEN_REPS; rep++) {
		// Rotate the order each repetition so that load elsewhere does not always hit the same one.
		const order = rep % 2 === 0 ? versions : [...versions].reverse();
		starts.push((await runInPty(versions[0].bin, ['--version'], {isView: false})).exit);
		for (const version of order) {
			const seen = await runInPty(version.bin, ['view', HUGE], {isView: true});
			runs[version.label].push(seen);
			process.stderr.write(
				`  rep ${rep + 1} ${version.label.padEnd(6)}: first screen ${seen.firstScreen?.toFixed(0)} ms, frames drawn ${seen.framesDrawn?.toFixed(0)} ms, key ${seen.keyMs?.toFixed(0)} ms, all shown ${seen.loaded?.toFixed(0)} ms, peak RSS ${seen.peakRss === undefined ? '?' : mib(seen.peakRss).toFixed(0)} MiB\n`,
			);
		}

		if (BEFORE !== undefined) {
			ratios.push(runs.new.at(-1).firstScreen / runs.before.at(-1).firstScreen);
			framesRatios.push(runs.new.at(-1).framesDrawn / runs.before.at(-1).framesDrawn);
		}
	}

	const lines = [
		`first screen of \`view\` on ${path.basename(HUGE)} (${mib(statSize(HUGE)).toFixed(0)} MiB, 40 frames of 5 MB), real CLI in a ${COLUMNS}×${ROWS} pty, ${SCREEN_REPS} reps; ms since spawn (medians)`,
	];
	lines.push(`  version   first screen   frames drawn   key while loading   all shown   peak RSS MiB`);
	for (const version of versions) {
		const r = runs[version.label];
		const rss = r.map((s) => s.peakRss).filter((v) => v !== undefined);
		lines.push(
			`  ${version.label.padEnd(8)}  ${median(r.map((s) => s.firstScreen))
				.toFixed(0)
				.padStart(12)}   ${median(r.map((s) => s.framesDrawn))
				.toFixed(0)
				.padStart(12)}   ${median(r.map((s) => s.keyMs))
				.toFixed(0)
				.padStart(17)}   ${median(r.map((s) => s.loaded))
				.toFixed(0)
				.padStart(9)}   ${rss.length > 0 ? mib(median(rss)).toFixed(0).padStart(12) : '           ?'}`,
		);
	}

	lines.push(`  \`mcp-wire --version\` (starting Node and the CLI on this machine): ${median(starts).toFixed(0)} ms`);
	if (framesRatios.length > 0)
		lines.push(
			`  frames drawn new/before, median of per-rep ratios: ${median(framesRatios).toFixed(3)} (reps: ${framesRatios.map((r) => r.toFixed(3)).join(' ')})`,
		);
	if (ratios.length > 0)
		lines.push(
			`  first screen new/before, median of per-rep ratios: ${median(ratios).toFixed(3)} (reps: ${ratios.map((r) => r.toFixed(3)).join(' ')})`,
		);
	const screenMs = median(runs.new.map((s) => s.firstScreen));
	lines.push(`  first screen ${screenMs.toFixed(0)} ms (target <= 1000) ${screenMs <= 1000 ? 'OK' : 'OVER'}`);
	const newRss = runs.new.map((s) => s.peakRss).filter((v) => v !== undefined);
	if (newRss.length > 0)
		lines.push(
			`  peak RSS ${mib(median(newRss)).toFixed(0)} MiB (target < 200) ${mib(median(newRss)) < 200 ? 'OK' : 'OVER'}`,
		);
	return lines;
}

function statSize(file) {
	return spawnSync('stat', ['-c', '%s', file], {encoding: 'utf8'}).stdout.trim() * 1;
}

/** Part 3: peak RSS of the CLI's `view` by capture size (medians of `--rss-reps` runs; `--before` interleaved). */
async function rssBySize() {
	const lines = [
		`peak RSS of \`view\` (real CLI in a pty) once the whole capture is shown, ${RSS_REPS} run(s) each (medians)`,
		`  capture                     version   all shown ms   peak RSS MiB   load avg`,
	];
	const versions = [{label: 'new', bin: path.join(ROOT, 'bin', 'mcp-wire.js')}];
	if (BEFORE !== undefined)
		versions.push({label: 'before', bin: path.join(path.resolve(BEFORE), 'bin', 'mcp-wire.js')});
	const names = [...RSS_FRAMES.map((n) => `frames-${n}`), ...RSS_FAULTS.map((n) => `faults-${n}`)];
	for (const name of names) {
		const runs = Object.fromEntries(versions.map((v) => [v.label, []]));
		const ratios = [];
		for (let rep = 0; rep < RSS_REPS; rep++) {
			const order = rep % 2 === 0 ? versions : [...versions].reverse();
			for (const version of order) {
				const seen = await runInPty(version.bin, ['view', path.join(CAPTURE_DIR, `${name}.ndjson`)], {isView: true});
				seen.load = os.loadavg()[0];
				runs[version.label].push(seen);
				process.stderr.write(
					`  ${name} rep ${rep + 1} ${version.label}: all shown ${seen.loaded?.toFixed(0)} ms, peak RSS ${seen.peakRss === undefined ? '?' : mib(seen.peakRss).toFixed(0)} MiB, load ${seen.load.toFixed(1)}\n`,
				);
			}

			if (BEFORE !== undefined && runs.new.at(-1).peakRss && runs.before.at(-1).peakRss)
				ratios.push(runs.new.at(-1).peakRss / runs.before.at(-1).peakRss);
		}

		for (const version of versions) {
			const r = runs[version.label];
			const rss = r.map((s) => s.peakRss).filter((v) => v !== undefined);
			const peak = rss.length > 0 ? mib(median(rss)) : undefined;
			const verdict =
				version.label === 'new' ? `  (target < 200) ${peak !== undefined && peak < 200 ? 'OK' : 'OVER'}` : '';
			lines.push(
				`  ${name.padEnd(27)} ${version.label.padEnd(7)} ${median(r.map((s) => s.loaded))
					.toFixed(0)
					.padStart(14)}   ${peak === undefined ? '?'.padStart(12) : peak.toFixed(0).padStart(12)}   ${median(
					r.map((s) => s.load),
				)
					.toFixed(1)
					.padStart(8)}${verdict}`,
			);
		}

		if (ratios.length > 0)
			lines.push(
				`  ${name}: peak RSS new/before, median of per-rep ratios ${median(ratios).toFixed(2)} (reps: ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
			);
	}

	return lines;
}

// ---------------------------------------------------------------------------------------------------
// Part 2: key → redraw latency through the CLI's `view` command on fake terminals.

class FakeStdout extends EventEmitter {
	isTTY = true;
	columns = COLUMNS;
	rows = ROWS;
	#waiters = [];
	write(chunk, encodingOrCallback, callback) {
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

/**
 * Opens `file` with the CLI's `view` command, the TUI hook drawing on a fake terminal, and resolves
 * once the capture is fully loaded, with a handle to press keys and quit.
 */
async function openView(viewCommand, startTui, file) {
	const stdout = new FakeStdout();
	const stdin = new FakeStdin();
	let frameCount = 0;
	const loaded = new Promise((resolve) => {
		const hook = async (store, {loading}) => {
			const check = () => {
				if (loading.getSnapshot().isDone) {
					frameCount = store.getSnapshot().frames.length;
					resolve();
				}
			};

			loading.subscribe(check);
			await startTui({store, stdin, stdout, color: true, loading});
			return 0;
		};

		void viewCommand({loadTui: async () => hook}).parseAsync([file], {from: 'user'});
	});
	const start = performance.now();
	await loaded;
	const loadMs = performance.now() - start;
	await sleep(300);
	// Go to the top so that j/k move the selection (and re-render) every time.
	stdin.write('g');
	await sleep(60);
	return {
		loadMs,
		get frameCount() {
			return frameCount;
		},
		/** Presses a key and resolves with the ms until the next frame is written. */
		async press(key) {
			const next = stdout.nextWrite();
			const pressed = performance.now();
			stdin.write(key);
			return (await next) - pressed;
		},
		quit() {
			stdin.write('q');
		},
	};
}

async function keyLatency() {
	// The GC settings the CLI's TUI process runs with (cli/tui-heap.ts), when the build has them.
	const tuiHeap = await import(new URL('cli/tui-heap.js', distRoot).href).catch(() => undefined);
	tuiHeap?.tuneHeapForTui();
	const {viewCommand} = await import(new URL('cli/commands/view.js', distRoot).href);
	const {startTui} = await import(new URL('render/tui/start-tui.js', distRoot).href);
	// `view` picks the TUI only when stdout is a terminal; the TUIs here draw on fake terminals.
	process.stdout.isTTY = true;
	const small = await openView(viewCommand, startTui, path.join(CAPTURE_DIR, 'frames-100.ndjson'));
	// Warm up (JIT, module init) before anything is measured.
	for (let i = 0; i < 40; i++) {
		await small.press(i % 2 === 0 ? 'j' : 'k');
		await sleep(40);
	}

	const large = await openView(viewCommand, startTui, path.join(CAPTURE_DIR, `frames-${FRAMES}.ndjson`));
	const rss = process.memoryUsage().rss;
	const tuis = [small, large];
	const perRep = [];
	const all = [[], []];
	for (let rep = 0; rep < REPS; rep++) {
		const order = rep % 2 === 0 ? [0, 1] : [1, 0];
		const samples = [[], []];
		for (let i = 0; i < PRESSES; i++) {
			const key = i % 20 < 10 ? 'j' : 'k';
			for (const t of order) {
				samples[t].push(await tuis[t].press(key));
				await sleep(40);
			}
		}

		perRep.push({small: median(samples[0]), large: median(samples[1])});
		all[0].push(...samples[0]);
		all[1].push(...samples[1]);
	}

	const peak = peakRss(process.pid);
	small.quit();
	large.quit();
	const ratios = perRep.map((r) => r.large / r.small);
	const ratio = median(ratios);
	const fmt = (value) => value.toFixed(3).padStart(8);
	return [
		`key → next frame through \`view\` (${COLUMNS}×${ROWS}, ${REPS} reps × ${PRESSES} presses each, interleaved, order rotated, NODE_ENV=${process.env.NODE_ENV}; ms)`,
		`  frames     median (all presses)   per-rep medians`,
		`  ${String(small.frameCount).padStart(7)}  ${fmt(median(all[0]))}              ${perRep.map((r) => r.small.toFixed(2)).join(' ')}`,
		`  ${String(large.frameCount).padStart(7)}  ${fmt(median(all[1]))}              ${perRep.map((r) => r.large.toFixed(2)).join(' ')}`,
		`  ratio ${large.frameCount}/${small.frameCount}, median of per-rep ratios: ${ratio.toFixed(2)} (reps: ${ratios.map((r) => r.toFixed(2)).join(' ')})  (target <= 2) ${ratio <= 2 ? 'OK' : 'OVER'}`,
		`  loading the ${large.frameCount}-frame capture into the TUI: ${(large.loadMs / 1000).toFixed(1)} s`,
		`  RSS with it open: ${mib(rss).toFixed(0)} MiB, peak ${peak === undefined ? '?' : mib(peak).toFixed(0)} MiB  (target < 200) ${peak !== undefined && mib(peak) < 200 ? 'OK' : 'OVER'}`,
	];
}

async function main() {
	const skipKeys = process.argv.includes('--skip-keys');
	const counts = [
		...new Set([...(skipKeys ? [] : [100, FRAMES]), ...(process.argv.includes('--skip-rss') ? [] : RSS_FRAMES)]),
	].join(',');
	const gen = spawnSync(
		process.execPath,
		[
			path.join(ROOT, 'bench', 'gen-captures.mjs'),
			'--dir',
			CAPTURE_DIR,
			'--frames',
			counts,
			...(process.argv.includes('--skip-screen') ? ['--no-huge'] : []),
			...(RSS_FAULTS.length > 0 ? ['--faults', RSS_FAULTS.join(',')] : []),
		],
		{stdio: 'inherit'},
	);
	if (gen.status !== 0) throw new Error('bench/gen-captures.mjs failed');
	const lines = [];
	if (!process.argv.includes('--skip-screen')) lines.push(...(await firstScreen()), '');
	if (!process.argv.includes('--skip-rss')) lines.push(...(await rssBySize()), '');
	if (!process.argv.includes('--skip-keys')) lines.push(...(await keyLatency()), '');
	process.stdout.write(`${lines.join('\n')}\n`);
	// The TUIs of part 2 are unmounted; a stream left open must not keep the bench alive.
	process.exit(0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	await main();
}

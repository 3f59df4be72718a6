import {EventEmitter} from 'node:events';
import {render, type Instance} from 'ink';
import type {ReactElement} from 'react';
import stripAnsi from 'strip-ansi';

/**
 * Renders an ink tree against fake streams, in the style of ink-testing-library but with a stdout that
 * has configurable `columns`/`rows` and can emit `resize` (ink's create-stdout.ts, Shopify's
 * `Stdout({columns, rows})`), a stdin that ink can put in raw mode, and `press`/`waitForFrame` helpers
 * (Shopify's `sendInputAndWaitForChange`). ink runs with `debug: true` (every render is written whole),
 * `patchConsole: false` and `exitOnCtrlC: false`.
 */

// ink renders asynchronously on its own (input events, timers); these tests wait for frames instead of
// wrapping updates in act(), so React's act environment is off (test/setup.ts).

/** A stdout that records every write and has a terminal size. */
export class FakeStdout extends EventEmitter {
	readonly isTTY = true;
	columns: number;
	rows: number;
	readonly frames: string[] = [];
	/** Resolves waiters when a frame is written. */
	private readonly waiters = new Set<() => void>();

	constructor(columns: number, rows: number) {
		super();
		this.columns = columns;
		this.rows = rows;
	}

	write = (chunk: string | Uint8Array, encodingOrCallback?: unknown, callback?: unknown): boolean => {
		this.frames.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
		for (const waiter of this.waiters) waiter();
		const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
		if (typeof done === 'function') (done as () => void)();
		return true;
	};

	/** The next write (resolves right after it). */
	nextWrite(): Promise<void> {
		return new Promise((resolve) => {
			const waiter = (): void => {
				this.waiters.delete(waiter);
				resolve();
			};

			this.waiters.add(waiter);
		});
	}

	/** Changes the size and emits `resize`, as a terminal does. */
	resize(columns: number, rows: number): void {
		this.columns = columns;
		this.rows = rows;
		this.emit('resize');
	}

	getColorDepth(): number {
		return 8;
	}

	hasColors(): boolean {
		return true;
	}
}

/** A stdin that ink can read keys from (`readable` + `read()`), with raw mode as a no-op. */
export class FakeStdin extends EventEmitter {
	readonly isTTY = true;
	isRaw = false;
	private readonly queue: string[] = [];

	write(data: string): void {
		this.queue.push(data);
		this.emit('readable');
	}

	read = (): string | null => this.queue.shift() ?? null;
	setEncoding(): this {
		return this;
	}

	setRawMode(isRaw: boolean): this {
		this.isRaw = isRaw;
		return this;
	}

	resume(): this {
		return this;
	}

	pause(): this {
		return this;
	}

	ref(): this {
		return this;
	}

	unref(): this {
		return this;
	}
}

/** What {@link renderTui} returns. */
export interface RenderedTui {
	readonly stdout: FakeStdout;
	readonly stdin: FakeStdin;
	readonly instance: Instance;
	/** Every frame written, ANSI included. */
	readonly frames: string[];
	/** The last frame, ANSI-stripped (`{raw: true}` keeps the escape sequences). */
	lastFrame(options?: {raw?: boolean}): string;
	/** Writes each key to stdin in turn, letting ink handle it and re-render before the next. */
	press(...keys: string[]): Promise<void>;
	/** Waits until the (stripped) last frame satisfies the predicate; throws with the frame after `timeoutMs`. */
	waitForFrame(predicate: (frame: string) => boolean, timeoutMs?: number): Promise<string>;
	/** Resizes the fake terminal (emits `resize`). */
	resize(columns: number, rows: number): void;
	unmount(): void;
}

/**
 * Yields to the event loop the way ink needs between input and output: setImmediate twice, then
 * setTimeout(0). A lone ESC takes one more hop than other keys (ink emits it from a setImmediate, to tell
 * it from the start of an escape sequence), and React schedules its render after that: with one
 * setImmediate, a loaded machine could run the setTimeout(0) first and see the frame from before the key.
 */
export async function tick(): Promise<void> {
	await new Promise((resolve) => setImmediate(resolve));
	await new Promise((resolve) => setImmediate(resolve));
	await new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Renders `tree` on a fake terminal of `columns` × `rows`.
 * @returns handles to drive it; call `unmount()` at the end of the test.
 */
export function renderTui(
	tree: ReactElement,
	{columns = 100, rows = 30}: {columns?: number; rows?: number} = {},
): RenderedTui {
	const stdout = new FakeStdout(columns, rows);
	const stdin = new FakeStdin();
	const instance = render(tree, {
		stdout: stdout as unknown as NodeJS.WriteStream,
		stderr: new FakeStdout(columns, rows) as unknown as NodeJS.WriteStream,
		stdin: stdin as unknown as NodeJS.ReadStream,
		debug: true,
		patchConsole: false,
		exitOnCtrlC: false,
	});
	const lastFrame = (options: {raw?: boolean} = {}): string => {
		const frame = stdout.frames.at(-1) ?? '';
		return options.raw ? frame : stripAnsi(frame);
	};

	return {
		stdout,
		stdin,
		instance,
		frames: stdout.frames,
		lastFrame,
		async press(...keys) {
			for (const key of keys) {
				stdin.write(key);
				await tick();
			}
		},
		async waitForFrame(predicate, timeoutMs = 2000) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const frame = lastFrame();
				if (predicate(frame)) {
					return frame;
				}

				if (Date.now() > deadline) {
					throw new Error(`waitForFrame: timed out after ${timeoutMs} ms; last frame:\n${frame}`);
				}

				await tick();
			}
		},
		resize(newColumns, newRows) {
			stdout.resize(newColumns, newRows);
		},
		unmount() {
			instance.unmount();
			instance.cleanup();
		},
	};
}

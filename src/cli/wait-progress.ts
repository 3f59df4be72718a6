import type {ProbeWait} from '../probe/probe.js';

/** Where {@link createWaitProgress} writes, and how. */
export interface WaitProgressOptions {
	/** Our stderr (never stdout: it may be the `--json` stream). */
	readonly stderr: {write(text: string): unknown; readonly isTTY?: boolean};
	/** `--verbose`: on a non-terminal stderr, write a line every {@link VERBOSE_EVERY_MS}. */
	readonly verbose: boolean;
	/** True when our stdout is the same terminal (a plain log): lines, not one line rewritten in place. */
	readonly stdoutIsTerminal?: boolean;
}

/** On a non-terminal stderr with `--verbose`, one progress line per this many ms of waiting. */
export const VERBOSE_EVERY_MS = 5_000;

/** `waiting for initialize 12 s / 30 s`, plus what the server was seen doing, when observed. */
export function formatWait(wait: ProbeWait): string {
	const seconds = (ms: number): number => Math.floor(ms / 1000);
	const seen = wait.seen === undefined ? '' : `: ${wait.seen.length > 100 ? `${wait.seen.slice(0, 99)}…` : wait.seen}`;
	return `waiting for ${wait.method} ${seconds(wait.elapsedMs)} s / ${seconds(wait.limitMs)} s${seen}`;
}

/**
 * The probe's "still waiting" line (docs/json-records.md#mark): on a terminal stderr (while stdout goes elsewhere) one
 * line rewritten in place every second and erased when the wait ends; when stdout is that terminal too,
 * or with `--verbose` on any stderr, a `mcp-wire: waiting for …` line every {@link VERBOSE_EVERY_MS};
 * otherwise nothing.
 * @returns the `onWait` callback for `runProbe`, or undefined when nothing is to be shown
 */
export function createWaitProgress(options: WaitProgressOptions): ((wait: ProbeWait) => void) | undefined {
	const {stderr} = options;
	if (stderr.isTTY === true && options.stdoutIsTerminal !== true) {
		let shown = false;
		return (wait) => {
			if (wait.done !== undefined) {
				if (shown) stderr.write('\r\u001B[K');
				shown = false;
				return;
			}
			shown = true;
			stderr.write(`\r\u001B[Kmcp-wire: ${formatWait(wait)}`);
		};
	}
	if (!options.verbose && stderr.isTTY !== true) return undefined;
	let lastBucket = 0;
	return (wait) => {
		if (wait.done !== undefined) {
			lastBucket = 0;
			return;
		}
		const bucket = Math.floor(wait.elapsedMs / VERBOSE_EVERY_MS);
		if (bucket <= lastBucket) return;
		lastBucket = bucket;
		stderr.write(`mcp-wire: ${formatWait(wait)}\n`);
	};
}

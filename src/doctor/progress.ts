/**
 * The doctor's progress line: on a terminal stderr, one line rewritten in place,
 * `mcp-wire: doctor 3/16 checked · 25 s of 120 s · running claude-desktop/weather, cursor/github (+2)`
 * (the seconds since it began and the run's `--total-timeout`, redrawn each second by `tick`), erased at the
 * end. Never written to stdout (the table or the `--json` records go there). Pure: it writes through
 * the function it is given.
 */

/** Where and how wide {@link DoctorProgress} writes. */
export interface DoctorProgressOptions {
	/** Writes to stderr (a terminal). */
	readonly write: (text: string) => void;
	/** The terminal's width in columns; the line is cut to one column less, so it never wraps. Default 80. */
	readonly columns?: number;
	/**
	 * The clock (ms; default `performance.now`). With {@link limitMs}, the line shows the seconds since
	 * the progress began and the run's limit: `· 25 s of 120 s`.
	 */
	readonly now?: () => number;
	/** The run's limit (ms, `--total-timeout`), shown after the elapsed seconds. */
	readonly limitMs?: number;
}

/** Erase the current line: carriage return, then clear to the end of the line. */
const ERASE = '\r\u001B[K';

/**
 * Counts rows checked of `total` and the servers running now, and redraws one stderr line on every
 * change. {@link DoctorProgress.clear} erases it (call it before anything else is printed).
 */
export class DoctorProgress {
	private readonly running: string[] = [];
	private done = 0;
	private shown = false;
	private readonly startedAt: number;
	private lastDrawn = '';

	constructor(
		private readonly total: number,
		private readonly options: DoctorProgressOptions,
	) {
		this.startedAt = (options.now ?? performance.now.bind(performance))();
	}

	/**
	 * Redraw when the elapsed seconds changed (call it every second or so: a probe that takes 25 s must not
	 * leave the line unchanged that long). Writes nothing when nothing is shown or nothing changed.
	 */
	tick(): void {
		if (this.shown && this.line() !== this.lastDrawn) this.draw();
	}

	/** A server's probe started (`label`: `client/name`). */
	started(label: string): void {
		this.running.push(label);
		this.draw();
	}

	/** A row is done (`label` of a probed server, or undefined for a row that needed no probe). */
	finished(label: string | undefined): void {
		this.done += 1;
		if (label !== undefined) {
			const index = this.running.indexOf(label);
			if (index !== -1) this.running.splice(index, 1);
		}
		this.draw();
	}

	/** The line as it would be drawn now (uncut). */
	line(): string {
		const head = `mcp-wire: doctor ${this.done}/${this.total} checked${this.elapsed()}`;
		if (this.running.length === 0) return head;
		const [first, second] = this.running;
		const names = second === undefined ? first : `${first}, ${second}`;
		const more = this.running.length > 2 ? ` (+${this.running.length - 2})` : '';
		return `${head} · running ${names}${more}`;
	}

	/** ` · 25 s of 120 s` with a limit, else `` (whole seconds since the progress began). */
	private elapsed(): string {
		if (this.options.limitMs === undefined) return '';
		const now = (this.options.now ?? performance.now.bind(performance))();
		const seconds = Math.floor((now - this.startedAt) / 1000);
		return ` · ${seconds} s of ${Math.round(this.options.limitMs / 1000)} s`;
	}

	/** Erases the line if one is shown. */
	clear(): void {
		if (!this.shown) return;
		this.options.write(ERASE);
		this.shown = false;
	}

	private draw(): void {
		const width = Math.max(20, (this.options.columns ?? 80) - 1);
		this.lastDrawn = this.line();
		const chars = [...this.lastDrawn];
		const text = chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : chars.join('');
		this.options.write(`${ERASE}${text}`);
		this.shown = true;
	}
}

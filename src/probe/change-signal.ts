/** How {@link ChangeSignal.waitUntil} ended: the value `check` returned, or why not. */
export type WaitEnd<T> = {readonly value: T} | 'timeout' | 'eof' | 'stopped';

/**
 * The time the probe held the server's output unread because its own output was backed up (a `--json`
 * pipe read slower than the server writes): the waits do not count it, so our stall never makes a server
 * look slow or silent (docs/json-records.md#mark, `output-stalled`).
 */
export interface OutputHold {
	/** True while the server's output is held. */
	isHeld(): boolean;
	/** Every ms the output was held so far (ms), the current hold included. */
	heldMs(): number;
	/** The clock `heldMs` is counted on (ms). */
	now(): number;
}

/** Something changed (bytes, EOF, an exit): the probe's waits look again. */
export interface ChangeSignal {
	/** Tell every wait to look again. */
	notify(): void;
	/** Drop every wait (they never resolve): the server was detached. */
	clear(): void;
	/**
	 * Wait until `check` returns a value (looked at now and on every `notify`), `isEof` returns true
	 * (looked at the same times), `stop` resolves, or `ms` pass, not counting the time the output was held
	 * ({@link OutputHold}: a limit that falls due while it is held ends only after the resume, later by the
	 * time held).
	 */
	waitUntil<T>(
		check: () => T | undefined,
		ms: number,
		isEof?: () => boolean,
		stop?: Promise<void>,
	): Promise<WaitEnd<T>>;
}

/**
 * A {@link ChangeSignal} on real timers (`setTimeout`; vitest's fake timers drive it in tests).
 * @param hold the output hold whose time the waits leave out (the resume must `notify`); none by default
 */
export function createChangeSignal(hold?: OutputHold): ChangeSignal {
	const waiters = new Set<() => void>();
	return {
		notify() {
			for (const waiter of [...waiters]) waiter();
		},
		clear() {
			waiters.clear();
		},
		waitUntil: (check, ms, isEof, stop) => waitOn(waiters, check, ms, isEof, stop, hold),
	};
}

function waitOn<T>(
	waiters: Set<() => void>,
	check: () => T | undefined,
	ms: number,
	isEof?: () => boolean,
	stop?: Promise<void>,
	hold?: OutputHold,
): Promise<WaitEnd<T>> {
	return new Promise((resolve) => {
		let isDone = false;
		// The held time the limit was moved by so far, and whether it fell due during a hold.
		const heldAtStart = hold?.heldMs() ?? 0;
		let credited = 0;
		let isDueAtResume = false;
		/** When the limit fell due during a hold: the rest of that hold is then already behind us at the resume. */
		let dueAt: number | undefined;
		const onLimit = (): void => {
			if (hold !== undefined) {
				if (hold.isHeld()) {
					isDueAtResume = true;
					dueAt ??= hold.now();
					return;
				}
				const extra = hold.heldMs() - heldAtStart - credited;
				if (extra > 0) {
					credited += extra;
					const since = dueAt === undefined ? 0 : hold.now() - dueAt;
					dueAt = undefined;
					timer = setTimeout(onLimit, Math.max(0, extra - since));
					return;
				}
			}
			done('timeout');
		};
		const test = (): boolean => {
			const value = check();
			if (value !== undefined) {
				done({value});
				return true;
			}
			if (isEof?.() === true) {
				done('eof');
				return true;
			}
			return false;
		};
		let timer = setTimeout(onLimit, ms);
		const done = (outcome: WaitEnd<T>): void => {
			if (isDone) return;
			isDone = true;
			clearTimeout(timer);
			waiters.delete(onChange);
			resolve(outcome);
		};
		const onChange = (): void => {
			if (test() || !isDueAtResume || hold?.isHeld() === true) return;
			isDueAtResume = false;
			onLimit();
		};
		if (!test()) {
			waiters.add(onChange);
			void stop?.then(() => done('stopped'));
		}
	});
}

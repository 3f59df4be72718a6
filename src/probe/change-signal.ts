/** How {@link ChangeSignal.waitUntil} ended: the value `check` returned, or why not. */
export type WaitEnd<T> = {readonly value: T} | 'timeout' | 'eof' | 'stopped';

/** Something changed (bytes, EOF, an exit): the probe's waits look again. */
export interface ChangeSignal {
	/** Tell every wait to look again. */
	notify(): void;
	/** Drop every wait (they never resolve): the server was detached. */
	clear(): void;
	/**
	 * Wait until `check` returns a value (looked at now and on every `notify`), `isEof` returns true
	 * (looked at the same times), `stop` resolves, or `ms` pass.
	 */
	waitUntil<T>(
		check: () => T | undefined,
		ms: number,
		isEof?: () => boolean,
		stop?: Promise<void>,
	): Promise<WaitEnd<T>>;
}

/** A {@link ChangeSignal} on real timers (`setTimeout`; vitest's fake timers drive it in tests). */
export function createChangeSignal(): ChangeSignal {
	const waiters = new Set<() => void>();
	return {
		notify() {
			for (const waiter of [...waiters]) waiter();
		},
		clear() {
			waiters.clear();
		},
		waitUntil: (check, ms, isEof, stop) => waitOn(waiters, check, ms, isEof, stop),
	};
}

function waitOn<T>(
	waiters: Set<() => void>,
	check: () => T | undefined,
	ms: number,
	isEof?: () => boolean,
	stop?: Promise<void>,
): Promise<WaitEnd<T>> {
	return new Promise((resolve) => {
		let isDone = false;
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
		const timer = setTimeout(() => done('timeout'), ms);
		const done = (outcome: WaitEnd<T>): void => {
			if (isDone) return;
			isDone = true;
			clearTimeout(timer);
			waiters.delete(onChange);
			resolve(outcome);
		};
		const onChange = (): void => {
			test();
		};
		if (!test()) {
			waiters.add(onChange);
			void stop?.then(() => done('stopped'));
		}
	});
}

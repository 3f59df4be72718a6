import type {SdkSchemas} from '../core/jsonrpc/sdk-checks.js';
import type {Session} from '../core/session/session.js';
import type {ExitInfo, StreamName} from '../core/types.js';
import {EXIT_HOLD_MS, SESSION_DEFER_MS} from './limits.js';

/** What the session is fed: one operation, applied once the session is built, in order. */
export type SessionOp = (session: Session) => void;

/** A session built later than the events it records (see {@link createSessionFeed}). */
export interface SessionFeed {
	/** Apply `op` to the session now, or, before it is built, in order once it is. */
	feed(op: SessionOp): void;
	/** The exchange is over: build the session as soon as the schemas are loaded. */
	release(): void;
	/**
	 * Ask for the session now (releases the build): resolves once it is built and fed every event so far;
	 * rejects when `create` threw.
	 */
	session(): Promise<Session>;
}

/**
 * A session fed before it exists. With `schemas` a value, `create` runs at once (a throw is rethrown here,
 * after `onCreateError`). With `schemas` a promise, `create` runs once they are loaded and the exchange is
 * over (`release`, a `session()` call, or `deferMs` after this call, whichever comes first): what the
 * session does with the events so far (framing, rules, the SDK's checks, renderers) then runs while the
 * server shuts down, not between its replies and the probe's next request (docs/performance.md#probe-start-up).
 * @param onCreateError called when `create` throws, before the error propagates (the probe kills the server)
 * @param deferMs the longest the build waits for `release` (ms)
 */
export function createSessionFeed(
	create: (schemas: SdkSchemas) => Session,
	schemas: SdkSchemas | Promise<SdkSchemas>,
	onCreateError: () => void,
	deferMs: number = SESSION_DEFER_MS,
): SessionFeed {
	let built: Session | undefined;
	const pending: SessionOp[] = [];
	const build = (loaded: SdkSchemas): Session => {
		let session: Session;
		try {
			session = create(loaded);
		} catch (error) {
			onCreateError();
			throw error;
		}
		built = session;
		for (const op of pending.splice(0)) op(session);
		return session;
	};
	let releaseBuild!: () => void;
	const exchangeOver = new Promise<void>((resolve) => {
		releaseBuild = resolve;
	});
	const deferTimer = setTimeout(() => releaseBuild(), deferMs);
	deferTimer.unref();
	const release = (): void => {
		clearTimeout(deferTimer);
		releaseBuild();
	};
	const ready =
		schemas instanceof Promise
			? Promise.all([schemas, exchangeOver]).then(([loaded]) => build(loaded))
			: Promise.resolve(build(schemas));
	ready.catch(() => undefined);
	return {
		feed(op) {
			if (built) op(built);
			else pending.push(op);
		},
		release,
		session() {
			release();
			return ready;
		},
	};
}

/** The exit held back from the session until stderr's EOF (see {@link createExitHold}). */
export interface ExitHold {
	/** The process exited: hand the exit to the session once stderr ended (now, when it has). */
	exited(exit: ExitInfo, stderrEnded: boolean): void;
	/** Give the session the held exit now, then what was held after it. No-op when none is held. */
	release(): void;
	/** `feed`, after the held exit for what is not stderr. */
	feedInOrder(stream: StreamName | undefined, op: SessionOp): void;
}

/**
 * The exit, held from the session until stderr's EOF (at most `holdMs`): a process's exit and its pipes'
 * EOF are separate events, and on a loaded machine the exit often comes first, before the traceback that
 * says why (`early-exit` quotes the stderr tail it sees). While it is held, what the session gets from
 * stdout comes after the exit, in arrival order; stderr goes on at once.
 * @param onTimeout called after a release by the `holdMs` timer (the probe re-checks its waits)
 */
export function createExitHold(
	feed: (op: SessionOp) => void,
	onTimeout: () => void,
	holdMs: number = EXIT_HOLD_MS,
): ExitHold {
	let held: {exit: ExitInfo; after: SessionOp[]; timer: NodeJS.Timeout} | undefined;
	const release = (): void => {
		if (!held) return;
		const {exit, after, timer} = held;
		held = undefined;
		clearTimeout(timer);
		feed((s) => s.exit(exit));
		for (const op of after) feed(op);
	};
	return {
		exited(exit, stderrEnded) {
			if (stderrEnded) feed((s) => s.exit(exit));
			else held = {exit, after: [], timer: setTimeout(() => (release(), onTimeout()), holdMs)};
		},
		release,
		feedInOrder(stream, op) {
			if (held && stream !== 'stderr') held.after.push(op);
			else feed(op);
		},
	};
}

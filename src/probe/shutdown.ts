import type {ExitInfo} from '../core/types.js';
import type {WaitEnd} from './change-signal.js';
import {EXIT_SETTLE_MS, REAP_GRACE_MS, SHUTDOWN_MS} from './limits.js';
import {releaseGroup} from './probe-start.js';
import type {ServerLink} from './server-link.js';

/**
 * The R14 shutdown (steps skipped once the process is gone), then drain to EOF, then end what is left of
 * the tree (recorded as an `evidence` mark after the exit and `reaped` marks); detaches the link.
 * A server that closed stdout before the shutdown first gets {@link SHUTDOWN_MS}.exitAfterStdoutEof to
 * exit on its own, so an early exit is not mistaken for a reaction to our closing stdin.
 * @returns the exit, or undefined when the process did not die even after SIGKILL
 */
export async function shutdownServer(link: ServerLink): Promise<ExitInfo | undefined> {
	const {server, changes} = link;
	const exited = (): true | undefined => (server.exitInfo ? true : undefined);
	if (server.ended.stdout && !server.exitInfo) await changes.waitUntil(exited, SHUTDOWN_MS.exitAfterStdoutEof);
	if (!server.exitInfo) await endServer(link);
	if (server.exitInfo) await drainAfterExit(link);
	await reapTree(link);
	link.detach();
	return server.exitInfo;
}

/** Close stdin, then SIGTERM, then SIGKILL, each after its grace period unless the server exited (R14). */
async function endServer(link: ServerLink): Promise<void> {
	const {server, clock, changes} = link;
	const exited = (): true | undefined => (server.exitInfo ? true : undefined);
	// What the tree looks like at the end of the exchange (and every descendant is remembered).
	link.observe('shutdown');
	const tMs = clock.now();
	link.feed((s) => s.mark({type: 'phase', name: 'shutdown', tMs}));
	link.closeStdin();
	let outcome = await waitAfterStdinClose(link);
	for (const [signal, wait] of [
		['SIGTERM', SHUTDOWN_MS.afterSigterm],
		['SIGKILL', SHUTDOWN_MS.afterSigkill],
	] as const) {
		if (outcome !== 'timeout') break;
		link.log(`pid ${server.pid} still running ${Math.round(clock.now())} ms in; sending ${signal}`);
		const sentAt = clock.now();
		link.feed((s) => s.mark({type: 'signal-sent', signal, tMs: sentAt}));
		server.kill(signal);
		outcome = await changes.waitUntil(exited, wait);
	}
	if (outcome === 'timeout') link.log(`pid ${server.pid} did not exit even after SIGKILL; giving up`);
}

/**
 * Wait {@link SHUTDOWN_MS}.afterStdinClose for the exit once stdin is closed. A reply meanwhile to a request
 * the probe had stopped waiting for (`ServerLink.gaveUpOn`: its own limit is shorter than a client's, which
 * waits 60 s per request, R15) restarts that grace from the reply: the server was finishing the request a
 * client would still have been waiting for, so exiting only after it is not ignoring EOF (R14). The probe
 * never reports its own wait as the server's fault.
 */
async function waitAfterStdinClose(link: ServerLink): Promise<WaitEnd<true>> {
	const {server, clock, changes, replies, gaveUpOn} = link;
	const exited = (): true | undefined => (server.exitInfo ? true : undefined);
	let late: {method: string; tMs: number} | undefined;
	const stopListening = replies.onReply((reply) => {
		if (reply.kind !== 'response' && reply.kind !== 'error') return;
		if (reply.id === undefined || reply.id === null) return;
		const method = gaveUpOn.get(reply.id);
		if (method === undefined) return;
		gaveUpOn.delete(reply.id);
		late = {method, tMs: clock.now()};
	});
	try {
		let fromTMs = clock.now();
		for (;;) {
			const outcome = await changes.waitUntil(exited, Math.max(0, fromTMs + SHUTDOWN_MS.afterStdinClose - clock.now()));
			const reply: {method: string; tMs: number} | undefined = late;
			if (outcome !== 'timeout' || reply === undefined || reply.tMs <= fromTMs) return outcome;
			link.log(
				`the server answered ${reply.method} ${Math.round(reply.tMs)} ms in, after stdin closed; waiting ${SHUTDOWN_MS.afterStdinClose} ms from then for its exit`,
			);
			fromTMs = reply.tMs;
		}
	} finally {
		stopListening();
	}
}

/**
 * After the exit: read stdout and stderr to EOF (at most {@link SHUTDOWN_MS}.drainAfterExit), let children
 * that hold no pipe exit ({@link EXIT_SETTLE_MS}), give the session the exit, and look at the tree once more.
 */
async function drainAfterExit(link: ServerLink): Promise<void> {
	const {server, tree, changes} = link;
	const eofs = await changes.waitUntil(
		() => (server.ended.stdout && server.ended.stderr ? true : undefined),
		SHUTDOWN_MS.drainAfterExit,
	);
	if (eofs === 'timeout') link.log('the server exited but its stdout/stderr stayed open (a child process holds them)');
	else if (tree && tree.alive().some((pid) => pid !== server.pid)) {
		await changes.waitUntil(() => (tree.alive().some((pid) => pid !== server.pid) ? undefined : true), EXIT_SETTLE_MS);
	}
	link.releaseExit();
	const openPipes = (['stdout', 'stderr'] as const).filter((name) => !server.ended[name]);
	const after = link.observe('exit', {rootAlive: false, openPipes});
	// Nothing of the tree left a moment ago: the reap need not scan /proc again.
	if (after?.observed === true && after.processes.length === 0) link.isTreeGone = true;
}

/**
 * End whatever is left of the tree (the probe never leaks a process): its process group, every
 * descendant seen, every holder of the session's pipes; SIGTERM, then SIGKILL after
 * {@link REAP_GRACE_MS} for those still alive. Each round is marked `reaped` with the pids signalled.
 */
export async function reapTree(link: ServerLink): Promise<void> {
	const {server, tree, clock, reaped} = link;
	if (!tree || server.pid === undefined) return;
	const endOptions = {includeRoot: !server.exitInfo, group: process.platform !== 'win32', scan: !link.isTreeGone};
	const record = (pids: number[], signal: 'SIGTERM' | 'SIGKILL'): void => {
		for (const pid of pids) if (!reaped.includes(pid)) reaped.push(pid);
		const tMs = clock.now();
		link.feed((s) => s.mark({type: 'reaped', pids, signal, tMs}));
		link.log(
			`ended ${pids.length} leftover process${pids.length === 1 ? '' : 'es'} of the server's tree with ${signal}: pid ${pids.join(', ')}`,
		);
	};
	const first = tree.endAll('SIGTERM', endOptions);
	if (first.length > 0) {
		record(first, 'SIGTERM');
		const isGone = (): true | undefined => (tree.alive().some((pid) => first.includes(pid)) ? undefined : true);
		await link.changes.waitUntil(isGone, REAP_GRACE_MS);
		if (tree.alive().some((pid) => first.includes(pid))) {
			const second = tree.endAll('SIGKILL', endOptions);
			if (second.length > 0) record(second, 'SIGKILL');
		}
	}
	if (server.exitInfo) releaseGroup(server.pid);
}

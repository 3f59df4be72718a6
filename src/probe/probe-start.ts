import {Buffer} from 'node:buffer';
import {STARTUP_LIMIT_MS} from '../core/findings/rules/no-response.js';
import type {SdkSchemas} from '../core/jsonrpc/sdk-checks.js';
import {createClock, type Clock} from '../process/clock.js';
import {endWatchedTrees, watchProcessTree, type ProcessWatch} from '../process/proc-evidence.js';
import {nodeStarter, spawnServer, type ProcessStarter, type SpawnedServer} from '../process/spawn.js';
import {defaultOpening, openingInitialize, type InitializeRequest, type Opening} from './opening.js';

export {DEFAULT_PROTOCOL_VERSION, initializeRequest, type InitializeRequest} from './opening.js';

// The probe's first step, in a module of its own with few imports: `probe` starts the server with it
// before it loads the rest of the probe (framer, session, detectors, renderers, the SDK's schemas), which
// then load while the server starts (docs/performance.md#probe-start-up).

/** How long each request may take before the probe gives up on it (ms), unless `--timeout` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * How long the probe waits for `initialize` unless `--timeout` says otherwise (ms): the strictest
 * mainstream startup limit (Claude Code: 30 s), so a server that starts in 11 or 20 s (F42) is seen
 * answering, not called dead.
 */
export const DEFAULT_INITIALIZE_TIMEOUT_MS = STARTUP_LIMIT_MS;

/**
 * Load the TS SDK's checks (zod with the SDK's schemas, core/jsonrpc/sdk-schemas.ts) by `import()`: off the
 * start-up path of a command, so that a probe loads them while its server starts.
 * @returns the checks a Session runs (`SDK_SCHEMAS`)
 */
export async function loadSdkSchemas(): Promise<SdkSchemas> {
	return (await import('../core/jsonrpc/sdk-schemas.js')).SDK_SCHEMAS;
}

/** A server the probe started: its session clock (tMs 0 = the spawn), the process, and the watch on its tree. */
export interface ProbeServer {
	readonly clock: Clock;
	readonly server: SpawnedServer;
	/** Absent when the command could not start. */
	readonly tree?: ProcessWatch;
	/** The `initialize` request already written to the server's stdin (its bytes, and when, ms), when one was. */
	readonly initialize?: {readonly message: InitializeRequest; readonly bytes: Uint8Array; readonly tMs: number};
}

/**
 * Process groups the probe started and has not ended yet: killed if this process exits first, or is ended
 * by SIGINT, SIGTERM or SIGHUP (Ctrl-C on a plain or --json probe, a CI job's timeout, a closed terminal):
 * the server is in a group of its own, so the signal does not reach it, and Node's 'exit' does not run when
 * a signal ends the process.
 */
const liveGroups = new Set<number>();
let hooked = false;
/** The CLI's graceful stop on an ending signal ({@link setSignalStop}), when it set one. */
let signalStop: ((signal: NodeJS.Signals) => boolean) | undefined;
/** The signals after which the probe's servers are ended (then the signal's own action, when no one else listens). */
const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/**
 * Let the CLI stop a probe gracefully on an ending signal (Ctrl-C on a plain or --json probe: the summary
 * still comes out): `stop(signal)` returns true when it takes the signal over (it then ends the server and
 * the process itself), false for the default (the groups are killed, the signal re-raised).
 * `undefined` removes it.
 */
export function setSignalStop(stop: ((signal: NodeJS.Signals) => boolean) | undefined): void {
	signalStop = stop;
}

/** SIGKILL every process group the probe started and has not ended (a second Ctrl-C, an exit). */
export function killLiveGroups(): void {
	for (const group of liveGroups) {
		try {
			process.kill(-group, 'SIGKILL');
		} catch {
			// already gone
		}
	}
}
function trackGroup(pid: number): void {
	liveGroups.add(pid);
	hookEndingSignals();
}
/** Listen for the ending signals, once per process: from then on they end the groups the probe started. */
function hookEndingSignals(): void {
	if (hooked) return;
	hooked = true;
	process.once('exit', killLiveGroups);
	for (const signal of ENDING_SIGNALS) {
		process.once(signal, () => {
			if (signalStop?.(signal) === true) return;
			killLiveGroups();
			// A daemonised descendant (double fork, setsid) left the group: end it as a normal end does.
			endWatchedTrees('SIGKILL');
			// No other listener (a TUI, attach): the signal's default action, as if none had been added (our
			// listener is gone, so libuv set it back): the process ends of it and a shell sees 128 + n.
			if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
		});
	}
}
/** The process group led by `pid` is gone (the probe ended it): no SIGKILL to it when this process exits. */
export function releaseGroup(pid: number): void {
	liveGroups.delete(pid);
}

/**
 * Spawn a server for the probe, in a process group of its own, with a fresh session clock; its events
 * wait (buffered, see `SpawnedServer.listen`) until `runProbe` listens, so nothing is lost while the rest
 * of the probe loads. The tree watch learns the server's pipes at once (before it can redirect them) and
 * remembers every descendant it sees. With `initialize` (the CLI), the `initialize` request is written at
 * once, as a real client writes it right after the spawn; `runProbe` records it and waits for its reply.
 * Never throws for a command that cannot start (`server.started` then resolves `{ok: false}`).
 *
 * @param options the command (program and arguments, no shell), the server's whole environment, its cwd;
 *   `initialize`: the opening whose `initialize` to write (or the protocol version the default one offers)
 *   and our version for `clientInfo`
 * @param starter how to start it (default Node's spawn: pass `loadProcessStarter()`'s on Windows)
 */
export function startProbeServer(
	options: {
		readonly command: readonly string[];
		readonly env: Readonly<Record<string, string>>;
		readonly cwd?: string;
		readonly initialize?: {
			readonly protocolVersion?: string;
			readonly clientVersion: string;
			/** Whose `initialize` to write (default: `defaultOpening(protocolVersion)`). */
			readonly opening?: Opening;
		};
	},
	starter: ProcessStarter = nodeStarter,
): ProbeServer {
	const clock = createClock();
	// Hooked before the spawn: a signal that comes while the child is being forked would otherwise take its
	// default action and end this process with the new group left running.
	if (process.platform !== 'win32') hookEndingSignals();
	const server = spawnServer(options.command, {
		env: options.env,
		...(options.cwd === undefined ? {} : {cwd: options.cwd}),
		clock,
		starter,
		processGroup: true,
	});
	if (server.pid === undefined) return {clock, server};
	if (process.platform !== 'win32') trackGroup(server.pid);
	let initialize: ProbeServer['initialize'];
	if (options.initialize !== undefined) {
		const {opening, protocolVersion, clientVersion} = options.initialize;
		const message = openingInitialize(opening ?? defaultOpening(protocolVersion), clientVersion);
		const bytes = Buffer.from(`${JSON.stringify(message)}\n`, 'utf8');
		const tMs = clock.now();
		if (server.write(bytes)) initialize = {message, bytes, tMs};
	}
	// Writing to its stdin does not change the server's fds: the watch still reads the pipes it was given.
	const tree = watchProcessTree(server.pid, {now: () => clock.now()});
	return {clock, server, tree, ...(initialize ? {initialize} : {})};
}

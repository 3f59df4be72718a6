/**
 * One probe of one server for the doctor: `runProbe` (src/probe/probe.ts) with the session meta, a kept
 * capture and the pid bookkeeping that lets `--total-timeout` stop every probe still running.
 */
import {SDK_SCHEMAS} from '../core/jsonrpc/sdk-schemas.js';
import {Session} from '../core/session/session.js';
import type {EnvMode, SessionMeta, SessionSnapshot} from '../core/types.js';
import {runProbe, type HandlerPlan, type ProbeResult} from '../probe/probe.js';
import {openCapture, type OpenCapture} from './capture.js';

/**
 * The pids of the servers the doctor's probes are running right now, so that an overall deadline can
 * SIGKILL them (only processes this run started; each is removed once its probe has returned).
 */
export class ProbeProcesses {
	private readonly live = new Set<number>();

	add(pid: number): void {
		this.live.add(pid);
	}

	delete(pid: number): void {
		this.live.delete(pid);
	}

	/** How many are running. */
	get size(): number {
		return this.live.size;
	}

	/**
	 * SIGKILL every running server and its process group (the probe starts each server in a group of
	 * its own; it then sees the exit, ends what is left of the tree and returns quickly).
	 */
	killAll(): void {
		for (const pid of this.live) {
			for (const target of process.platform === 'win32' ? [pid] : [-pid, pid]) {
				try {
					process.kill(target, 'SIGKILL');
				} catch {
					// Already gone.
				}
			}
		}
	}
}

/** Inputs of {@link probeOnce}. */
export interface ProbeOnceOptions {
	/** Program and arguments (no shell). */
	readonly command: readonly string[];
	/** The server's whole environment. */
	readonly env: Readonly<Record<string, string>>;
	readonly cwd: string;
	/** Per-request wait in ms (`--timeout`); unset: runProbe's defaults (10 s per request, 30 s for initialize). */
	readonly timeoutMs?: number;
	/** Handler requests to make after the lists (`--call`, …); default none. */
	readonly handlers?: HandlerPlan;
	readonly protocolVersion?: string;
	/** Re-probe a silent server with Content-Length framing (runProbe's default: true). */
	readonly contentLengthReprobe: boolean;
	/** The header's `envMode`, `envKeys` (config env names, never values), `name` and tool version. */
	readonly envMode: EnvMode;
	readonly envKeys: readonly string[];
	readonly name: string;
	readonly toolVersion: string;
	/** Keep the capture: the directory (must exist) and the file's name part. Absent: no capture. */
	readonly capture?: {readonly dir: string; readonly name: string};
	readonly processes: ProbeProcesses;
	readonly onLog?: (line: string) => void;
}

/** What {@link probeOnce} returns: the probe result, the final snapshot, the capture path and any capture warning. */
export interface ProbeOnce {
	readonly result: ProbeResult;
	readonly snapshot: SessionSnapshot;
	readonly capture?: string;
	readonly warning?: string;
}

/**
 * Probes the server once (the whole runProbe exchange and R14 shutdown) and keeps the main session's
 * capture when asked. Never throws for what the server does; a capture that cannot be written becomes
 * `warning` and the probe goes on without it.
 */
export async function probeOnce(options: ProbeOnceOptions): Promise<ProbeOnce> {
	let capture: OpenCapture | undefined;
	let warning: string | undefined;
	const pids: number[] = [];
	const baseMeta = {
		tool: {name: 'mcp-wire', version: options.toolVersion},
		node: process.version,
		platform: `${process.platform}-${process.arch}`,
		command: [...options.command],
		cwd: options.cwd,
		envMode: options.envMode,
		envKeys: [...options.envKeys],
		mode: 'probe',
		...(options.protocolVersion === undefined ? {} : {protocolVersion: options.protocolVersion}),
		name: options.name,
	} as const;
	try {
		const result = await runProbe({
			// Given, so that the session (and the pid the total timeout kills) exists from the spawn on;
			// doctor loads the schemas with its own modules, before any timer starts.
			schemas: SDK_SCHEMAS,
			command: options.command,
			env: options.env,
			cwd: options.cwd,
			...(options.timeoutMs === undefined ? {} : {timeoutMs: options.timeoutMs}),
			...(options.handlers === undefined ? {} : {handlers: options.handlers}),
			...(options.protocolVersion === undefined ? {} : {protocolVersion: options.protocolVersion}),
			contentLengthReprobe: options.contentLengthReprobe,
			clientVersion: options.toolVersion,
			...(options.onLog ? {onLog: options.onLog} : {}),
			createSession: (init) => {
				if (init.pid !== undefined) {
					pids.push(init.pid);
					options.processes.add(init.pid);
				}
				const meta: SessionMeta = {
					...baseMeta,
					startedAt: init.startedAt,
					...(init.pid === undefined ? {} : {pid: init.pid}),
				};
				const session = new Session(meta, {schemas: init.schemas});
				if (init.purpose === 'probe' && options.capture) {
					try {
						capture = openCapture(options.capture.dir, options.capture.name, new Date(init.startedAt));
						capture.attach(session);
					} catch (error) {
						capture = undefined;
						warning = `cannot keep the capture in ${options.capture.dir}: ${(error as Error).message}`;
					}
				}
				return session;
			},
		});
		if (capture) warning ??= await capture.close();
		return {
			result,
			snapshot: result.session.getSnapshot(),
			...(capture ? {capture: capture.path} : {}),
			...(warning === undefined ? {} : {warning}),
		};
	} finally {
		for (const pid of pids) options.processes.delete(pid);
	}
}

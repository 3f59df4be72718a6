/**
 * The data model of mcp-wire. Bytes are the source of truth: a capture is a list of chunks (bytes as
 * read from a pipe); frames, findings and the summary are all derived from chunks plus a few process
 * marks, so a saved capture replays to the same result (style.md §1.1).
 *
 * Units used throughout: `offset` and `byteLength` are bytes from the start of one stream; `tMs` is
 * milliseconds since the session started (fractional, sub-millisecond precision).
 */

/** The three stdio streams, named from the server's side: stdin carries client→server bytes. */
export type StreamName = 'stdin' | 'stdout' | 'stderr';

/** Display labels for the streams (C→S, S→C, ERR). */
export const STREAM_LABEL: Readonly<Record<StreamName, string>> = {
	stdin: 'C→S',
	stdout: 'S→C',
	stderr: 'ERR',
};

/**
 * One read from (or write to) a pipe, kept exactly as it crossed.
 * - `seq`: session-wide sequence number, 0-based, in arrival order across all streams.
 * - `offset`: byte offset of `bytes[0]` in its stream (the sum of earlier chunks' lengths).
 * - `tMs`: time the chunk was read, ms since session start.
 */
export interface Chunk {
	readonly seq: number;
	readonly stream: StreamName;
	readonly tMs: number;
	readonly offset: number;
	readonly bytes: Uint8Array;
}

/** How a frame was delimited: newline-delimited JSON (the MCP stdio rule, R1) or LSP Content-Length headers (L1–L6). */
export type Framing = 'newline' | 'content-length';

/** What ended a frame: LF, CR LF, nothing (bytes pending at EOF), or the Content-Length body end. */
export type Terminator = 'lf' | 'crlf' | 'none' | 'length';

/**
 * What a frame is.
 * - `request` / `notification` / `response` / `error`: a JSON-RPC 2.0 message of that kind.
 * - `json`: valid JSON that is not a valid JSON-RPC message (see `invalid-jsonrpc`).
 * - `text`: a line that is not JSON (a stray line on stdout, any stderr line).
 * - `blank`: an empty line (LF or CR LF only).
 */
export type FrameKind = 'request' | 'notification' | 'response' | 'error' | 'json' | 'text' | 'blank';

/** A JSON-RPC id as it appears on the wire (null is invalid in MCP but is recorded as seen). */
export type JsonRpcId = string | number | null;

/**
 * One unit of the wire as framed: a JSON-RPC message, a stray text line, or a blank line.
 *
 * `offset`/`byteLength` cover every byte of the frame in its stream, including a BOM, Content-Length
 * headers and the terminator; `bodyOffset`/`bodyLength` cover the JSON text (or the line text without
 * its terminator). Frames of one stream tile it: each frame starts where the previous one ended.
 */
export interface Frame {
	/** Session-wide index, 0-based, in the order frames completed. */
	readonly index: number;
	readonly stream: StreamName;
	readonly framing: Framing;
	readonly offset: number;
	readonly byteLength: number;
	readonly bodyOffset: number;
	readonly bodyLength: number;
	readonly terminator: Terminator;
	/** Number of LF-terminated lines the frame spans (more than 1 for reassembled pretty-printed JSON). */
	readonly lineCount: number;
	/** Time of the chunk that completed the frame, ms since session start. */
	readonly tMs: number;
	/** Time of the chunk that delivered the frame's first byte, ms since session start. */
	readonly firstTMs: number;
	/** `seq` of the first and last chunk that carried bytes of this frame. */
	readonly firstSeq: number;
	readonly lastSeq: number;
	readonly kind: FrameKind;
	/** The parsed JSON value (absent for `text` and `blank`). */
	readonly message?: unknown;
	/** JSON-RPC method for requests and notifications. */
	readonly method?: string;
	/** JSON-RPC id, when the message has an `id` member. */
	readonly id?: JsonRpcId;
	/**
	 * The id's token as written, only when the id is a number written other than as a plain integer
	 * (`0.0`, `1e0`: F38; JavaScript reads 0, strict clients reject it). Absent otherwise.
	 */
	readonly rawId?: string;
	/** For responses/errors: the method of the request it answers and the latency in ms (set by correlation). */
	readonly answers?: {readonly method: string; readonly requestIndex: number; readonly latencyMs: number};
	/** Line text for `text` frames, decoded as UTF-8 with U+FFFD for invalid bytes (not escaped; escape before display). */
	readonly text?: string;
}

/** Severity follows what breaks a real client (docs/findings.md): error = a shipping client loses a message, hangs or disconnects. */
export type Severity = 'error' | 'warning' | 'info';

/** Every stable finding code (docs/findings.md). A public interface: never rename one. */
export const FINDING_CODES = [
	'stray-output',
	'blank-line',
	'crlf',
	'multiline-json',
	'concatenated-json',
	'content-length-framing',
	'missing-newline',
	'bom',
	'ansi-escape',
	'invalid-utf8',
	'oversize-frame',
	'invalid-json',
	'non-portable-json',
	'unflushed-output',
	'no-response',
	'early-exit',
	'spawn-failed',
	'stderr-merged',
	'slow-response',
	'shutdown-timeout',
	'invalid-jsonrpc',
	'unknown-id',
	'duplicate-response',
	'response-to-notification',
	'unanswered-request',
	'protocol-version',
	'invalid-initialize',
	'ping-error',
	'message-before-initialize',
	'undeclared-capability',
	'message-on-stderr',
	'stdin-inherited',
	'orphaned-process',
	'invalid-result',
	'invalid-tool-name',
	'duplicate-tool-name',
	'invalid-tool-schema',
	'unknown-progress-token',
	'invalid-structured-content',
	'tool-error',
	'string-id-unanswered',
	'pre-initialized-request-rejected',
] as const;

/** A stable finding code. */
export type FindingCode = (typeof FINDING_CODES)[number];

/** Client families whose reaction to a fault is known (docs/protocol.md "Client reactions"). */
export type ClientFamily = 'ts-sdk-v1' | 'ts-sdk-v2' | 'python-sdk' | 'vscode' | 'rmcp' | 'cursor';

/**
 * What a client does with a fault (docs/protocol.md "Client reactions" legend): ok, skip (silently), skip-log, drop-log (valid
 * JSON rejected by schema), hang (awaited message never delivered), fatal (transport closed), corrupt
 * (accepted with U+FFFD), unknown (not established).
 */
export type Reaction = 'ok' | 'skip' | 'skip-log' | 'drop-log' | 'hang' | 'fatal' | 'corrupt' | 'unknown';

/** One client family's reaction to one finding, with a one-line explanation. */
export interface ClientImpact {
	readonly client: ClientFamily;
	readonly reaction: Reaction;
	readonly note: string;
}

/**
 * What a detector reports before the catalog dresses it: code, where, and free-form detail.
 * `offset` is the stream offset of the first byte of evidence; `byteLength` how many bytes of evidence
 * to highlight (0 for findings about absence, such as `no-response`).
 */
export interface FindingDraft {
	readonly code: FindingCode;
	readonly stream: StreamName;
	readonly offset: number;
	readonly byteLength: number;
	readonly frameIndex?: number;
	readonly tMs: number;
	/** Overrides the catalog's default severity (e.g. `oversize-frame` > 10 MiB is an error). */
	readonly severity?: Severity;
	/** Overrides the catalog's default one-line message. */
	readonly message?: string;
	/** Code-specific facts (e.g. `{kind: 'banner'}` for stray-output, `{reason}` for invalid-jsonrpc). */
	readonly detail?: Readonly<Record<string, unknown>>;
	/** `observed` (default) or `inferred` when the evidence is circumstantial (tap-mode buffering). */
	readonly confidence?: 'observed' | 'inferred';
	/**
	 * `derived` (default): recomputed from chunks and marks on replay. `probe`: only the live probe could
	 * observe it (spawn-failed, no-response, a Content-Length re-probe); replay keeps the recorded one.
	 */
	readonly origin?: 'derived' | 'probe';
}

/**
 * A client family's outcome for the whole session.
 * - `works`: connects, and every request it made was answered in a form it reads; nothing it would
 *   log or lose (a line it skips silently is no harm).
 * - `degraded`: works, but it logs errors (a toast in Claude Desktop), drops a message nobody waits
 *   for, or reads text with U+FFFD in place of bad bytes.
 * - `fails`: it does not connect, a request it waits for never arrives (hang), or its transport closes.
 * - `unknown`: a reaction that decides it is not established (a `?` cell), or the session shows too
 *   little (no handshake seen yet).
 */
export type ClientOutcomeKind = 'works' | 'degraded' | 'fails' | 'unknown';

/**
 * One client family's outcome (the `clients` list of the summary record).
 * - `decidedBy`: the finding codes that decide `outcome`, first seen first (empty for `works` without
 *   findings, and for outcomes decided by the handshake alone).
 * - `note`: one line: what happens (`connects; tools/list hangs: …`).
 * - `connects`: whether its handshake succeeds; `null` when the session does not show it.
 * - `toolsListed`: whether its `tools/list` is answered in a form it reads; `null` when the session
 *   sent no `tools/list` (or does not show it).
 */
export interface ClientOutcome {
	readonly client: ClientFamily;
	readonly outcome: ClientOutcomeKind;
	readonly decidedBy: readonly FindingCode[];
	readonly note: string;
	readonly connects: boolean | null;
	readonly toolsListed: boolean | null;
}

/** A finding as presented: the draft plus the catalog's severity, message, hint and client impact. */
export interface Finding extends FindingDraft {
	readonly severity: Severity;
	readonly message: string;
	readonly hint: string;
	readonly impact: readonly ClientImpact[];
	/** Rule ids in docs/protocol.md (R1, J9, O4…). */
	readonly rules: readonly string[];
}

/**
 * Process and probe events that are not bytes but that findings depend on. They are recorded in the
 * capture so that replay derives the same findings.
 * - `stdin-closed`: the client closed the server's stdin (EOF sent).
 * - `eof`: a stream reached end of file.
 * - `signal-sent`: the client sent SIGTERM/SIGKILL during shutdown.
 * - `timeout`: the client gave up waiting for a response to `id` after `timeoutMs`.
 * - `phase`: a probe phase note (e.g. `reprobe-content-length`).
 * - `evidence`: what the server's processes were doing ({@link ProcessEvidence}).
 * - `observed`: what only a live run can see, recorded so that replay derives the same finding: the
 *   command did not start (`spawn-failed`), `initialize` got no reply in the wait (`no-reply`), or a
 *   fresh process answered Content-Length-framed input (`reprobe-answered`), or a second short session sent
 *   `logging/setLevel` between the `initialize` result and `initialized` as VS Code does, and saw what the
 *   server did with it (`pre-initialized-request`, F47); `offset` is the stdout byte count then, `detail`
 *   what was seen (the finding's detail).
 * - `reaped`: the probe ended processes of the server's tree that outlived it (`pids`, with `signal`).
 * - `gap`: `length` bytes of `stream` from `offset` crossed the wire but are not in the capture (the
 *   capture fell behind its lag limit, a write failed, the writer did not finish in time): replay
 *   skips that range, resyncs framing after it and derives no finding from the cut.
 */
/** What an `observed` mark saw ({@link Mark}). */
export type ObservedKind = 'spawn-failed' | 'no-reply' | 'reprobe-answered' | 'pre-initialized-request';

export type Mark =
	| {readonly type: 'stdin-closed'; readonly tMs: number}
	| {readonly type: 'eof'; readonly stream: StreamName; readonly tMs: number}
	| {readonly type: 'signal-sent'; readonly signal: 'SIGTERM' | 'SIGKILL'; readonly tMs: number}
	| {
			readonly type: 'timeout';
			readonly id: JsonRpcId;
			readonly method: string;
			readonly timeoutMs: number;
			readonly tMs: number;
	  }
	| {readonly type: 'phase'; readonly name: string; readonly tMs: number}
	| {readonly type: 'evidence'; readonly evidence: ProcessEvidence; readonly tMs: number}
	| {
			readonly type: 'observed';
			readonly what: ObservedKind;
			readonly offset: number;
			readonly detail: Readonly<Record<string, unknown>>;
			readonly tMs: number;
	  }
	| {
			readonly type: 'reaped';
			readonly pids: readonly number[];
			readonly signal: 'SIGTERM' | 'SIGKILL';
			readonly tMs: number;
	  }
	| {
			readonly type: 'gap';
			readonly stream: StreamName;
			readonly offset: number;
			readonly length: number;
			readonly reason: CaptureGapReason;
			readonly tMs: number;
	  };

/**
 * Why bytes are missing from a capture: `lag` (the capture writer fell the lag limit behind forwarding),
 * `write-failed` (the file could not be written: EFBIG, ENOSPC…), `writer-timeout` (the writer had not
 * written everything when the tap had to exit), `writer-failed` (the writer thread died),
 * `unrecorded` (a reader found a hole no gap record explains).
 */
export type CaptureGapReason = 'lag' | 'write-failed' | 'writer-timeout' | 'writer-failed' | 'unrecorded';

/**
 * What one process of the server's tree was doing, in one word (from Linux `/proc`, all threads):
 * - `reading-stdin`: a thread blocked in `read` on fd 0, and fd 0 is the session's stdin pipe;
 * - `idle`: the main thread waits with no timeout (an event loop with no timer, a lock): only input can wake it;
 * - `timer`: it sleeps (`nanosleep`) or its event loop waits with a timeout (a timer is pending);
 * - `waiting-child`: the main thread is in `wait4`/`waitid`;
 * - `busy`: a thread is running or in uninterruptible (disk) sleep;
 * - `network`: a thread is in `connect`, or a TCP connection is still in SYN_SENT;
 * - `reading`: the main thread is blocked reading another fd (a child's pipe, a socket, a file);
 * - `writing`: blocked writing stdout or stderr (the pipe is full);
 * - `zombie` / `stopped`; `unknown`: none of the above could be told.
 */
export type ProcessActivity =
	| 'reading-stdin'
	| 'idle'
	| 'timer'
	| 'waiting-child'
	| 'busy'
	| 'network'
	| 'reading'
	| 'writing'
	| 'zombie'
	| 'stopped'
	| 'unknown';

/** The session's three pipes, as a process holds them: the fds on which it has each one open. */
export interface PipeHolding {
	readonly stdin?: readonly number[];
	readonly stdout?: readonly number[];
	readonly stderr?: readonly number[];
}

/** One process of the server's tree at an observation ({@link ProcessEvidence}). */
export interface ProcessObservation {
	readonly pid: number;
	/** Parent pid (`/proc/<pid>/stat` field 4); 1 (or a subreaper) once orphaned. */
	readonly ppid?: number;
	/** argv from `/proc/<pid>/cmdline` (at most 8 words of at most 200 characters each). */
	readonly command?: readonly string[];
	/** Executable name (`comm`, at most 15 bytes). */
	readonly comm?: string;
	/** State letter of the main thread: R, S, D, Z, T… */
	readonly state?: string;
	/** Kernel wait channel of the main thread, e.g. `pipe_read`, `do_epoll_wait`. */
	readonly wchan?: string;
	/** The main thread's blocking system call: name when known, first argument when it is an fd, timeout in ms (null: none). */
	readonly syscall?: {readonly name?: string; readonly fd?: number; readonly timeoutMs?: number | null};
	readonly activity: ProcessActivity;
	/** Number of threads. */
	readonly threads?: number;
	/** When it started, in ms since session start (10 ms resolution; negative: before the session). */
	readonly startTMs?: number;
	/** Which of the session's pipes it holds, and on which fds. */
	readonly holds?: PipeHolding;
	/** Remote addresses of its TCP connections still in SYN_SENT. */
	readonly connecting?: readonly string[];
}

/**
 * What the server's process tree was doing at one moment, recorded in the capture as an `evidence` mark so
 * that rules stay pure and a replay judges on the same facts (docs/json-records.md#mark). Taken by the probe and the tap
 * at every stall (a request outstanding past an idle mark, and at the timeout), at shutdown and after the
 * exit.
 * - `reason`: `stall` (a request outstanding past the idle mark), `timeout` (the client's limit reached),
 *   `shutdown` (before stdin is closed), `exit` (after the spawned process exited: who is left).
 * - `observed`: false where nothing could be read (another OS, /proc not readable); `note` says why.
 * - `rootPid` / `rootAlive`: the spawned process and whether it was still alive.
 * - `processes`: the spawned process first, then its descendants; after the exit, every process still
 *   holding one of the session's pipes or seen earlier in the tree.
 * - `sameStdoutStderr`: the spawned process's fd 1 and fd 2 are the same pipe (stderr merged into stdout).
 * - `openPipes`: after the exit, the output pipes that had not reached EOF (a survivor holds them).
 */
export interface ProcessEvidence {
	readonly reason: 'stall' | 'timeout' | 'shutdown' | 'exit';
	readonly observed: boolean;
	readonly note?: string;
	readonly rootPid?: number;
	readonly rootAlive?: boolean;
	readonly processes: readonly ProcessObservation[];
	readonly sameStdoutStderr?: boolean;
	readonly openPipes?: readonly ('stdout' | 'stderr')[];
}

/**
 * The `phase` mark a probe records when the user stopped it (quit or re-ran the TUI) before its scripted
 * exchange was over: requests still open then were cut off by the user, not left unanswered by the
 * server, so no `unanswered-request` is derived for them.
 */
export const USER_STOP_PHASE = 'stopped-by-user';

/**
 * Names of `phase` marks that the tap records and the renderers show (probe phases: tap/probe.ts
 * `PROBE_PHASES`). A forwarded signal is `signal-forwarded:<SIGNAL>`.
 */
export const TAP_PHASE = {
	/** The client closed its end of our stdout; the tap closed the server's to match. */
	clientClosedStdout: 'client-closed-stdout',
	/** The server outlived a forwarded signal by `MCP_WIRE_KILL_AFTER_MS`; the tap sent SIGKILL. */
	sigkillAfterGrace: 'sigkill-after-grace',
	/**
	 * The server exited, but a process it started still held its stdout or stderr: the tap stopped
	 * reading them and ended with the server (docs/cli.md#tap).
	 */
	outputGivenUp: 'output-given-up',
} as const;

/** How the server process ended: exit code or signal, and when. */
export interface ExitInfo {
	readonly code: number | null;
	readonly signal: string | null;
	readonly tMs: number;
}

/** Which environment the server got: the MCP SDK allow-list (`sdk-default`), everything (`inherit`), or a client's rule. */
export type EnvMode = 'sdk-default' | 'inherit' | 'gui-minimal' | 'client-full' | 'client-allowlist';

/** Facts about the session, written once in the header record. */
export interface SessionMeta {
	readonly tool: {readonly name: 'mcp-wire'; readonly version: string};
	readonly node: string;
	readonly platform: string;
	readonly command: readonly string[];
	readonly cwd?: string;
	readonly envMode: EnvMode;
	/** Names of the env vars passed explicitly with --env (values are never recorded). */
	readonly envKeys?: readonly string[];
	/**
	 * Names of variables known to decide whether a server can reach the network or its registry (CA bundles,
	 * proxies, registries: `ENV_THAT_MATTERS` in process/spawn.ts) that the capturing user's environment sets
	 * and the server's environment (`envMode`) did not get. Names only, never values. Absent when none.
	 */
	readonly envStripped?: readonly string[];
	/** ISO-8601 wall clock at tMs = 0. */
	readonly startedAt: string;
	readonly pid?: number;
	/** `probe`, `tap`, or `replay`. */
	readonly mode: 'probe' | 'tap' | 'replay';
	readonly protocolVersion?: string;
	readonly name?: string;
	/**
	 * The home directory of the user who captured the session (`$HOME`), so a report made later, on
	 * another machine or by another user, redacts the capturing user's paths (docs/cli.md#report). Absent in older
	 * captures: the viewer's own is used then.
	 */
	readonly home?: string;
	/** The user name of who captured the session (`$USER`, else the account name); see {@link SessionMeta.home}. */
	readonly user?: string;
	/**
	 * The capture file a tap writes (absolute path), so `attach` can read what its live socket did not
	 * deliver before the tap ended (a slow viewer, docs/cli.md#report). Absent without a capture and outside taps.
	 */
	readonly capturePath?: string;
}

/**
 * The overall outcome, in agreement with the client outcomes (core/clients/outcome.ts `verdictOf`):
 * `fail` when at least one mainstream client fails; `warn` when none does but a finding above info
 * remains (or a niche client fails or is degraded); `stopped` when it would be `ok` but the user stopped
 * the probe before its exchange was over (a {@link USER_STOP_PHASE} mark: no verdict over what was never
 * exercised); `ok` otherwise.
 */
export type Verdict = 'ok' | 'warn' | 'fail' | 'stopped';

/** Per-stream totals. */
export interface StreamTotals {
	readonly bytes: number;
	readonly chunks: number;
	readonly frames: number;
}

/** The last record of a session: verdict, counts per code, and totals. */
export interface Summary {
	readonly verdict: Verdict;
	readonly findings: readonly {readonly code: FindingCode; readonly severity: Severity; readonly count: number}[];
	readonly errors: number;
	readonly warnings: number;
	readonly infos: number;
	readonly streams: Readonly<Record<StreamName, StreamTotals>>;
	readonly durationMs: number;
	readonly exit?: ExitInfo;
	/** The era the server speaks: `legacy` (initialize handshake) or `modern` (2026-07-28, server/discover). */
	readonly era?: 'legacy' | 'modern';
	readonly serverInfo?: {readonly name?: string; readonly version?: string};
	/**
	 * What the client says it is in its `initialize` request (`params.clientInfo`): in a tap capture the
	 * real client (`claude-code`, `cursor-vscode`…), in a probe mcp-wire itself. Absent without one.
	 */
	readonly clientInfo?: {readonly name?: string; readonly version?: string};
	readonly protocolVersion?: string;
	readonly tools?: number;
	readonly prompts?: number;
	readonly resources?: number;
	/** What each client family does with this session (core/clients/outcome.ts), in display order. */
	readonly clients?: readonly ClientOutcome[];
	/**
	 * What the client asked of the server (core/session/exercised.ts): the verdict covers only this. Absent
	 * in summaries recorded before it was added.
	 */
	readonly exercised?: Exercised;
	/**
	 * Present only when the session is not whole (a replayed capture): `cutShort`, it ends without the
	 * server's exit (the tap was killed, the file was cut, or the tap is still running); `missingBytes` in
	 * `gaps` gap marks, bytes that crossed the wire but are not in the capture. The verdict covers only
	 * what is there.
	 */
	readonly incomplete?: {readonly cutShort: boolean; readonly missingBytes: number; readonly gaps: number};
	/**
	 * Present only for a replayed tap capture whose end record has `stalls` (README, capture format): the
	 * tap stopped reading a source `count` times, `totalMs` ms in all (the longest `longestMs` ms, rounded),
	 * while its capture had no room, so the capture could keep every byte; `timedOut` of those waits
	 * reached `tap --capture-wait` and their read is a gap instead. Times in the capture include the waits.
	 */
	readonly stalls?: {
		readonly count: number;
		readonly totalMs: number;
		readonly longestMs: number;
		readonly timedOut: number;
	};
}

/**
 * What a session exercised (docs/json-records.md#summary): `requests`, every request the client sent
 * (stdin), counted per method, in first-sent order; `called` the tools it called (`tools/call`
 * `params.name`), `read` the resources it read (`resources/read` `params.uri`), `prompts` the prompts it got
 * (`prompts/get` `params.name`): distinct, in first-seen order, at most 64 each.
 */
export interface Exercised {
	readonly requests: Readonly<Record<string, number>>;
	readonly called: readonly string[];
	readonly read: readonly string[];
	readonly prompts: readonly string[];
}

/** Everything a session emits, in order. Renderers observe this stream; the NDJSON records mirror it. */
export type SessionEvent =
	| {readonly type: 'chunk'; readonly chunk: Chunk}
	| {readonly type: 'frame'; readonly frame: Frame}
	| {readonly type: 'finding'; readonly finding: Finding}
	| {readonly type: 'mark'; readonly mark: Mark}
	| {readonly type: 'exit'; readonly exit: ExitInfo}
	| {readonly type: 'summary'; readonly summary: Summary};

/**
 * A read-only view of a session at one moment: what every renderer (plain log, NDJSON, report, TUI)
 * presents. Snapshots are immutable; a live session hands out a new one after each batch of changes.
 */
export interface SessionSnapshot {
	readonly meta: SessionMeta;
	/** All frames of all streams, in `index` order. */
	readonly frames: readonly Frame[];
	/** All findings, in the order they were found. */
	readonly findings: readonly Finding[];
	readonly marks: readonly Mark[];
	readonly exit?: ExitInfo;
	/** The summary as of now (final once `isEnded`). */
	readonly summary: Summary;
	/** True once the session has ended (process exited and streams closed, or a replay finished). */
	readonly isEnded: boolean;
	/** Bytes `[offset, offset + length)` of a stream, clamped to what was captured. */
	bytes(stream: StreamName, offset: number, length: number): Uint8Array;
	/** Total bytes captured on a stream. */
	streamLength(stream: StreamName): number;
	/** The chunks that carried a frame's bytes (how many reads delivered it, and when). */
	chunksOf(frame: Frame): readonly Chunk[];
	/** The last `maxLines` stderr lines, decoded as UTF-8 (not escaped). */
	stderrTail(maxLines: number): readonly string[];
}

/** A live or replayed session as an external store (React `useSyncExternalStore` shape). */
export interface SessionStore {
	getSnapshot(): SessionSnapshot;
	/** Calls `listener` after changes (batched by the caller as it sees fit); returns an unsubscribe function. */
	subscribe(listener: () => void): () => void;
}

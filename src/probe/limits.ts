import {USER_STOP_PHASE} from '../core/types.js';

// The probe's waits and limits, in one place: each unit of the probe (the exchange, the stall looks, the
// shutdown, the re-probe) reads its own from here.

/** How many bytes of a Content-Length re-probe's reply are kept in the finding (`detail.replyHead`). */
export const REPLY_HEAD_BYTES = 96;
/**
 * When the probe looks at the server's processes while a request is outstanding (ms after it was sent):
 * the stall marks. After the last one, every {@link STALL_EVERY_MS} until the reply or the timeout.
 * Two looks in a row that both find the tree blocked reading stdin (or a helper holding and reading it,
 * `stdin-inherited`, or waiting for input after writing its whole reply without the line end) end the
 * wait early: nothing the probe can wait for will change that.
 */
export const STALL_MARKS_MS = [1_000, 2_000, 3_000, 5_000] as const;
/** Interval of the later stall looks (ms). */
export const STALL_EVERY_MS = 5_000;
/** Two looks count as two "final" observations (the probe stops early) only this far apart, in ms. */
export const FINAL_LOOK_SPACING_MS = 500;
/**
 * How long stdout must stay quiet after a reply framed with Content-Length (header block and a whole JSON
 * body, no line end after it) before the probe stops waiting (ms). The framer holds such a frame until the
 * next byte or EOF (an LF right after the body belongs to it), and an LSP-framed server writes nothing
 * more until the next request: without this the wait runs to its limit (30 s for initialize) and the
 * frame shows at EOF. The verdict is the one the full wait gives: the same frame, at EOF after the
 * shutdown, with its `content-length-framing` finding. A server that sends the body's line end later
 * than this is taken as one that does not send it.
 */
export const CONTENT_LENGTH_SETTLE_MS = 500;
/** The Content-Length re-probe waits at most this long (ms), or the probe timeout if shorter. */
export const REPROBE_TIMEOUT_MS = 5_000;
/**
 * Shutdown grace periods (ms), as the TS SDK ≥ 1.24 `StdioClientTransport.close()` and the Python SDK do
 * (R14): close stdin, wait `afterStdinClose`, SIGTERM, wait `afterSigterm`, SIGKILL, wait `afterSigkill`.
 * After the exit, the probe keeps reading stdout/stderr up to `drainAfterExit` for the last bytes and EOF
 * (a grandchild can hold a pipe open; the probe then stops reading). When the server closed its stdout
 * before the probe began the shutdown, the probe first waits up to `exitAfterStdoutEof` for it to exit
 * on its own (an early exit, not a reaction to stdin closing). A reply, during `afterStdinClose`, to a request
 * the probe had stopped waiting for restarts that grace from the reply (the server was finishing work a client
 * would still have waited for; see `shutdown.ts`).
 */
export const SHUTDOWN_MS = {
	afterStdinClose: 2_000,
	afterSigterm: 2_000,
	afterSigkill: 2_000,
	drainAfterExit: 2_000,
	exitAfterStdoutEof: 500,
} as const;
/** How long the probe lets the rest of the tree go after SIGTERM before SIGKILL (ms). */
export const REAP_GRACE_MS = 1_000;
/** After the output pipes reached EOF, how long children that hold no pipe may take to exit (ms). */
export const EXIT_SETTLE_MS = 500;
/** How long the session's copy of an exit waits for stderr's EOF (the traceback read after the exit), in ms. */
export const EXIT_HOLD_MS = 500;
/**
 * How long after the spawn the session (given as loading schemas) waits for the exchange to end before it
 * is built anyway (ms): a slow server's frames still show live, a fast one's exchange is not held up by it.
 */
export const SESSION_DEFER_MS = 1_000;
/** After an abort, how long the server has to exit on its closed stdin before SIGKILL (ms). */
export const ABORT_KILL_MS = 1_000;
/** First id of the requests the interactive mode (the TUI) sends. */
export const INTERACTIVE_FIRST_ID = 100;

/**
 * Phase marks the probe records (`{type: 'phase', name}`), in the order they can occur:
 * `modern-era` (initialize was rejected naming 2026-07-28; the session then does not blame the rejection,
 * R19), `stopped-early` (a wait ended before its limit: the server was seen blocked reading stdin, or a
 * helper reading it, or waiting for input with its whole reply written but for the line end, twice in a row), `content-length-reply` (a wait ended before its limit: the reply
 * came framed with Content-Length, see {@link CONTENT_LENGTH_SETTLE_MS}), `shutdown` (the R14 sequence
 * starts), `reprobe-content-length` (first mark of a re-probe session), `pre-initialized-check` (first mark of
 * the session that checks VS Code's opening order, F47), `stopped-by-user`
 * ({@link USER_STOP_PHASE}: the signal aborted the probe before its exchange was over), and, at any time,
 * `output-stalled` / `output-resumed` (our own output was backed up: the server was not read meanwhile,
 * see `ProbeOptions.outputBacklog`).
 */
export const PROBE_PHASES = [
	'modern-era',
	'stopped-early',
	'content-length-reply',
	'shutdown',
	'reprobe-content-length',
	'pre-initialized-check',
	USER_STOP_PHASE,
	'output-stalled',
	'output-resumed',
] as const;

import type {SdkSchemas} from '../core/jsonrpc/sdk-checks.js';
import type {Session} from '../core/session/session.js';
import type {Frame} from '../core/types.js';
import type {ProcessStarter} from '../process/spawn.js';
import {sendRequest} from './exchange-request.js';
import {defaultOpening, openingInitialize} from './opening.js';
import {startProbeServer} from './probe-start.js';
import type {ProbeOptions} from './probe-types.js';
import {isMessageKind, type Reply} from './reply-watcher.js';
import {linkServer} from './server-link.js';
import {shutdownServer} from './shutdown.js';

/** The first JSON frame the server wrote on stdout, if any. */
export const findServerMessage = (session: Session): Frame | undefined =>
	session.getSnapshot().frames.find((f) => f.stream === 'stdout' && isMessageKind(f));

/** What a Content-Length re-probe found: its session (finished), and the reply when one came. */
export interface ReprobeResult {
	readonly session: Session;
	readonly reply?: Reply;
}

/**
 * A fresh process, `initialize` framed with `Content-Length` headers (L1–L6), the same opening's
 * `initialize` as the main probe's; the reply is the first JSON frame on stdout (waited for at most
 * `timeoutMs`, then the R14 shutdown). Its session is marked `reprobe-content-length` and finished.
 */
export async function contentLengthReprobe(
	options: ProbeOptions,
	timeoutMs: number,
	schemas: SdkSchemas,
	starter: ProcessStarter,
): Promise<ReprobeResult> {
	const link = linkServer(options, 'reprobe-content-length', startProbeServer(options, starter), schemas);
	const session = await link.ready;
	const started = await link.server.started;
	if (!started.ok) {
		link.detach();
		session.finish(link.clock.now());
		return {session};
	}
	session.mark({type: 'phase', name: 'reprobe-content-length', tMs: link.clock.now()});
	const opening = options.opening ?? defaultOpening(options.protocolVersion);
	const outcome = await sendRequest(
		link,
		openingInitialize(opening, options.clientVersion ?? session.meta.tool.version),
		timeoutMs,
		{framing: 'content-length', anyJson: true},
	);
	await shutdownServer(link);
	session.finish(link.clock.now());
	const answered = outcome.type === 'frame' ? outcome.frame : findServerMessage(session);
	return answered ? {session, reply: answered} : {session};
}

import type {SessionFacts} from '../findings/engine.js';
import type {SessionMeta} from '../types.js';
import type {Conversation} from './conversation.js';
import type {Timeline} from './timeline.js';

/** Where {@link ruleFacts} reads from: the session's parts. */
export interface RuleFactSources {
	readonly meta: SessionMeta;
	/** The server's runtime guessed from the command (for runtime-specific fixes), e.g. `python`. */
	readonly runtime: string | undefined;
	readonly conversation: Conversation;
	readonly timeline: Timeline;
	/** The last `maxLines` stderr lines as text (the session's store). */
	readonly stderrTail: (maxLines: number) => string[];
}

/**
 * The read-only view of a session's derived state that the rules get (findings/engine.ts
 * {@link SessionFacts}): live getters over the parts, so a rule always reads the state as of now. Made once
 * per session.
 */
export function ruleFacts(sources: RuleFactSources): SessionFacts {
	const {conversation, timeline} = sources;
	const lifecycle = conversation.lifecycle;
	return {
		meta: sources.meta,
		get offeredVersion() {
			return lifecycle.offeredVersion;
		},
		get negotiatedVersion() {
			return lifecycle.negotiatedVersion;
		},
		get handshakeDone() {
			return lifecycle.handshakeDone;
		},
		get serverCapabilities() {
			return lifecycle.serverCapabilities;
		},
		get stdinClosedAt() {
			return timeline.stdinClosedAt;
		},
		get firstReplyTMs() {
			return conversation.firstReplyTMs;
		},
		get exit() {
			return timeline.exitInfo;
		},
		runtime: sources.runtime,
		outstanding: (stream) => conversation.outstanding(stream),
		streamLength: (stream) => timeline.streamLength(stream),
		stderrTail: sources.stderrTail,
	};
}

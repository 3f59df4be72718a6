import type {Mark} from '../../types.js';

/**
 * What the marks say about how the session was ended (R14), for the rules that judge the exit: the
 * `signal-sent` marks (the client sent SIGTERM or SIGKILL after stdin closed) and whether the tap forwarded a
 * client's signal (`phase` `signal-forwarded:<SIGNAL>`: the client ended the server, not the server itself).
 * Feed it every mark ({@link ShutdownMarks.mark}); one per rule instance.
 */
export class ShutdownMarks {
	/** The last signal the client sent, once one was. */
	lastSignal: 'SIGTERM' | 'SIGKILL' | undefined;
	/** True once the tap forwarded a client's signal to the server. */
	clientSignalled = false;

	/** Take in one mark. */
	mark(mark: Mark): void {
		if (mark.type === 'signal-sent') this.lastSignal = mark.signal;
		else if (mark.type === 'phase' && mark.name.startsWith('signal-forwarded')) this.clientSignalled = true;
	}
}

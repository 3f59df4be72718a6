import {BoundedMap} from '../../bounded-map.js';
import type {Correlation} from '../../jsonrpc/correlator.js';
import type {IdMapKey} from '../../jsonrpc/id-key.js';
import type {Frame} from '../../types.js';

/** How many of the server's own answered requests are remembered to recognise an answer to an answer. */
const SERVER_ANSWERED_KEPT = 1024;

/**
 * The server's own requests (on stdout) that the client answered, to recognise a response on stdout that
 * answers the client's answer (J5: a dispatcher that replies to every message with an id). Few: a server sends
 * few requests, so the client's traffic costs nothing here. `note` every correlated message in order;
 * `answering` gives, for an unmatched response on stdout, the method of the server's request whose id it
 * carries (undefined otherwise).
 */
export function serverRequestsAnswered(): {
	note(correlation: Correlation | undefined): void;
	answering(frame: Frame, correlation: Correlation | undefined): string | undefined;
} {
	const answered = new BoundedMap<IdMapKey, string>(SERVER_ANSWERED_KEPT);
	return {
		note(correlation) {
			if (correlation?.type !== 'answered' || correlation.request.frame.stream !== 'stdout') return;
			const id = correlation.request.frame.id;
			if (id !== undefined && id !== null) answered.set(id, correlation.request.method);
		},
		answering: (frame, correlation) =>
			frame.stream === 'stdout' && correlation?.type === 'unmatched' && correlation.id !== null
				? answered.get(correlation.id)
				: undefined,
	};
}

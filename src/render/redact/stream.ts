import type {Chunk, SessionEvent, SessionMeta, StreamName} from '../../core/types.js';
import {latin1, maskInPlace, mergeRanges, utf8AsLatin1} from './mask.js';
import {isSecretName, pemSpan} from './patterns.js';
import {PayloadScanner} from './payload-scanner.js';
import {Redactor} from './redactor.js';
import {STREAMS} from './snapshot.js';
import type {RedactionCounts, RedactOptions} from './types.js';

/**
 * Redacts NDJSON events in order (`--json --redact`). A chunk that ends inside a run of token characters
 * (the first part of a secret cut by a read) is held until the next chunk of its stream shows how the run
 * ends, so both parts are masked; the events after it wait with it, so the order is kept.
 */
export interface EventRedactor {
	/** The header's facts, redacted (call first: argument values it hides are then masked in the streams). */
	meta(meta: SessionMeta): SessionMeta;
	/**
	 * Takes one event; returns the events now ready, redacted and in order (none while a chunk is held):
	 * chunk bytes masked same length (offsets and lengths unchanged), frames, findings, marks and the
	 * summary as text.
	 */
	push(event: SessionEvent): SessionEvent[];
	/** Releases every held event (the session ended): call once, after the last {@link push}. */
	end(): SessionEvent[];
	/** What was redacted so far, by kind. */
	counts(): RedactionCounts;
}

/** Characters that can continue a token or secret value across a chunk boundary. */
/** A byte (latin1 unit) that {@link TOKEN_RUN_START} takes. */
const TOKEN_BYTE = /[A-Za-z0-9_.~+/=-]/;
/** A chunk ending in one of these may have cut a secret (`123456789:` of a bot token, `user:` of a URL): it is held. */
const HOLD_BYTE = /[A-Za-z0-9_.~+/=:@-]/;

/**
 * The run of token characters that ends `text` (`[A-Za-z0-9_.~+/=-]+$`), found by walking back from
 * the end: the regex form retries from every start of a long run and is quadratic (a 256 KiB run took
 * minutes). Undefined when `text` does not end in one.
 */
function tokenRunAtEnd(text: string): {readonly index: number; readonly run: string} | undefined {
	let start = text.length;
	while (start > 0 && TOKEN_BYTE.test(text[start - 1]!)) start--;
	return start === text.length ? undefined : {index: start, run: text.slice(start)};
}
const TOKEN_RUN_START = /^[A-Za-z0-9_.~+/=-]+/;
const SHAPE_PREFIX =
	/^(?:gh[pousr]_|github_pat_|xox[abposre]-|xapp-|AKIA|ASIA|sk-ant-|sk-proj-|sk-|[srp]k_(?:live|test)_|npm_|hf_|glpat-|eyJ|AIza)/;
const SECRET_CONTEXT_END =
	/(?:(?<name>[A-Za-z_][A-Za-z0-9_.-]*)(?:=["']?|["']?[ \t]*:[ \t]*["']?|[ \t]+)|(?<scheme>Bearer|Basic)[ \t]+)$/i;
const PARTIAL_HOME_END = /(?:\/home\/|\/Users\/|Users(?:\\+|\/))[^/\\\s"'`:;,*<>|]*$/;
const HOME_PREFIX = /^(?:\/home\/|\/Users\/|Users(?:\\+|\/))/;
/** Bytes of the previous chunk kept to catch secrets split across reads. */
const CARRY_BYTES = 512;
/** Events that may wait behind a held chunk before it is released as masked so far. */
const MAX_HELD_EVENTS = 1024;

/** What the streaming redactor carries from one chunk of a stream to the next. */
export interface StreamCarry {
	/** The last {@link CARRY_BYTES} of the stream so far (latin1), scanned again with the next chunk. */
	tail: string;
	/** The stream's end may have begun a secret: the token run continuing it at the next chunk's head is masked. */
	isCarrying: boolean;
	/** Inside a PEM block. */
	isInPem: boolean;
	readonly scanner: PayloadScanner;
	/** Strings the payload scanner had masked when last counted. */
	strings: number;
}

/** A fresh {@link StreamCarry}: nothing seen yet. */
export function newStreamCarry(): StreamCarry {
	return {tail: '', isCarrying: false, isInPem: false, scanner: new PayloadScanner(), strings: 0};
}

/** A chunk record not yet released: its masked bytes may still gain masks from the next chunk. */
export interface Held {
	readonly out: Uint8Array;
	/** Stream offset of its first byte. */
	readonly offset: number;
	isFinal: boolean;
}

/**
 * Creates a streaming redactor for `--json --redact`: chunk bytes are masked as they come, same length,
 * so the dump's offsets, lengths and framing stay true and it replays to the same frames. A secret split
 * across two reads is caught by scanning the last 512 bytes of the previous chunk with the new one; the
 * end of a chunk that could be the start of a secret (a key prefix such as `ghp_`, a value after
 * `TOKEN=`/`"apiKey":"`/`Bearer `, the start of a known secret value, a partial `/home/NAME`) is masked
 * before the rest arrives, and the token run continuing it at the start of the next chunk too. What can
 * still leak: at most the first 2 characters of a known literal secret value split right after them.
 */
export function createEventRedactor(options: RedactOptions = {}): EventRedactor {
	const redactor = new Redactor(options);
	const isPayloads = options.payloads === true;
	const carry = Object.fromEntries(STREAMS.map((stream) => [stream, newStreamCarry()])) as Record<
		StreamName,
		StreamCarry
	>;
	const queue = createHoldQueue();

	return {
		meta: (meta) => redactor.meta(meta, {count: true}),
		push(event) {
			if (event.type === 'chunk') {
				const stream = event.chunk.stream;
				const masked = maskChunk(event.chunk, carry[stream], queue.heldOn(stream), redactor, isPayloads);
				// The held chunks stay held while this one is all token (the run goes on) and they fit
				// in the carried window; else they are final now.
				const chain = queue.heldOn(stream);
				const span = chain.length === 0 ? 0 : event.chunk.offset + event.chunk.bytes.length - chain[0]!.offset;
				if (!(masked.endsInRun && masked.continuesRun) || span > CARRY_BYTES) queue.finalize(stream);
				const entry: Held = {out: masked.chunk.bytes, offset: event.chunk.offset, isFinal: !masked.endsInRun};
				if (masked.endsInRun) queue.hold(stream, entry);
				queue.push({type: 'chunk', chunk: masked.chunk}, entry);
			} else {
				if (event.type === 'mark' && event.mark.type === 'eof') queue.finalize(event.mark.stream);
				if (event.type === 'exit' || event.type === 'summary') for (const stream of STREAMS) queue.finalize(stream);
				queue.push(redactEvent(redactor, event));
			}

			// Held back for long (another stream kept talking): let it go as masked so far.
			if (queue.length > MAX_HELD_EVENTS) for (const stream of STREAMS) queue.finalize(stream);
			return queue.release();
		},
		end() {
			for (const stream of STREAMS) queue.finalize(stream);
			return queue.release();
		},
		counts: () => redactor.getCounts(),
	};
}

/** The events of a streaming redactor in order, each released once no held chunk comes before it. */
export interface HoldQueue {
	/** The chunks held on `stream`, oldest first: the last one ends inside a token run that began in the first. */
	heldOn(stream: StreamName): readonly Held[];
	/** Hold `held` (a chunk of `stream` that ended inside a token run) until {@link finalize}. */
	hold(stream: StreamName, held: Held): void;
	/** Queue a redacted event; `held`, its chunk record when that may still gain masks. */
	push(event: SessionEvent, held?: Held): void;
	/** The held chunks of `stream` take no more masks: they and what waits behind them may go. */
	finalize(stream: StreamName): void;
	/** The events queued and not yet released. */
	readonly length: number;
	/** Take the events now ready: those before the first chunk still held, in order. */
	release(): SessionEvent[];
}

/** A {@link HoldQueue}, empty. */
export function createHoldQueue(): HoldQueue {
	const held: Record<StreamName, Held[]> = {stdin: [], stdout: [], stderr: []};
	const queue: Array<{readonly event: SessionEvent; readonly held?: Held}> = [];
	return {
		heldOn: (stream) => held[stream],
		hold(stream, entry) {
			held[stream].push(entry);
		},
		push(event, entry) {
			queue.push(entry === undefined ? {event} : {event, held: entry});
		},
		finalize(stream) {
			for (const waiting of held[stream]) waiting.isFinal = true;
			held[stream] = [];
		},
		get length() {
			return queue.length;
		},
		release() {
			const ready: SessionEvent[] = [];
			while (queue.length > 0 && (queue[0]!.held?.isFinal ?? true)) ready.push(queue.shift()!.event);
			return ready;
		},
	};
}

/**
 * Mask one chunk of a stream, same length: the secrets found in the carried tail and the chunk together
 * (a range reaching back into `waiting`, the chunks still held on the stream, masks its part there too),
 * PEM blocks, what the chunk's end may begin ({@link maskCarried}) and, with `isPayloads`, the payload
 * strings of stdin and stdout. Updates `own` for the next chunk and the redactor's counts.
 * @returns the masked chunk; `endsInRun`, its last byte may continue into the next chunk (it is held);
 *   `continuesRun`, every byte of it could be part of one token run
 */
export function maskChunk(
	chunk: Chunk,
	own: StreamCarry,
	waiting: readonly Held[],
	redactor: Redactor,
	isPayloads: boolean,
): {chunk: Chunk; endsInRun: boolean; continuesRun: boolean} {
	const current = latin1(chunk.bytes);
	redactor.learnFromBytes(own.tail + current);
	const combined = own.tail + current;
	const base = own.tail.length;
	const out = new Uint8Array(chunk.bytes);
	const pem = pemSpan(combined, own.isInPem);
	own.isInPem = pem.isOpen;
	for (const range of mergeRanges([...redactor.findRanges(combined, true), ...pem.ranges])) {
		// A range reaching back into held chunks masks its part there too (a secret cut by reads).
		if (range.start + range.keep < base) {
			for (const earlier of waiting) {
				const at = earlier.offset - (chunk.offset - base);
				maskInPlace(earlier.out, range.start + range.keep - at, Math.min(range.end, base) - at);
			}
		}

		if (range.end <= base) {
			continue;
		}

		redactor.addCount(range.kind, 1);
		maskInPlace(out, Math.max(range.start + range.keep, base) - base, range.end - base);
	}

	maskCarried(own, current, combined, base, out, redactor.knownSecrets());
	if (isPayloads && chunk.stream !== 'stderr') {
		for (const [start, end] of own.scanner.scan(chunk.bytes)) {
			maskInPlace(out, start, end);
		}

		redactor.addCount('payload', own.scanner.strings - own.strings);
		own.strings = own.scanner.strings;
	}

	own.tail = combined.slice(-CARRY_BYTES);
	const last = combined.at(-1);
	let whole = current.length > 0;
	for (let i = 0; i < current.length && whole; i++) whole = HOLD_BYTE.test(current[i]!);
	return {
		chunk: {...chunk, bytes: out},
		endsInRun: last !== undefined && HOLD_BYTE.test(last),
		continuesRun: whole,
	};
}

/**
 * What a chunk's end may begin, masked in `out` before the rest arrives (in case the stream ends there):
 * a key prefix (`ghp_`), a value after a secret name or `Bearer `, a partial home path, the start (3
 * characters or more) of one of `knownSecrets`; and the token run continuing such a start at the head of
 * this chunk (`own.isCarrying`, updated here).
 * @param current the chunk as latin1; `combined` the carried tail and it; `base` where it starts in `combined`
 */
export function maskCarried(
	own: {isCarrying: boolean},
	current: string,
	combined: string,
	base: number,
	out: Uint8Array,
	knownSecrets: Iterable<string>,
): void {
	if (own.isCarrying) {
		const run = TOKEN_RUN_START.exec(current);
		if (run !== null) {
			maskInPlace(out, 0, run[0].length);
		}
	}

	own.isCarrying = own.isCarrying && TOKEN_RUN_START.exec(current)?.[0].length === current.length;
	const run = tokenRunAtEnd(combined);
	if (run !== undefined) {
		const prefix = SHAPE_PREFIX.exec(run.run);
		const context = SECRET_CONTEXT_END.exec(combined.slice(Math.max(0, run.index - 80), run.index));
		const isNamed =
			context !== null && (context.groups?.['scheme'] !== undefined || isSecretName(context.groups?.['name'] ?? ''));
		if (prefix !== null || isNamed) {
			maskInPlace(out, Math.max(run.index + (prefix?.[0].length ?? 0), base) - base, combined.length - base);
			own.isCarrying = true;
		}
	}

	const home = PARTIAL_HOME_END.exec(combined);
	if (home !== null) {
		const nameStart = home.index + HOME_PREFIX.exec(home[0])![0].length;
		maskInPlace(out, Math.max(nameStart, base) - base, combined.length - base);
	}

	for (const literal of knownSecrets) {
		const needle = utf8AsLatin1(literal);
		for (let k = Math.min(needle.length - 1, combined.length); k >= 3; k--) {
			if (combined.endsWith(needle.slice(0, k))) {
				maskInPlace(out, Math.max(combined.length - k, base) - base, combined.length - base);
				break;
			}
		}
	}
}

/** A frame, finding, mark or summary with its text redacted; chunks, exits and headers as they are. */
export function redactEvent(redactor: Redactor, event: SessionEvent): SessionEvent {
	switch (event.type) {
		case 'frame': {
			return {type: 'frame', frame: redactor.frame(event.frame)};
		}

		case 'finding': {
			return {type: 'finding', finding: redactor.finding(event.finding)};
		}

		case 'mark': {
			return {type: 'mark', mark: redactor.mark(event.mark)};
		}

		case 'summary': {
			return {type: 'summary', summary: redactor.summary(event.summary)};
		}

		default: {
			return event;
		}
	}
}

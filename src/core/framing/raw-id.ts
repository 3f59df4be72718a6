/**
 * The raw JSON token of a message's top-level `"id"` member, read from the frame's text (F38: an id
 * written `0.0` parses to the integer 0 in JavaScript, but strict clients judge the token: Python's
 * strict `int` and Rust's `serde_json` reject it).
 *
 * Input: `text`, the frame body as a string (one JSON object). Output: the token exactly as written
 * (`0.0`, `1e0`, `7`), or undefined when there is no depth-1 `"id"` key, its value is a string, or the
 * text is not an object. One string-aware pass that stops at the member; never throws. Callers run it only when the
 * parsed id is a number, so the hot path stays one `JSON.parse`.
 */
export function rawIdToken(text: string): string | undefined {
	const n = text.length;
	let depth = 0;
	let i = 0;
	// At depth 1 inside the top-level object, `expectKey` is true where a member name may start.
	let expectKey = false;
	while (i < n) {
		const c = text.charCodeAt(i);
		if (c === 0x22 /* " */) {
			const start = i;
			i++;
			while (i < n) {
				const d = text.charCodeAt(i);
				if (d === 0x5c /* \ */) i += 2;
				else if (d === 0x22) break;
				else i++;
			}
			i++;
			if (depth === 1 && expectKey) {
				expectKey = false;
				if (text.slice(start, i) === '"id"') {
					let j = i;
					while (j < n && isSpace(text.charCodeAt(j))) j++;
					if (text.charCodeAt(j) !== 0x3a /* : */) return undefined;
					j++;
					while (j < n && isSpace(text.charCodeAt(j))) j++;
					if (text.charCodeAt(j) === 0x22) return undefined;
					let k = j;
					while (k < n && !isSpace(text.charCodeAt(k)) && text.charCodeAt(k) !== 0x2c && text.charCodeAt(k) !== 0x7d)
						k++;
					return k > j ? text.slice(j, k) : undefined;
				}
			}
			continue;
		}
		if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
			depth++;
			if (depth === 1) {
				if (c !== 0x7b) return undefined;
				expectKey = true;
			}
		} else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
			depth--;
			if (depth === 0) return undefined;
		} else if (c === 0x2c /* , */ && depth === 1) {
			expectKey = true;
		}
		i++;
	}
	return undefined;
}

function isSpace(c: number): boolean {
	return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * The raw id token worth keeping for a parsed message: only when `message` is an object whose `id` is a
 * number and the token is not the plain integer JavaScript would print (`0.0`, `1e0`, `-0`). Otherwise
 * undefined. `text` is the frame body.
 */
export function nonCanonicalRawId(message: unknown, text: string): string | undefined {
	if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
	const id = (message as Record<string, unknown>)['id'];
	if (typeof id !== 'number' || !Object.hasOwn(message, 'id')) return undefined;
	const token = rawIdToken(text);
	return token === undefined || token === String(id) ? undefined : token;
}

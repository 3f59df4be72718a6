import {Buffer} from 'node:buffer';

/** Top-level members whose string values `--redact-payloads` keeps (the JSON-RPC envelope). */
export const ENVELOPE = new Set(['jsonrpc', 'method', 'id']);

/**
 * Finds the contents of JSON string values in a byte stream, incrementally (chunk by chunk), for
 * `--redact-payloads`. Keys are kept, and so are the values of top-level `jsonrpc`, `method` and `id`.
 * A raw CR or LF inside a string (impossible in JSON) resets the state, so stray text lines cannot leave
 * it confused for long; Content-Length headers carry no quotes.
 */
export class PayloadScanner {
	private isInString = false;
	private isEscape = false;
	private readonly stack: number[] = [];
	private isExpectingKey = false;
	private isKey = false;
	private isExempt = false;
	private keyChars = '';
	private lastKey = '';
	private maskedInString = 0;
	strings = 0;

	/** Scans `bytes` and returns the ranges (indexes into `bytes`) to mask. */
	scan(bytes: Uint8Array): Array<[number, number]> {
		const ranges: Array<[number, number]> = [];
		const mark = (i: number): void => {
			this.maskedInString++;
			const last = ranges.at(-1);
			if (last !== undefined && last[1] === i) {
				last[1] = i + 1;
			} else {
				ranges.push([i, i + 1]);
			}
		};

		for (let i = 0; i < bytes.length; i++) {
			const byte = bytes[i]!;
			if (this.isInString) {
				if (byte === 0x0a || byte === 0x0d) {
					this.reset();
				} else if (this.isEscape) {
					this.isEscape = false;
					this.take(byte, i, mark);
				} else if (byte === 0x5c) {
					this.isEscape = true;
					this.take(byte, i, mark);
				} else if (byte === 0x22) {
					this.isInString = false;
					if (this.isKey) {
						this.lastKey = this.keyChars;
					} else if (this.maskedInString > 0) {
						this.strings++;
					}
				} else {
					this.take(byte, i, mark);
				}

				continue;
			}

			switch (byte) {
				case 0x22: {
					const top = this.stack.at(-1);
					this.isInString = true;
					this.isKey = top === 0x7b && this.isExpectingKey;
					this.isExempt = !this.isKey && this.stack.length === 1 && top === 0x7b && ENVELOPE.has(this.lastKey);
					this.keyChars = '';
					this.maskedInString = 0;
					break;
				}

				case 0x7b: {
					this.stack.push(byte);
					this.isExpectingKey = true;
					break;
				}

				case 0x5b: {
					this.stack.push(byte);
					this.isExpectingKey = false;
					break;
				}

				case 0x7d:
				case 0x5d: {
					this.stack.pop();
					this.isExpectingKey = false;
					if (this.stack.length === 0) {
						this.lastKey = '';
					}

					break;
				}

				case 0x3a: {
					this.isExpectingKey = false;
					break;
				}

				case 0x2c: {
					this.isExpectingKey = this.stack.at(-1) === 0x7b;
					break;
				}

				default:
			}
		}

		return ranges;
	}

	private take(byte: number, i: number, mark: (i: number) => void): void {
		if (this.isKey) {
			if (this.keyChars.length < 64) {
				this.keyChars += String.fromCharCode(byte);
			}
		} else if (!this.isExempt) {
			mark(i);
		}
	}

	private reset(): void {
		this.isInString = false;
		this.isEscape = false;
		this.stack.length = 0;
		this.isExpectingKey = false;
		this.lastKey = '';
	}
}

/** Replaces every JSON string value (not keys; not the top-level `jsonrpc`/`method`/`id`) with `*` × its UTF-8 length. */
export function maskPayloadValue(value: unknown, depth = 0, key?: string): unknown {
	if (typeof value === 'string') {
		return depth === 1 && key !== undefined && ENVELOPE.has(key) ? value : '*'.repeat(Buffer.byteLength(value, 'utf8'));
	}

	if (Array.isArray(value)) {
		return value.map((item) => maskPayloadValue(item, depth + 1));
	}

	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(
			Object.entries(value).map(([name, item]) => [name, maskPayloadValue(item, depth + 1, name)]),
		);
	}

	return value;
}

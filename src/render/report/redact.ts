import {Buffer} from 'node:buffer';
import {groupDigits} from '../../core/bytes/glyphs.js';
import type {
	Chunk,
	Finding,
	Frame,
	SessionEvent,
	SessionMeta,
	SessionSnapshot,
	StreamName,
	Summary,
} from '../../core/types.js';

/**
 * Redaction for everything that leaves the machine (issue 5 item 2): the support report, and `--json`
 * with `--redact`. On by default in the report.
 *
 * What is redacted, wherever it appears (command, cwd, stderr, frame contents, hex excerpts, findings):
 * - the home directory (`~` in text) and the user name (`<user>`), also inferred from `/home/NAME`,
 *   `/Users/NAME` and `C:\Users\NAME` paths;
 * - values whose name looks secret ({@link isSecretName}: token, key, secret, password, auth, cookie,
 *   credential): `KEY=VALUE`, `--api-key=xyz`, `--token xyz`, `"apiKey": "xyz"`, `token: xyz`,
 *   `Cookie:` headers, `user:password@` in URLs, and the values of secret-named environment variables
 *   given in {@link RedactOptions.env} (masked wherever that value shows up again);
 * - bearer/basic credentials and well-known key shapes: GitHub `ghp_…`/`gho_…`/`ghu_…`/`ghs_…`/`ghr_…`/
 *   `github_pat_…`, Slack `xox?-…`/`xapp-…`, AWS `AKIA…`/`ASIA…`, OpenAI/Anthropic-style `sk-…`
 *   (`sk-ant-…`, `sk-proj-…`), Google `AIza…`, JWTs (`eyJ….eyJ….…`), Stripe `sk_live_…`/`rk_…`, npm
 *   `npm_…`, Hugging Face `hf_…`, GitLab `glpat-…`, Slack webhook URLs, a bare 40-character AWS
 *   secret access key, PEM private key blocks, and base64 lines alone on a line (a PEM body split over
 *   stderr lines or chunks);
 * - with `payloads`, every JSON string value in stdin/stdout frames (keys and the top-level `jsonrpc`,
 *   `method` and `id` stay, so the exchange can still be read).
 *
 * Bytes keep their length: a masked byte becomes `*` (0x2A) and LF/CR are never masked, so stream offsets,
 * frame byte counts and line structure stay exactly as captured (a redacted `--json` dump replays to the
 * same frames). A public prefix (`ghp_`, `sk-ant-`, `/home/`) stays visible. In text (the command, stderr
 * lines, messages) secrets become `<redacted>` and paths `~` / `<user>`.
 */

/** Inputs of redaction. All optional: with none, only shapes and secret-named values are caught. */
export interface RedactOptions {
	/** The home directory of the user who ran the server (`os.homedir()`); shown as `~`. */
	readonly home?: string;
	/** The user name (`os.userInfo().username`); shown as `<user>` (skipped for generic names such as `node`, `root`). */
	readonly user?: string;
	/** The server's environment: values of secret-named variables are masked wherever they appear. */
	readonly env?: Readonly<Record<string, string | undefined>>;
	/** Further literal secret values to mask wherever they appear (at least 4 characters). */
	readonly secrets?: readonly string[];
	/** `--redact-payloads`: mask every JSON string value in stdin/stdout frames, keeping lengths. */
	readonly payloads?: boolean;
}

/** What a masked range was. */
export type RedactionKind =
	| 'secret-value'
	| 'bearer'
	| 'github-token'
	| 'slack-token'
	| 'aws-key'
	| 'sk-key'
	| 'google-key'
	| 'jwt'
	| 'stripe-key'
	| 'npm-token'
	| 'hf-token'
	| 'gitlab-token'
	| 'slack-webhook'
	| 'aws-secret'
	| 'private-key'
	| 'home'
	| 'user'
	| 'payload';

/** Occurrences redacted, by kind (absent kinds: none). */
export type RedactionCounts = Readonly<Partial<Record<RedactionKind, number>>>;

/** Human names of the kinds, singular and plural, in the order the report lists them. */
const KIND_LABEL: Readonly<Record<RedactionKind, readonly [string, string]>> = {
	'secret-value': ['secret value', 'secret values'],
	bearer: ['bearer/basic credential', 'bearer/basic credentials'],
	'github-token': ['GitHub token', 'GitHub tokens'],
	'slack-token': ['Slack token', 'Slack tokens'],
	'aws-key': ['AWS access key id', 'AWS access key ids'],
	'sk-key': ['`sk-` API key', '`sk-` API keys'],
	'google-key': ['Google API key', 'Google API keys'],
	jwt: ['JWT', 'JWTs'],
	'stripe-key': ['Stripe key', 'Stripe keys'],
	'npm-token': ['npm token', 'npm tokens'],
	'hf-token': ['Hugging Face token', 'Hugging Face tokens'],
	'gitlab-token': ['GitLab token', 'GitLab tokens'],
	'slack-webhook': ['Slack webhook URL', 'Slack webhook URLs'],
	'aws-secret': ['AWS secret access key', 'AWS secret access keys'],
	'private-key': ['private key block', 'private key blocks'],
	home: ['home directory path', 'home directory paths'],
	user: ['user name', 'user names'],
	payload: ['JSON string value', 'JSON string values'],
};

/** A range to mask in a string (UTF-16 units in text mode, bytes in byte mode): `[start, end)`, the first `keep` units kept. */
interface Range {
	start: number;
	end: number;
	kind: RedactionKind;
	keep: number;
}

const SECRET_LAST_WORDS = new Set([
	'token',
	'key',
	'secret',
	'password',
	'passwd',
	'passphrase',
	'auth',
	'authorization',
	'cookie',
	'credential',
	'credentials',
	'apikey',
	'pat',
]);
const SECRET_ANY_WORDS = new Set([
	'secret',
	'password',
	'passwd',
	'passphrase',
	'credential',
	'credentials',
	'apikey',
	'authorization',
	'cookie',
]);
const SECRET_ENDINGS = [
	'token',
	'secret',
	'password',
	'passwd',
	'apikey',
	'accesskey',
	'privatekey',
	'cookie',
	'credential',
	'credentials',
	'authorization',
];

/**
 * True when a variable, option or JSON member name looks like it holds a secret: its last word is one of
 * token, key, secret, password, passwd, passphrase, auth, authorization, cookie, credential(s), apikey,
 * pat; or any word is secret/password/credential/authorization/cookie; or, run together, it ends in
 * token/secret/password/apikey/accesskey/privatekey/cookie/credential. Words split at `_`, `-`, `.`, and
 * camelCase. So `GITHUB_TOKEN`, `--api-key`, `apiKey`, `Authorization`, `OPENAI_API_KEY`, `ACCESSTOKEN`
 * are secret; `maxTokens`, `tokenCount`, `author`, `SSH_AUTH_SOCK`, `PWD`, `keyboard` are not.
 */
export function isSecretName(name: string): boolean {
	const words = name
		.replaceAll(/([a-z0-9])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter((word) => word !== '');
	const last = words.at(-1);
	if (last === undefined) {
		return false;
	}

	if (SECRET_LAST_WORDS.has(last) || words.some((word) => SECRET_ANY_WORDS.has(word))) {
		return true;
	}

	const compact = words.join('');
	return SECRET_ENDINGS.some((ending) => compact.endsWith(ending));
}

/** Generic user names that identify nobody (container and CI users); never masked on their own. */
const GENERIC_USERS = new Set([
	'root',
	'node',
	'app',
	'user',
	'admin',
	'ubuntu',
	'runner',
	'dev',
	'test',
	'www-data',
	'nobody',
	'vscode',
	'codespace',
	'default',
	'public',
	'shared',
	'guest',
]);

interface ShapeRule {
	readonly kind: RedactionKind;
	readonly re: RegExp;
	/** Units kept at the start of the match (a public prefix). */
	readonly keep: (match: string) => number;
	/** Mask only this capture group (needs the `d` flag). */
	readonly group?: number;
}

const SHAPES: readonly ShapeRule[] = [
	{
		kind: 'private-key',
		re: /(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)([\s\S]*?)(-----END [A-Z0-9 ]*PRIVATE KEY-----)/dg,
		keep: () => 0,
		group: 2,
	},
	{
		kind: 'github-token',
		re: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
		keep: (m) => (m.startsWith('github_pat_') ? 11 : 4),
	},
	{
		kind: 'slack-token',
		re: /(?<![A-Za-z0-9_])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{8,}/g,
		keep: (m) => m.indexOf('-') + 1,
	},
	{kind: 'aws-key', re: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, keep: () => 4},
	{
		kind: 'sk-key',
		re: /(?<![A-Za-z0-9_-])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g,
		keep: (m) => (m.startsWith('sk-ant-') ? 7 : m.startsWith('sk-proj-') ? 8 : 3),
	},
	{kind: 'google-key', re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}/g, keep: () => 4},
	{kind: 'jwt', re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}/g, keep: () => 3},
	{
		kind: 'stripe-key',
		re: /(?<![A-Za-z0-9_])(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g,
		keep: (m) => m.indexOf('_', 3) + 1,
	},
	{kind: 'npm-token', re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{30,}/g, keep: () => 4},
	{kind: 'hf-token', re: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}/g, keep: () => 3},
	{kind: 'gitlab-token', re: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g, keep: () => 6},
	{
		kind: 'slack-webhook',
		re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_/-]+)/dg,
		keep: () => 0,
		group: 1,
	},
	// An AWS secret access key without a telling name: exactly 40 of [A-Za-z0-9/+] with an upper, a
	// lower case letter and a digit (hex digests have no upper case). Starts only where a run starts.
	{
		kind: 'aws-secret',
		re: /(?<![A-Za-z0-9/+=_-])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[0-9])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_-])/g,
		keep: () => 0,
	},
	{kind: 'bearer', re: /\b(?:Bearer|Basic)[ \t]+([A-Za-z0-9._~+/=-]{8,})/dgi, keep: () => 0, group: 1},
	{kind: 'secret-value', re: /\b(?:Set-)?Cookie[ \t]*:[ \t]*([^\r\n"\\]+)/dgi, keep: () => 0, group: 1},
	{kind: 'secret-value', re: /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/\s:@"'\\]+:([^/\s@"'\\]+)@/dg, keep: () => 0, group: 1},
];

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/g;
const PEM_END = '-----END ';

/**
 * Where a PEM private key block that is still open at the end of `subject` starts masking, given
 * whether one was open at its start (a block split over stderr lines, each redacted on its own, or
 * over chunks): returns the ranges to mask and whether a block is open at the end.
 */
function pemSpan(subject: string, isOpen: boolean): {ranges: Range[]; isOpen: boolean} {
	const ranges: Range[] = [];
	let at = 0;
	let open = isOpen;
	for (;;) {
		if (open) {
			const end = subject.indexOf(PEM_END, at);
			ranges.push({start: at, end: end === -1 ? subject.length : end, kind: 'private-key', keep: 0});
			if (end === -1) return {ranges, isOpen: true};
			open = false;
			at = end + PEM_END.length;
		}
		PEM_BEGIN.lastIndex = at;
		const begin = PEM_BEGIN.exec(subject);
		if (begin === null) return {ranges, isOpen: false};
		at = begin.index + begin[0].length;
		open = true;
	}
}

/** Name-based rules: group `name` is checked with {@link isSecretName}, group `value` is masked. */
const NAMED: readonly RegExp[] = [
	// KEY=VALUE, --api-key=xyz, ?token=xyz
	/(?<![A-Za-z0-9_])(?<name>[A-Za-z_][A-Za-z0-9_.-]*)=(?:"(?<value>[^"\r\n]*)"|'(?<value2>[^'\r\n]*)'|(?<value3>[^\s"'&;,\\]+))/dg,
	// "apiKey": "xyz", 'token': 'xyz', token: xyz, X-Api-Key: xyz
	/(?<![A-Za-z0-9_])(?<q>["']?)(?<name>[A-Za-z_][A-Za-z0-9_.-]*)\k<q>[ \t]*:[ \t]*(?:"(?<value>[^"\\\r\n]*(?:\\.[^"\\\r\n]*)*)"|'(?<value2>[^'\r\n]*)'|(?!(?:Bearer|Basic)\b)(?<value3>[^\s"',;{}[\]\\]+))/dg,
	// {\"token\":\"xyz\"}: JSON inside a JSON string (a logged request)
	/\\"(?<name>[A-Za-z_][A-Za-z0-9_.-]*)\\"[ \t]*:[ \t]*\\"(?<value>[^"\\\r\n]*(?:\\[^"][^"\\\r\n]*)*)\\"/dg,
	// --token xyz
	/(?<![A-Za-z0-9_-])--?(?<name>[A-Za-z][A-Za-z0-9_.-]*)[ \t]+(?<value>[^\s"'\\-][^\s"'\\]*)/dg,
];

const INFERRED_HOME =
	/(?:\/home\/|\/Users\/|(?<![A-Za-z])[A-Za-z]:(?:\\\\|\\|\/)(?:Users|Documents and Settings)(?:\\\\|\\|\/))([^/\\\s"'`:;,*<>|]+)/dg;

/**
 * Whether a value found under a secret-looking name is worth masking everywhere else too: at least 8
 * characters, no whitespace, not a placeholder (`<key>`, `value`, `xxxx`, `${VAR}`), and holding a digit or
 * being at least 16 characters long.
 */
function looksLikeSecretValue(value: string): boolean {
	if (
		value.length < 8 ||
		/\s|\uFFFD/.test(value) ||
		/^[<[{$%]|^(?:x+|\*+|\.+)$/i.test(value) ||
		/value|example|placeholder|your[-_]/i.test(value)
	) {
		return false;
	}

	return /\d/.test(value) || value.length >= 16;
}

function escapeRegExp(text: string): string {
	return text.replaceAll(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`);
}

/** Bytes as a string with one UTF-16 unit per byte (ISO-8859-1), so string indexes are byte offsets. */
function latin1(bytes: Uint8Array): string {
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** A JS string as its UTF-8 bytes in {@link latin1} form, for matching inside byte strings. */
function utf8AsLatin1(text: string): string {
	return Buffer.from(text, 'utf8').toString('latin1');
}

/** Sorts and merges overlapping ranges; the earliest (then longest) range's kind and prefix win. */
function mergeRanges(ranges: readonly Range[]): Range[] {
	const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
	const merged: Range[] = [];
	for (const range of sorted) {
		const last = merged.at(-1);
		if (last !== undefined && range.start < last.end) {
			last.end = Math.max(last.end, range.end);
			continue;
		}

		merged.push({...range});
	}

	return merged;
}

function bump(counts: Partial<Record<RedactionKind, number>>, kind: RedactionKind, by = 1): void {
	counts[kind] = (counts[kind] ?? 0) + by;
}

/** Mask `[start + keep, end)` of `bytes` in place with `*`, leaving LF and CR. */
function maskInPlace(bytes: Uint8Array, start: number, end: number): void {
	for (let i = Math.max(0, start); i < Math.min(end, bytes.length); i++) {
		if (bytes[i] !== 0x0a && bytes[i] !== 0x0d) {
			bytes[i] = 0x2a;
		}
	}
}

/** Top-level members whose string values `--redact-payloads` keeps (the JSON-RPC envelope). */
const ENVELOPE = new Set(['jsonrpc', 'method', 'id']);

/**
 * Finds the contents of JSON string values in a byte stream, incrementally (chunk by chunk), for
 * `--redact-payloads`. Keys are kept, and so are the values of top-level `jsonrpc`, `method` and `id`.
 * A raw CR or LF inside a string (impossible in JSON) resets the state, so stray text lines cannot leave
 * it confused for long; Content-Length headers carry no quotes.
 */
class PayloadScanner {
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
function maskPayloadValue(value: unknown, depth = 0, key?: string): unknown {
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

/**
 * The redaction engine: finds what to mask in text or bytes and replaces it. Stateful only in the literal
 * secrets it has learned (from {@link RedactOptions}, from redacted command arguments, and from
 * secret-named values seen in streams) and in its counts.
 */
export class Redactor {
	private readonly literals = new Set<string>();
	private readonly home: string | undefined;
	private readonly homeVariants: readonly string[];
	private readonly user: string | undefined;
	private readonly counts: Partial<Record<RedactionKind, number>> = {};
	/** A PEM private key block began in an earlier text() call and has not ended (lines redacted one by one). */
	private isInPem = false;
	readonly options: RedactOptions;

	constructor(options: RedactOptions = {}) {
		this.options = options;
		const home = options.home?.replace(/[/\\]+$/, '');
		this.home = home !== undefined && home.length >= 2 ? home : undefined;
		this.homeVariants =
			this.home === undefined
				? []
				: [...new Set([this.home, this.home.replaceAll('\\', '/'), this.home.replaceAll('\\', '\\\\')])];
		const user = options.user;
		this.user = user !== undefined && user.length >= 3 && !GENERIC_USERS.has(user.toLowerCase()) ? user : undefined;
		for (const [name, value] of Object.entries(options.env ?? {})) {
			if (value !== undefined && isSecretName(name)) {
				this.learn(value);
			}
		}

		for (const secret of options.secrets ?? []) {
			this.learn(secret);
		}
	}

	/** Remember a literal secret (at least 4 characters, not just whitespace) to mask wherever it appears. */
	learn(value: string): void {
		if (value.length >= 4 && value.trim() !== '') {
			this.literals.add(value);
		}
	}

	/** The literal secret values known so far (from options, the command, and secret-named values seen). */
	knownSecrets(): readonly string[] {
		return [...this.literals];
	}

	/** Counts of everything redacted with `count: true` so far. */
	getCounts(): RedactionCounts {
		return {...this.counts};
	}

	/** Adds counts (e.g. payload strings counted by a scanner). */
	addCount(kind: RedactionKind, by: number): void {
		if (by > 0) {
			bump(this.counts, kind, by);
		}
	}

	/**
	 * Every range to mask in `subject`. `isBytes`: `subject` is a byte string ({@link latin1}), so literals
	 * are matched as their UTF-8 bytes and the home directory keeps its parent path (`/home/`).
	 */
	findRanges(subject: string, isBytes: boolean): Range[] {
		const ranges: Range[] = [];
		for (const rule of SHAPES) {
			for (const match of subject.matchAll(rule.re)) {
				if (rule.group === undefined) {
					ranges.push({
						start: match.index,
						end: match.index + match[0].length,
						kind: rule.kind,
						keep: rule.keep(match[0]),
					});
				} else {
					const span = match.indices?.[rule.group];
					if (span !== undefined && span[1] > span[0]) {
						ranges.push({start: span[0], end: span[1], kind: rule.kind, keep: 0});
					}
				}
			}
		}

		ranges.push(...this.namedRanges(subject));
		for (const literal of this.literals) {
			const needle = isBytes ? utf8AsLatin1(literal) : literal;
			for (let at = subject.indexOf(needle); at !== -1; at = subject.indexOf(needle, at + needle.length)) {
				ranges.push({start: at, end: at + needle.length, kind: 'secret-value', keep: 0});
			}
		}

		for (const variant of this.homeVariants) {
			const needle = isBytes ? utf8AsLatin1(variant) : variant;
			const re = new RegExp(`${escapeRegExp(needle)}(?![A-Za-z0-9_.-])`, 'g');
			const keep = isBytes ? Math.max(needle.lastIndexOf('/'), needle.lastIndexOf('\\')) + 1 : 0;
			for (const match of subject.matchAll(re)) {
				ranges.push({start: match.index, end: match.index + needle.length, kind: 'home', keep});
			}
		}

		for (const match of subject.matchAll(INFERRED_HOME)) {
			const span = match.indices?.[1];
			const name = match[1] ?? '';
			if (span !== undefined && name !== '<user>' && !/^\*+$/.test(name) && !GENERIC_USERS.has(name.toLowerCase())) {
				ranges.push({start: span[0], end: span[1], kind: 'user', keep: 0});
			}
		}

		if (this.user !== undefined) {
			const needle = isBytes ? utf8AsLatin1(this.user) : this.user;
			const re = new RegExp(`(?<![A-Za-z0-9_.-])${escapeRegExp(needle)}(?![A-Za-z0-9_-])`, 'g');
			for (const match of subject.matchAll(re)) {
				ranges.push({start: match.index, end: match.index + needle.length, kind: 'user', keep: 0});
			}
		}

		return ranges;
	}

	/** Ranges of values under secret-looking names (see {@link NAMED}). */
	private namedRanges(subject: string): Range[] {
		const ranges: Range[] = [];
		for (const re of NAMED) {
			for (const match of subject.matchAll(re)) {
				const groups = match.groups ?? {};
				if (!isSecretName(groups['name'] ?? '')) {
					continue;
				}

				const indices = match.indices?.groups ?? {};
				const span = indices['value'] ?? indices['value2'] ?? indices['value3'];
				if (span !== undefined && span[1] > span[0]) {
					ranges.push({start: span[0], end: span[1], kind: 'secret-value', keep: 0});
				}
			}
		}

		return ranges;
	}

	/**
	 * Learns the values of secret-named assignments found in a byte string (e.g. `API_KEY=…` on stderr),
	 * so the same value is masked where it shows up without its name (only values that look like secrets:
	 * see {@link looksLikeSecretValue}, so usage text such as `--api-key value` teaches nothing).
	 */
	learnFromBytes(subject: string): void {
		for (const range of this.namedRanges(subject)) {
			const value = Buffer.from(subject.slice(range.start, range.end), 'latin1').toString('utf8');
			if (looksLikeSecretValue(value)) {
				this.learn(value);
			}
		}
	}

	/**
	 * Redacts text for display: secrets → `<redacted>` (a known public prefix kept: `ghp_<redacted>`),
	 * the home directory → `~`, the user name → `<user>`.
	 * @param options `count`: add what was found to the counts (use it once per source, not per view).
	 */
	text(text: string, options: {readonly count?: boolean} = {}): string {
		if (text === '') {
			return text;
		}

		const pem = pemSpan(text, this.isInPem);
		this.isInPem = pem.isOpen;
		const ranges = mergeRanges([...this.findRanges(text, false), ...pem.ranges]);
		if (ranges.length === 0) {
			return text;
		}

		let out = '';
		let at = 0;
		for (const range of ranges) {
			if (options.count === true) {
				bump(this.counts, range.kind);
			}

			out += text.slice(at, range.start);
			const replacement =
				range.kind === 'home'
					? '~'
					: range.kind === 'user'
						? '<user>'
						: `${text.slice(range.start, range.start + range.keep)}<redacted>`;
			out += replacement;
			at = range.end;
		}

		return out + text.slice(at);
	}

	/**
	 * Redacts a parsed JSON value or a finding's detail: every string through {@link text}, and a string or
	 * number under a secret-looking member name becomes `<redacted>`. Object keys are kept.
	 */
	value(value: unknown, name?: string): unknown {
		if (
			name !== undefined &&
			isSecretName(name) &&
			(typeof value === 'string' || typeof value === 'number') &&
			value !== ''
		) {
			return '<redacted>';
		}

		if (typeof value === 'string') {
			return this.text(value);
		}

		if (Array.isArray(value)) {
			return value.map((item) => this.value(item));
		}

		if (typeof value === 'object' && value !== null) {
			return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.value(item, key)]));
		}

		return value;
	}

	/**
	 * Redacts a command line (program and arguments): the argument after a secret-named flag
	 * (`--token xyz`) becomes `<redacted>`, and each argument goes through {@link text} (`--api-key=xyz`,
	 * `KEY=VALUE`, shapes, paths). The redacted values are learned, so they are masked in the streams too.
	 * @param options `count` as in {@link text}.
	 */
	command(args: readonly string[], options: {readonly count?: boolean} = {}): string[] {
		const out: string[] = [];
		let isSecretNext = false;
		for (const arg of args) {
			if (isSecretNext && !arg.startsWith('-')) {
				isSecretNext = false;
				this.learn(arg);
				if (options.count === true) {
					bump(this.counts, 'secret-value');
				}

				out.push('<redacted>');
				continue;
			}

			isSecretNext = false;
			const flag = /^--?([A-Za-z][A-Za-z0-9_.-]*)$/.exec(arg);
			if (flag !== null && isSecretName(flag[1]!)) {
				isSecretNext = true;
			}

			for (const range of this.namedRanges(arg)) {
				this.learn(arg.slice(range.start, range.end));
			}

			out.push(this.text(arg, options));
		}

		return out;
	}

	/**
	 * Masks bytes, same length: every masked byte becomes `*` (LF and CR stay). Used on whole streams.
	 * @param payloads also mask JSON string values (a fresh {@link PayloadScanner} over `bytes`).
	 * @param options `count` as in {@link text}.
	 * @returns a new array; the input is not changed.
	 */
	bytes(bytes: Uint8Array, payloads: boolean, options: {readonly count?: boolean} = {}): Uint8Array {
		const out = new Uint8Array(bytes);
		const subject = latin1(bytes);
		for (const range of mergeRanges(this.findRanges(subject, true))) {
			if (options.count === true) {
				bump(this.counts, range.kind);
			}

			maskInPlace(out, range.start + range.keep, range.end);
		}

		if (payloads) {
			const scanner = new PayloadScanner();
			for (const [start, end] of scanner.scan(bytes)) {
				maskInPlace(out, start, end);
			}

			if (options.count === true) {
				this.addCount('payload', scanner.strings);
			}
		}

		return out;
	}

	/**
	 * Redacts a frame for display: `text`, `method`, string `id` and `answers.method` through {@link text};
	 * `message` through {@link value} (after {@link maskPayloadValue} when payloads are masked and the frame
	 * is on stdin/stdout). Offsets and byte counts are unchanged.
	 */
	frame(frame: Frame): Frame {
		const isPayload = this.options.payloads === true && frame.stream !== 'stderr';
		const redacted: {-readonly [K in keyof Frame]: Frame[K]} = {...frame};
		if (frame.text !== undefined) {
			redacted.text = this.text(frame.text);
		}

		if (frame.message !== undefined) {
			redacted.message = this.value(isPayload ? maskPayloadValue(frame.message) : frame.message);
		}

		if (frame.method !== undefined) {
			redacted.method = this.text(frame.method);
		}

		if (typeof frame.id === 'string') {
			redacted.id = this.text(frame.id);
		}

		if (frame.answers !== undefined) {
			redacted.answers = {...frame.answers, method: this.text(frame.answers.method)};
		}

		return redacted;
	}

	/** Redacts a finding's message, hint and detail; offsets and lengths are unchanged. */
	finding(finding: Finding): Finding {
		return {
			...finding,
			message: this.text(finding.message),
			hint: this.text(finding.hint),
			impact: finding.impact.map((impact) => ({...impact, note: this.text(impact.note)})),
			...(finding.detail === undefined
				? {}
				: {detail: this.value(finding.detail) as Readonly<Record<string, unknown>>}),
		};
	}

	/**
	 * Redacts session facts: command (see {@link command}), cwd, name, and the capturing user's home and
	 * user name (`~`, `<user>` when they are the ones being redacted). `envKeys` are names only and stay.
	 */
	meta(meta: SessionMeta, options: {readonly count?: boolean} = {}): SessionMeta {
		return {
			...meta,
			command: this.command(meta.command, options),
			...(meta.cwd === undefined ? {} : {cwd: this.text(meta.cwd, options)}),
			...(meta.name === undefined ? {} : {name: this.text(meta.name, options)}),
			...(meta.home === undefined ? {} : {home: this.text(meta.home)}),
			...(meta.user === undefined ? {} : {user: this.text(meta.user)}),
			...(meta.capturePath === undefined ? {} : {capturePath: this.text(meta.capturePath)}),
		};
	}

	/** Redacts the server's self-description in a summary (`serverInfo`). */
	summary(summary: Summary): Summary {
		if (summary.serverInfo === undefined) {
			return summary;
		}

		const info = summary.serverInfo;
		return {
			...summary,
			serverInfo: {
				...(info.name === undefined ? {} : {name: this.text(info.name)}),
				...(info.version === undefined ? {} : {version: this.text(info.version)}),
			},
		};
	}
}

/** What {@link redactSnapshot} returns. */
export interface RedactedSnapshot {
	/** The same session with every byte, frame, finding and fact redacted; offsets and lengths unchanged. */
	readonly snapshot: SessionSnapshot;
	/** What was redacted in the capture (command, cwd and each stream's bytes), by kind. */
	readonly counts: RedactionCounts;
}

const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];

/**
 * A redacted view of a finished (or live) session for the report: each stream's bytes are masked as a
 * whole (so a secret split across reads is still caught), same length; frames, findings, the command and
 * the summary are redacted as text. The command is redacted first, so argument values it hides are also
 * masked in the streams; then secret-named values seen in any stream are learned and masked everywhere.
 * @param snapshot the session as captured.
 * @param options see {@link RedactOptions}.
 * @returns the view and the counts (occurrences in the command, cwd and stream bytes).
 */
export function redactSnapshot(snapshot: SessionSnapshot, options: RedactOptions = {}): RedactedSnapshot {
	if ('pieces' in snapshot && typeof snapshot.pieces === 'function')
		return redactPieces(snapshot as KeptPieces, options);
	const redactor = new Redactor(options);
	const meta = redactor.meta(snapshot.meta, {count: true});
	const original = Object.fromEntries(
		STREAMS.map((stream) => [stream, snapshot.bytes(stream, 0, snapshot.streamLength(stream))]),
	) as Record<StreamName, Uint8Array>;
	for (const stream of STREAMS) {
		redactor.learnFromBytes(latin1(original[stream]));
	}

	const masked = Object.fromEntries(
		STREAMS.map((stream) => [
			stream,
			redactor.bytes(original[stream], options.payloads === true && stream !== 'stderr', {count: true}),
		]),
	) as Record<StreamName, Uint8Array>;
	const frames = snapshot.frames.map((frame) => redactor.frame(frame));
	const findings = snapshot.findings.map((finding) => redactor.finding(finding));
	const slice = (stream: StreamName, offset: number, length: number): Uint8Array => {
		const data = masked[stream];
		const start = Math.min(Math.max(0, offset), data.length);
		return data.slice(start, Math.min(data.length, start + Math.max(0, length)));
	};

	const view: SessionSnapshot = {
		meta,
		frames,
		findings,
		marks: snapshot.marks,
		...(snapshot.exit === undefined ? {} : {exit: snapshot.exit}),
		summary: redactor.summary(snapshot.summary),
		isEnded: snapshot.isEnded,
		bytes: slice,
		streamLength: (stream) => masked[stream].length,
		chunksOf: (frame) =>
			snapshot
				.chunksOf(frame)
				.map((chunk) => ({...chunk, bytes: slice(chunk.stream, chunk.offset, chunk.bytes.length)})),
		stderrTail: (maxLines) => {
			const lines: string[] = [];
			for (let i = frames.length - 1; i >= 0 && lines.length < maxLines; i--) {
				const frame = frames[i]!;
				if (frame.stream === 'stderr') {
					lines.push(frame.text ?? '');
				}
			}

			return lines.reverse();
		},
	};
	return {snapshot: view, counts: redactor.getCounts()};
}

/** A snapshot that holds only some byte ranges of its streams (render/report/keep.ts). */
type KeptPieces = SessionSnapshot & {
	pieces(stream: StreamName): ReadonlyArray<{readonly offset: number; readonly bytes: Uint8Array}>;
};

/**
 * {@link redactSnapshot} for a snapshot that kept only what the report prints (`mcp-wire report` on a
 * big capture, issue 12): only those byte ranges, frames, findings and stderr lines are redacted, not
 * the whole capture. Secret-named values are learned from what was kept (the command, the kept bytes,
 * the stderr tail) and masked in all of it; the shapes (`ghp_…`, `Bearer …`, home paths) are masked
 * wherever they appear in it. Counts cover what was kept.
 */
function redactPieces(snapshot: KeptPieces, options: RedactOptions): RedactedSnapshot {
	const redactor = new Redactor(options);
	const meta = redactor.meta(snapshot.meta, {count: true});
	const pieces = Object.fromEntries(STREAMS.map((stream) => [stream, snapshot.pieces(stream)])) as Record<
		StreamName,
		ReadonlyArray<{offset: number; bytes: Uint8Array}>
	>;
	const stderrLines = snapshot.stderrTail(STDERR_TAIL_REDACTED);
	for (const stream of STREAMS) for (const piece of pieces[stream]) redactor.learnFromBytes(latin1(piece.bytes));
	for (const line of stderrLines) redactor.learnFromBytes(Buffer.from(line, 'utf8').toString('latin1'));
	const masked = Object.fromEntries(
		STREAMS.map((stream) => [
			stream,
			pieces[stream].map((piece) => ({
				offset: piece.offset,
				bytes: redactor.bytes(piece.bytes, options.payloads === true && stream !== 'stderr', {count: true}),
			})),
		]),
	) as Record<StreamName, Array<{offset: number; bytes: Uint8Array}>>;
	const slice = (stream: StreamName, offset: number, length: number): Uint8Array => {
		let best = new Uint8Array(0);
		for (const piece of masked[stream]) {
			if (offset < piece.offset || offset >= piece.offset + piece.bytes.length) continue;
			const from = offset - piece.offset;
			const got = piece.bytes.slice(from, Math.min(piece.bytes.length, from + Math.max(0, length)));
			if (got.length > best.length) best = got;
		}

		return best;
	};

	const tail = stderrLines.map((line) => redactor.text(line));
	const view: SessionSnapshot = {
		meta,
		frames: snapshot.frames.map((frame) => redactor.frame(frame)),
		findings: snapshot.findings.map((finding) => redactor.finding(finding)),
		marks: snapshot.marks,
		...(snapshot.exit === undefined ? {} : {exit: snapshot.exit}),
		summary: redactor.summary(snapshot.summary),
		isEnded: snapshot.isEnded,
		bytes: slice,
		streamLength: (stream) => snapshot.streamLength(stream),
		chunksOf: () => [],
		stderrTail: (maxLines) => (maxLines <= 0 ? [] : tail.slice(-maxLines)),
	};
	return {snapshot: view, counts: redactor.getCounts()};
}

/** Stderr lines a kept snapshot's redacted view can show (the session keeps 200). */
const STDERR_TAIL_REDACTED = 200;

/** Redacts NDJSON events one at a time (`--json --redact`). */
export interface EventRedactor {
	/** The header's facts, redacted (call first: argument values it hides are then masked in the streams). */
	meta(meta: SessionMeta): SessionMeta;
	/** One event, redacted: chunk bytes masked same length (offsets and lengths unchanged), frames, findings and the summary as text. */
	event(event: SessionEvent): SessionEvent;
	/** What was redacted so far, by kind. */
	counts(): RedactionCounts;
}

/** Characters that can continue a token or secret value across a chunk boundary. */
/** A byte (latin1 unit) that {@link TOKEN_RUN_START} takes. */
const TOKEN_BYTE = /[A-Za-z0-9_.~+/=-]/;

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
const PARTIAL_HOME_END = /(?:\/home\/|\/Users\/|Users(?:\\\\|\\|\/))[^/\\\s"'`:;,*<>|]*$/;
/** Bytes of the previous chunk kept to catch secrets split across reads. */
const CARRY_BYTES = 512;

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
	const state = Object.fromEntries(
		STREAMS.map((stream) => [
			stream,
			{tail: '', isCarrying: false, isInPem: false, scanner: new PayloadScanner(), strings: 0},
		]),
	) as Record<
		StreamName,
		{tail: string; isCarrying: boolean; isInPem: boolean; scanner: PayloadScanner; strings: number}
	>;

	const maskChunk = (chunk: Chunk): Chunk => {
		const own = state[chunk.stream];
		const current = latin1(chunk.bytes);
		redactor.learnFromBytes(own.tail + current);
		const combined = own.tail + current;
		const base = own.tail.length;
		const out = new Uint8Array(chunk.bytes);
		const pem = pemSpan(combined, own.isInPem);
		own.isInPem = pem.isOpen;
		for (const range of mergeRanges([...redactor.findRanges(combined, true), ...pem.ranges])) {
			if (range.end <= base) {
				continue;
			}

			redactor.addCount(range.kind, 1);
			maskInPlace(out, Math.max(range.start + range.keep, base) - base, range.end - base);
		}

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
			const nameStart = home.index + /^(?:\/home\/|\/Users\/|Users(?:\\\\|\\|\/))/.exec(home[0])![0].length;
			maskInPlace(out, Math.max(nameStart, base) - base, combined.length - base);
		}

		for (const literal of redactor.knownSecrets()) {
			const needle = utf8AsLatin1(literal);
			for (let k = Math.min(needle.length - 1, combined.length); k >= 3; k--) {
				if (combined.endsWith(needle.slice(0, k))) {
					maskInPlace(out, Math.max(combined.length - k, base) - base, combined.length - base);
					break;
				}
			}
		}

		if (isPayloads && chunk.stream !== 'stderr') {
			for (const [start, end] of own.scanner.scan(chunk.bytes)) {
				maskInPlace(out, start, end);
			}

			redactor.addCount('payload', own.scanner.strings - own.strings);
			own.strings = own.scanner.strings;
		}

		own.tail = combined.slice(-CARRY_BYTES);
		return {...chunk, bytes: out};
	};

	return {
		meta: (meta) => redactor.meta(meta, {count: true}),
		event(event) {
			switch (event.type) {
				case 'chunk': {
					return {type: 'chunk', chunk: maskChunk(event.chunk)};
				}

				case 'frame': {
					return {type: 'frame', frame: redactor.frame(event.frame)};
				}

				case 'finding': {
					return {type: 'finding', finding: redactor.finding(event.finding)};
				}

				case 'summary': {
					return {type: 'summary', summary: redactor.summary(event.summary)};
				}

				default: {
					return event;
				}
			}
		},
		counts: () => redactor.getCounts(),
	};
}

/**
 * One line for the report saying what was redacted, by count, e.g.
 * `Redacted: 2 secret values, 1 GitHub token, 3 home directory paths. Masked bytes show as \`*\`; offsets and byte counts are as captured.`
 * @param counts from {@link redactSnapshot}; `undefined` when redaction is off.
 * @param options `isPartial`: only the parts shown were redacted (report/keep.ts); `quotesPayloads`
 *   (default true): the report quotes frame contents (bytes or text of a frame). When it does not and
 *   nothing was masked, the line says so instead of implying the payloads were checked and clean.
 */
export function describeRedactions(
	counts: RedactionCounts | undefined,
	options: {readonly isPartial?: boolean; readonly quotesPayloads?: boolean} = {},
): string {
	if (counts === undefined) {
		return 'Redaction: off (`--no-redact`): this report shows the capture as it is.';
	}

	const parts = (Object.keys(KIND_LABEL) as RedactionKind[])
		.filter((kind) => (counts[kind] ?? 0) > 0)
		.map((kind) => {
			const count = counts[kind]!;
			const [one, many] = KIND_LABEL[kind];
			return `${groupDigits(count)} ${count === 1 ? one : many}`;
		});
	if (parts.length === 0) {
		return options.quotesPayloads === false
			? 'Redaction: on; this report quotes no frame contents (the timeline names methods and ids only), so there was nothing in them to redact, and nothing secret-looking was found in the rest it shows.'
			: 'Redaction: on; nothing secret-looking was found.';
	}

	return `Redacted${options.isPartial === true ? ' in the parts shown' : ''}: ${parts.join(', ')}. Masked bytes show as \`*\` (0x2a); offsets and byte counts are as captured.`;
}

import type {Range, RedactionKind} from './types.js';

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
	// A signed URL's signature (S3 `X-Amz-Signature`, Azure SAS `sig`) is a credential until it expires.
	'signature',
	'sig',
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
	'privatekeyid',
	'accesskeyid',
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
export const GENERIC_USERS = new Set([
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

export interface ShapeRule {
	readonly kind: RedactionKind;
	readonly re: RegExp;
	/** Units kept at the start of the match (a public prefix). */
	readonly keep: (match: string) => number;
	/** Mask only this capture group (needs the `d` flag). */
	readonly group?: number;
}

export const SHAPES: readonly ShapeRule[] = [
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
	{
		kind: 'sendgrid-key',
		re: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g,
		keep: () => 3,
	},
	// A Telegram bot token: the bot's numeric id, a colon, 35 characters.
	{
		kind: 'telegram-token',
		re: /(?<![A-Za-z0-9_:-])[0-9]{8,10}:[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g,
		keep: () => 0,
	},
	// Google OAuth access tokens and client secrets.
	{
		kind: 'google-oauth',
		re: /(?<![A-Za-z0-9_-])(?:ya29\.|GOCSPX-)[A-Za-z0-9_-]{20,}/g,
		keep: (m) => m.indexOf(m.startsWith('ya29') ? '.' : '-') + 1,
	},
	// Service API tokens MCP servers are commonly given: DigitalOcean, Notion, Linear.
	{
		kind: 'service-token',
		re: /(?<![A-Za-z0-9_])(?:dop_v1_[a-f0-9]{64}|ntn_[A-Za-z0-9]{40,}|lin_api_[A-Za-z0-9]{32,})/g,
		keep: (m) => m.indexOf('_', m.startsWith('ntn_') ? 0 : 4) + 1,
	},
	{
		kind: 'discord-webhook',
		re: /https:\/\/(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/api\/webhooks\/[0-9]+\/([A-Za-z0-9_-]+)/dg,
		keep: () => 0,
		group: 1,
	},
	{kind: 'bearer', re: /\b(?:Bearer|Basic)[ \t]+([A-Za-z0-9._~+/=-]{8,})/dgi, keep: () => 0, group: 1},
	{kind: 'secret-value', re: /\b(?:Set-)?Cookie[ \t]*:[ \t]*([^\r\n"\\]+)/dgi, keep: () => 0, group: 1},
	{kind: 'secret-value', re: /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/\s:@"'\\]*:([^/\s@"'\\]+)@/dg, keep: () => 0, group: 1},
];

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/g;
const PEM_END = '-----END ';

/**
 * Where a PEM private key block that is still open at the end of `subject` starts masking, given
 * whether one was open at its start (a block split over stderr lines, each redacted on its own, or
 * over chunks): returns the ranges to mask and whether a block is open at the end.
 */
export function pemSpan(subject: string, isOpen: boolean): {ranges: Range[]; isOpen: boolean} {
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
export const NAMED: readonly RegExp[] = [
	// KEY=VALUE, --api-key=xyz, ?token=xyz
	/(?<![A-Za-z0-9_])(?<name>[A-Za-z_][A-Za-z0-9_.-]*)=(?:"(?<value>[^"\r\n]*)"|'(?<value2>[^'\r\n]*)'|(?<value3>[^\s"'&;,\\]+))/dg,
	// "apiKey": "xyz", 'token': 'xyz', token: xyz, X-Api-Key: xyz
	/(?<![A-Za-z0-9_])(?<q>["']?)(?<name>[A-Za-z_][A-Za-z0-9_.-]*)\k<q>[ \t]*:[ \t]*(?:"(?<value>[^"\\\r\n]*(?:\\.[^"\\\r\n]*)*)"|'(?<value2>[^'\r\n]*)'|(?!(?:Bearer|Basic)\b)(?<value3>[^\s"',;{}[\]\\]+))/dg,
	// {\"token\":\"xyz\"}: JSON inside a JSON string (a logged request)
	/\\"(?<name>[A-Za-z_][A-Za-z0-9_.-]*)\\"[ \t]*:[ \t]*\\"(?<value>[^"\\\r\n]*(?:\\[^"][^"\\\r\n]*)*)\\"/dg,
	// --token xyz
	/(?<![A-Za-z0-9_-])--?(?<name>[A-Za-z][A-Za-z0-9_.-]*)[ \t]+(?<value>[^\s"'\\-][^\s"'\\]*)/dg,
];

/** A home directory's user name in a path, also JSON-escaped once or twice (`C:\\\\Users\\\\NAME`). */
export const INFERRED_HOME =
	/(?:\/home\/|\/Users\/|(?<![A-Za-z])[A-Za-z]:(?:\\+|\/)(?:Users|Documents and Settings)(?:\\+|\/))([^/\\\s"'`:;,*<>|]+)/dg;

/**
 * Whether a value found under a secret-looking name is worth masking everywhere else too: at least 8
 * characters, no whitespace, not a placeholder (`<key>`, `value`, `xxxx`, `${VAR}`), and holding a digit or
 * being at least 16 characters long.
 */
export function looksLikeSecretValue(value: string): boolean {
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

export function escapeRegExp(text: string): string {
	return text.replaceAll(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`);
}

/**
 * Redaction for everything that leaves the machine: the support report, and `--json` with `--redact`.
 * On by default in the report.
 *
 * What is redacted, wherever it appears (command, cwd, stderr, frame contents, hex excerpts, findings):
 * - the home directory (`~` in text) and the user name (`<user>`), also inferred from `/home/NAME`,
 *   `/Users/NAME` and `C:\Users\NAME` paths;
 * - values whose name looks secret ({@link isSecretName}: token, key, secret, password, auth, cookie,
 *   credential, a signed URL's signature/sig): `KEY=VALUE`, `--api-key=xyz`, `--token xyz`, `"apiKey": "xyz"`, `token: xyz`,
 *   `Cookie:` headers, `user:password@` in URLs, and the values of secret-named environment variables
 *   given in {@link RedactOptions.env} (masked wherever that value shows up again);
 * - bearer/basic credentials and well-known key shapes: GitHub `ghp_…`/`gho_…`/`ghu_…`/`ghs_…`/`ghr_…`/
 *   `github_pat_…`, Slack `xox?-…`/`xapp-…`, AWS `AKIA…`/`ASIA…`, OpenAI/Anthropic-style `sk-…`
 *   (`sk-ant-…`, `sk-proj-…`), Google `AIza…`, JWTs (`eyJ….eyJ….…`), Stripe `sk_live_…`/`rk_…`, npm
 *   `npm_…`, Hugging Face `hf_…`, GitLab `glpat-…`, Slack webhook URLs, a bare 40-character AWS
 *   secret access key, SendGrid `SG.…`, Telegram bot tokens (`123456789:AA…`), Google OAuth `ya29.…`/`GOCSPX-…`,
 *   DigitalOcean `dop_v1_…`, Notion `ntn_…`, Linear `lin_api_…`, Discord webhook URLs, `scheme://:password@`
 *   URLs, PEM private key blocks, and base64 lines alone on a line (a PEM body split over stderr lines
 *   or chunks);
 * - a base64 run (at least 16 characters) whose decoded text holds any of the above: masked whole;
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
	/**
	 * Other homes and user names to hide as well: the viewer's own when a capture's header names another
	 * (a crafted or foreign capture must not unmask the viewer's paths).
	 */
	readonly also?: ReadonlyArray<{readonly home?: string; readonly user?: string}>;
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
	| 'sendgrid-key'
	| 'telegram-token'
	| 'base64-secret'
	| 'google-oauth'
	| 'service-token'
	| 'discord-webhook'
	| 'home'
	| 'user'
	| 'payload';

/** Occurrences redacted, by kind (absent kinds: none). */
export type RedactionCounts = Readonly<Partial<Record<RedactionKind, number>>>;

/** Human names of the kinds, singular and plural, in the order the report lists them. */
export const KIND_LABEL: Readonly<Record<RedactionKind, readonly [string, string]>> = {
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
	'sendgrid-key': ['SendGrid key', 'SendGrid keys'],
	'telegram-token': ['Telegram bot token', 'Telegram bot tokens'],
	'base64-secret': ['base64-wrapped secret', 'base64-wrapped secrets'],
	'google-oauth': ['Google OAuth credential', 'Google OAuth credentials'],
	'service-token': ['service API token', 'service API tokens'],
	'discord-webhook': ['Discord webhook URL', 'Discord webhook URLs'],
	home: ['home directory path', 'home directory paths'],
	user: ['user name', 'user names'],
	payload: ['JSON string value', 'JSON string values'],
};

/** A range to mask in a string (UTF-16 units in text mode, bytes in byte mode): `[start, end)`, the first `keep` units kept. */
export interface Range {
	start: number;
	end: number;
	kind: RedactionKind;
	keep: number;
}

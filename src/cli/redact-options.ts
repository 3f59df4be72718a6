import os from 'node:os';
import type {RedactOptions} from '../render/report/redact.js';

/**
 * Redaction inputs for this machine: the home directory and user name (so they show as `~` and
 * `<user>`), plus the server's environment when known (values of secret-named variables are masked
 * wherever they appear). Use it for `probe --report` and `--json --redact` too.
 * @param env the environment the server got (e.g. from `buildEnv`), if any.
 * @param payloads `--redact-payloads`.
 */
export function localRedactOptions(env?: Readonly<Record<string, string | undefined>>, payloads = false): RedactOptions {
	let user: string | undefined;
	try {
		user = os.userInfo().username;
	} catch {
		user = process.env['USER'] ?? process.env['USERNAME'];
	}

	return {home: os.homedir(), ...(user === undefined ? {} : {user}), ...(env === undefined ? {} : {env}), payloads};
}

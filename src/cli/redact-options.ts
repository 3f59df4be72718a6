import os from 'node:os';
import type {SessionMeta} from '../core/types.js';
import type {RedactOptions} from '../render/redact/index.js';

/** This process's user name: the account name, else `$USER` / `$USERNAME`. */
function accountName(): string | undefined {
	try {
		return os.userInfo().username;
	} catch {
		return process.env['USER'] ?? process.env['USERNAME'];
	}
}

/**
 * Redaction inputs: the home directory and user name (so they show as `~` and `<user>`), plus the
 * server's environment when known (values of secret-named variables are masked wherever they appear).
 * Use it for `probe --report` and `--json --redact` too. The home and user are the capture's own when its
 * header records them (`captured`, see {@link captureIdentity}), else this machine's: a report made by
 * another user, or on another machine, still hides the capturing user's paths (docs/cli.md#report).
 * @param env the environment the server got (e.g. from `buildEnv`), if any.
 * @param payloads `--redact-payloads`.
 * @param captured the session header (its `home` and `user` are used when present).
 */
export function localRedactOptions(
	env?: Readonly<Record<string, string | undefined>>,
	payloads = false,
	captured?: Pick<SessionMeta, 'home' | 'user'>,
): RedactOptions {
	let local: string | undefined;
	try {
		local = os.homedir();
	} catch {
		local = undefined;
	}

	const localUser = accountName();
	const home = captured?.home ?? local;
	const user = captured?.user ?? localUser;
	// The viewer's own home and name are hidden too when the header names another's.
	const also =
		(local !== undefined && local !== '' && local !== home) || (localUser !== undefined && localUser !== user)
			? [
					{
						...(local === undefined || local === '' ? {} : {home: local}),
						...(localUser === undefined ? {} : {user: localUser}),
					},
				]
			: [];
	return {
		...(home === undefined || home === '' ? {} : {home}),
		...(user === undefined ? {} : {user}),
		...(env === undefined ? {} : {env}),
		...(also.length === 0 ? {} : {also}),
		payloads,
	};
}

/**
 * Who is capturing, for the session header (`SessionMeta.home`, `.user`): `$HOME` as Node reads it
 * (`os.homedir()`), and `$USER` (else `$LOGNAME`, `$USERNAME`, the account name), the name that shows in
 * this user's paths and logs. Fields that cannot be found are left out.
 */
export function captureIdentity(): Pick<SessionMeta, 'home' | 'user'> {
	let home: string | undefined;
	try {
		home = os.homedir();
	} catch {
		home = undefined;
	}

	const fromEnv = [process.env['USER'], process.env['LOGNAME'], process.env['USERNAME']].find(
		(name) => name !== undefined && name !== '',
	);
	const user = fromEnv ?? accountName();
	return {...(home === undefined || home === '' ? {} : {home}), ...(user === undefined || user === '' ? {} : {user})};
}

import path from 'node:path';
import {ConfigError, discoverConfigs, type ClientName, type ConfigFile} from '../configs/index.js';
import {UsageError} from './exit-codes.js';

/**
 * Find the client config files for `doctor`, `wrap` and `unwrap`, narrowed by `--client`/`--config`.
 * A config error and a `--config` file that does not exist are usage errors (exit 2) naming the file.
 * @param prefix what the error lines start with (e.g. `doctor: `)
 */
export function discoverForCli(
	prefix: string,
	options: {readonly home: string; readonly cwd: string; readonly client?: ClientName; readonly config?: string},
): ConfigFile[] {
	let files: ConfigFile[];
	try {
		files = discoverConfigs({
			home: options.home,
			cwd: options.cwd,
			platform: process.platform,
			env: process.env,
			...(options.client === undefined ? {} : {client: options.client}),
			...(options.config === undefined ? {} : {config: options.config}),
		});
	} catch (error) {
		if (error instanceof ConfigError) throw new UsageError(`${prefix}${error.message}`);
		throw error;
	}
	if (options.config !== undefined && !files.some((file) => file.exists)) {
		throw new UsageError(
			`${prefix}--config ${options.config}: no such file (${path.resolve(options.cwd, options.config)})`,
		);
	}
	return files;
}

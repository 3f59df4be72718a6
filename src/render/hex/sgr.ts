import * as util from 'node:util';

/** One `util.inspect.colors` format name accepted by `util.styleText` (`'red'`, `'inverse'`, `'gray'`…). */
export type StyleFormat = Exclude<Parameters<typeof util.styleText>[0], readonly unknown[]>;

type StyleTextFn = (format: StyleFormat | StyleFormat[], text: string, options?: {validateStream?: boolean}) => string;

/**
 * Wraps `text` in SGR sequences for `formats`, left to right (later ones win), with `node:util`
 * `styleText` (Node 20.12+). The stream check of newer Node versions is turned off
 * (`validateStream: false`): whether to colour is decided by the caller (`--color`, `NO_COLOR`), and in
 * tap mode `process.stdout` is the MCP wire, not a terminal. On Node 20.0–20.11, where `styleText` does
 * not exist, the same codes are taken from `util.inspect.colors`.
 * @returns `text` wrapped in escape sequences (empty text stays empty).
 */
export function applyStyle(formats: StyleFormat | readonly StyleFormat[], text: string): string {
	if (text === '') {
		return '';
	}

	const list: StyleFormat[] = typeof formats === 'string' ? [formats] : [...formats];
	if (list.length === 0) {
		return text;
	}

	const styleText = (util as unknown as {styleText?: StyleTextFn}).styleText;
	if (typeof styleText === 'function') {
		return styleText(list, text, {validateStream: false});
	}

	let out = text;
	for (const format of list) {
		const codes = util.inspect.colors[format];
		if (codes !== undefined) {
			out = `\u001B[${codes[0]}m${out}\u001B[${codes[1]}m`;
		}
	}

	return out;
}

/**
 * The default for a `color` option: false when `NO_COLOR` is set to a non-empty value (no-color.org),
 * true otherwise. An explicit `--color always|never` from the CLI overrides this.
 */
export function isColorAllowedByEnv(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
	const noColor = env['NO_COLOR'];
	return noColor === undefined || noColor === '';
}

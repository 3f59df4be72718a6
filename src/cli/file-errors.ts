import {problemPlace, type DecodeProblem} from '../core/capture/record-codec.js';

/** Words for the file errors a user meets most, so a one-line error reads without knowing errno names. */
const ERRNO_WORDS: Readonly<Record<string, string>> = {
	ENOENT: 'no such file',
	EACCES: 'permission denied',
	EPERM: 'permission denied',
	EISDIR: 'it is a directory',
	ENOTDIR: 'a part of the path is not a directory',
	ELOOP: 'too many symbolic links',
};

/**
 * Why a file could not be opened or read, for a one-line error: `no such file (ENOENT)`, or the error's
 * code or message when there are no plainer words for it.
 * @param error what fs threw (a `NodeJS.ErrnoException`, or anything).
 */
export function fileErrorReason(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	if (code !== undefined) return ERRNO_WORDS[code] === undefined ? code : `${ERRNO_WORDS[code]} (${code})`;
	return error instanceof Error ? error.message : String(error);
}

/**
 * The stderr lines for a capture's record problems (a record skipped as bad, a cut last line): at most
 * `max`, then a count. FILE:LINE for an NDJSON capture (editors jump there); a binary capture has no lines,
 * so its record and byte.
 * @param source the file name as the user gave it (or `stdin`)
 */
export function problemLines(source: string, problems: readonly DecodeProblem[], max = 20): string[] {
	const lines = problems
		.slice(0, max)
		.map(
			(problem) =>
				`mcp-wire: ${source}${problem.byteOffset === undefined ? `:${problem.line}` : `: ${problemPlace(problem)}`}: ${problem.message}\n`,
		);
	if (problems.length > max) lines.push(`mcp-wire: ${source}: … and ${problems.length - max} more problems\n`);
	return lines;
}

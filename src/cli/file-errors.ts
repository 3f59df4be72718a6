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

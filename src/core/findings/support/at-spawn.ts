import type {Finding} from '../../types.js';

/**
 * True for a finding that has no place on any stream: the command did not start (`spawn-failed`), so
 * nothing was read from its stdout or stderr. Its record keeps the finding shape (`stream: 'stdout'`,
 * `offset: 0`, `byteLength: 0`; `--json` is unchanged), but the plain log, the report and the TUI place
 * it "at the spawn" instead of at that offset.
 * @param finding any finding (only its `code` is read)
 * @returns true for `spawn-failed`
 */
export function isAtSpawn(finding: Pick<Finding, 'code'>): boolean {
	return finding.code === 'spawn-failed';
}

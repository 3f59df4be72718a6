import type {FindingCode} from '../../types.js';

/**
 * Where a finding code is documented, the way a lint rule links its page: `docs/findings.md#<code>`,
 * a path from the root of the repository (the npm package ships `docs/` too). The section heading of
 * each code is the code itself, so its anchor is the code. `--json` finding records carry it as
 * `docs`; the plain log prints it under the finding.
 */
export const FINDINGS_DOC_PATH = 'docs/findings.md';

/**
 * The documentation pointer of a finding code.
 * @param code a stable finding code (kebab-case, which is also its Markdown anchor).
 * @returns e.g. `docs/findings.md#stray-output`.
 */
export function findingDocsRef(code: FindingCode): string {
	return `${FINDINGS_DOC_PATH}#${code}`;
}

import {groupDigits} from '../../core/bytes/glyphs.js';
import {KIND_LABEL, type RedactionCounts, type RedactionKind} from './types.js';

/**
 * One line for the report saying what was redacted, by count, e.g.
 * `Redacted: 2 secret values, 1 GitHub token, 3 home directory paths. Masked bytes show as \`*\`; offsets and byte counts are as captured.`
 * @param counts from {@link redactSnapshot}; `undefined` when redaction is off.
 * @param options `isPartial`: only the parts shown were redacted (report/keep.ts); `quotesPayloads`
 *   (default true): the report quotes frame contents (bytes or text of a frame). When it does not and
 *   nothing was masked, the line says so instead of implying the payloads were checked and clean.
 */
export function describeRedactions(
	counts: RedactionCounts | undefined,
	options: {readonly isPartial?: boolean; readonly quotesPayloads?: boolean} = {},
): string {
	if (counts === undefined) {
		return 'Redaction: off (`--no-redact`): this report shows the capture as it is.';
	}

	const parts = (Object.keys(KIND_LABEL) as RedactionKind[])
		.filter((kind) => (counts[kind] ?? 0) > 0)
		.map((kind) => {
			const count = counts[kind]!;
			const [one, many] = KIND_LABEL[kind];
			return `${groupDigits(count)} ${count === 1 ? one : many}`;
		});
	if (parts.length === 0) {
		return options.quotesPayloads === false
			? 'Redaction: on; this report quotes no frame contents (the timeline names methods and ids only), so there was nothing in them to redact, and nothing secret-looking was found in the rest it shows.'
			: 'Redaction: on; nothing secret-looking was found.';
	}

	return `Redacted${options.isPartial === true ? ' in the parts shown' : ''}: ${parts.join(', ')}. Masked bytes show as \`*\` (0x2a); offsets and byte counts are as captured.`;
}

import {isAtSpawn} from '../../../core/findings/support/at-spawn.js';
import {clientsSummary, REACTION_WORDS as REACTION_LABEL} from '../../../core/findings/support/catalog.js';
import {carriedBytes} from '../../../core/bytes/carried.js';
import {escapeBytes, groupDigits} from '../../../core/bytes/glyphs.js';
import {hexRows, hexWindow} from '../../../core/bytes/hex-layout.js';
import {CATALOG, CLIENT_FAMILY_LABEL} from '../../../core/findings/support/catalog.js';
import {STREAM_LABEL, type ClientImpact, type Finding, type FindingCode} from '../../../core/types.js';
import {hexByte, plainHexLines} from '../../hex/plain.js';
import {cell, code, details, fence, html, ms, offsetText, plural, prose, table} from '../md.js';
import {block, type Block, type ReportContext, type SectionOutput} from './context.js';

/** Consecutive findings of one code from this many on share one table row. */
const RUN_ROWS = 3;

/** Columns of escaped evidence text quoted inline. */
const EVIDENCE_COLUMNS = 72;
/** Bytes of evidence read for the inline quote (enough for {@link EVIDENCE_COLUMNS} of any text). */
const EVIDENCE_READ = 1024;

function frameText(finding: Finding): string {
	return finding.frameIndex === undefined ? '–' : String(finding.frameIndex);
}

function streamText(finding: Finding): string {
	return isAtSpawn(finding) ? 'the spawn' : `${finding.stream} ${STREAM_LABEL[finding.stream]}`;
}

/**
 * The offending bytes as escaped text (↵ ← ␛ \xNN…), cut to `columns` with `… (+N bytes)` where N counts
 * every evidence byte not shown, however long the evidence.
 */
function evidenceText(context: ReportContext, finding: Finding, columns: number): string {
	const bytes = context.snapshot.bytes(finding.stream, finding.offset, Math.min(finding.byteLength, EVIDENCE_READ));
	let text = escapeBytes(bytes, columns);
	if (finding.byteLength > bytes.length) {
		const marker = /… \(\+([\d,]+) bytes?\)$/.exec(text);
		const consumed = marker === null ? bytes.length : bytes.length - Number(marker[1]!.replaceAll(',', ''));
		const head = marker === null ? text : text.slice(0, marker.index);
		text = `${head}… (+${groupDigits(finding.byteLength - consumed)} bytes)`;
	}

	return text;
}

/** Up to `max` evidence bytes as lowercase hex pairs (`0d 0a`), with `…` when there are more. */
function evidenceHex(context: ReportContext, finding: Finding, max: number): string {
	const bytes = context.snapshot.bytes(finding.stream, finding.offset, Math.min(finding.byteLength, max));
	return [...bytes].map((byte) => hexByte(byte)).join(' ') + (finding.byteLength > bytes.length ? ' …' : '');
}

/** `a–b`, or `a` for a range of one. */
function rangeText(first: number, last: number): string {
	return first === last ? String(first) : `${first}–${last}`;
}

/**
 * The findings table: number (the finding's place in report order, {@link ReportContext.numbers}), code,
 * severity, stream, offset (decimal and hex, as the hex excerpts show it), frame index. Three or more
 * findings of one code on one stream with consecutive numbers share a row (`2–31`, `` `stray-output` ×30 ``,
 * first … last offset). Findings not kept in memory (keep.ts) get a row of their own with their numbers
 * (`32–195`, `… 164 findings not listed`), so every number is a finding's own. Rows past `plan.tableRows`
 * fold into `<details>`.
 */
export function findingsTable(context: ReportContext): SectionOutput {
	const {findings, numbers, plan} = context;
	if (findings.length === 0) {
		return {blocks: [], leftOut: []};
	}

	const header = ['#', 'code', 'severity', 'stream', 'offset', 'frame'];
	const align = ['r', 'l', 'l', 'l', 'r', 'r'] as const;
	const severity = (finding: Finding): string =>
		finding.severity + (finding.confidence === 'inferred' ? ' (inferred)' : '');
	// Each row with the numbers it covers (the folded rest names them when it is cut).
	const rows: Array<{cells: string[]; first: number; last: number}> = [];
	const hidden = (first: number, last: number): void => {
		rows.push({
			cells: [rangeText(first, last), `… ${plural(last - first + 1, 'finding')} not listed`, '', '', '', ''],
			first,
			last,
		});
	};

	let covered = 0;
	for (let start = 0; start < findings.length;) {
		const first = findings[start]!;
		if (numbers[start]! > covered + 1) hidden(covered + 1, numbers[start]! - 1);
		let end = start + 1;
		while (
			end < findings.length &&
			findings[end]!.code === first.code &&
			findings[end]!.stream === first.stream &&
			findings[end]!.severity === first.severity &&
			numbers[end] === numbers[end - 1]! + 1
		) {
			end++;
		}

		if (end - start >= RUN_ROWS) {
			const last = findings[end - 1]!;
			const frames =
				first.frameIndex === undefined || last.frameIndex === undefined
					? '–'
					: `${first.frameIndex}–${last.frameIndex}`;
			const cells = [
				rangeText(numbers[start]!, numbers[end - 1]!),
				`${code(first.code)} ×${end - start}`,
				severity(first),
				streamText(first),
				`${offsetText(first.offset)} … ${offsetText(last.offset)}`,
				frames,
			];
			rows.push({cells, first: numbers[start]!, last: numbers[end - 1]!});
		} else {
			for (let k = start; k < end; k++) {
				const finding = findings[k]!;
				rows.push({
					cells: [
						String(numbers[k]),
						code(finding.code),
						severity(finding),
						streamText(finding),
						isAtSpawn(finding) ? '–' : offsetText(finding.offset),
						frameText(finding),
					],
					first: numbers[k]!,
					last: numbers[k]!,
				});
			}
		}

		covered = numbers[end - 1]!;
		start = end;
	}

	const {summary} = context.snapshot;
	const total = summary.errors + summary.warnings + summary.infos;
	if (context.kept !== undefined && total > covered) hidden(covered + 1, total);
	const blocks: Block[] = [
		block(
			60,
			'the findings table',
			table(
				header,
				align,
				rows.slice(0, plan.tableRows).map((row) => row.cells),
			),
		),
	];
	const leftOut: string[] = [];
	const omitted = [...(context.kept?.omitted ?? new Map<FindingCode, number>())];
	if (omitted.length > 0) {
		// A big capture: only the first and last findings of each code were kept (keep.ts); the rest are counted.
		const count = omitted.reduce((sum, [, n]) => sum + n, 0);
		const list = omitted.map(([findingCode, n]) => `${code(findingCode)} ×${groupDigits(n)}`).join(', ');
		blocks.push(
			block(59, 'the note on findings not listed', [
				`… and ${plural(count, 'more finding')} not listed (only the first and last of each code are kept): ${list}.`,
			]),
		);
		leftOut.push(`${plural(count, 'finding')} between the first and the last of their code (counted in the verdict)`);
	}
	const rest = rows.slice(plan.tableRows);
	if (rest.length > 0) {
		const shown = rest.slice(0, plan.foldedTableRows);
		const body =
			shown.length > 0
				? table(
						header,
						align,
						shown.map((row) => row.cells),
					)
				: [];
		const unlisted = rest.length - shown.length;
		if (unlisted > 0) {
			const numbered = `findings ${rangeText(rest[shown.length]!.first, rest.at(-1)!.last)}`;
			body.push('', `… and ${plural(unlisted, 'more row')} not listed (${numbered}).`);
			leftOut.push(`${plural(unlisted, 'row')} of the findings table (${numbered})`);
		}

		blocks.push(
			block(
				15,
				'the folded rows of the findings table',
				details(`${plural(rest.length, 'more row')} of findings`, body),
			),
		);
	}

	return {blocks, leftOut};
}

function clientsLine(impact: readonly ClientImpact[]): string {
	return `**Clients:** ${clientsSummary(impact)}`;
}

function impactTable(impact: readonly ClientImpact[]): string[] {
	return details(
		'What each client does',
		table(
			['client', 'reaction', 'what happens'],
			['l', 'l', 'l'],
			impact.map((entry) => [
				cell(CLIENT_FAMILY_LABEL[entry.client]),
				REACTION_LABEL[entry.reaction],
				cell(prose(entry.note)),
			]),
		),
	);
}

function heading(finding: Finding, number: number): string {
	const parts = [
		`**${number}. ${code(finding.code)}: ${CATALOG[finding.code].title}**`,
		finding.severity + (finding.confidence === 'inferred' ? ' (inferred)' : ''),
		// A command that did not start was read from no stream: at the spawn, no offset.
		...(isAtSpawn(finding) ? ['at the spawn'] : [streamText(finding), `offset ${offsetText(finding.offset)}`]),
		...(finding.frameIndex === undefined ? [] : [`frame ${finding.frameIndex}`]),
		`${ms(finding.tMs)} ms`,
		...(finding.rules.length > 0 ? [`rule ${finding.rules.join(', ')}`] : []),
	];
	return parts.join(' · ');
}

/** The xxd excerpt around a finding's bytes (render/hex/plain.ts), `^` markers under short evidence. */
function hexExcerpt(context: ReportContext, finding: Finding): string[] {
	const carried = finding.byteLength === 0 ? carriedBytes(finding) : undefined;
	if (carried) return fence(plainHexLines(hexRows(carried, {baseOffset: 0}), {markers: false}));
	const window = hexWindow((offset, length) => context.snapshot.bytes(finding.stream, offset, length), {
		offset: finding.offset,
		length: finding.byteLength,
		context: 1,
		maxRows: context.plan.hexRows,
	});
	if (window.bytes.length === 0) {
		return [`(no bytes on ${finding.stream} before offset ${groupDigits(finding.offset)})`];
	}

	const evidenceRows =
		finding.byteLength === 0
			? 0
			: Math.floor((finding.offset + finding.byteLength - 1) / 16) - Math.floor(finding.offset / 16) + 1;
	const rows = hexRows(window.bytes, {
		baseOffset: window.offset,
		highlight: finding.byteLength > 0 ? [{offset: finding.offset, length: finding.byteLength}] : [],
	});
	const lines = plainHexLines(rows, {markers: evidenceRows > 0 && evidenceRows <= 3});
	if (window.cutBytes > 0) {
		lines.push(`… (+${groupDigits(window.cutBytes)} bytes of evidence not shown)`);
	}

	return fence(lines);
}

function caption(context: ReportContext, finding: Finding): string {
	if (isAtSpawn(finding))
		return 'Where: the spawn; the command did not start, so nothing was read from its stdout or stderr.';
	const carried = finding.byteLength === 0 ? carriedBytes(finding) : undefined;
	if (carried) {
		const replyBytes = finding.detail?.['replyBytes'];
		return `Where: a fresh process probed with a Content-Length-framed initialize answered on its stdout (${typeof replyBytes === 'number' ? plural(replyBytes, 'byte') : 'a reply'}); its first ${plural(carried.length, 'byte')}:`;
	}

	if (finding.byteLength === 0) {
		const total = context.snapshot.streamLength(finding.stream);
		if (total === 0) {
			return `Where: ${finding.stream}, which stayed empty (0 bytes).`;
		}

		return finding.offset >= total
			? `Where: the end of ${finding.stream}, after its ${plural(total, 'byte')} (nothing came after them). The last bytes:`
			: `Where: ${finding.stream} offset ${offsetText(finding.offset)} (a position, no bytes of its own).`;
	}

	return `Bytes at ${finding.stream} offset ${offsetText(finding.offset)}, ${plural(finding.byteLength, 'byte')}: ${code(evidenceText(context, finding, EVIDENCE_COLUMNS))}`;
}

function moreList(
	context: ReportContext,
	first: Finding,
	more: ReadonlyArray<{finding: Finding; number: number}>,
	findingCode: FindingCode,
): string[] {
	if (more.length === 0) {
		return [];
	}

	const limit = context.plan.moreFindings;
	const unlisted = context.kept?.omitted.get(findingCode) ?? 0;
	const title = `${plural(more.length + unlisted, `more ${findingCode} finding`)}`;
	if (limit <= 0) {
		const offsets = more.slice(0, 8).map(({finding}) => groupDigits(finding.offset));
		return [`${title} (see the table), at offsets ${offsets.join(', ')}${more.length > 8 ? ', …' : ''}.`];
	}

	const items = more.slice(0, limit).map(({finding, number}) => {
		const bytes = finding.byteLength > 0 ? `: ${code(evidenceText(context, finding, 48))}` : '';
		const frame = finding.frameIndex === undefined ? '' : ` · frame ${finding.frameIndex}`;
		const message = finding.message === first.message ? '' : ` · ${prose(finding.message)}`;
		return `- ${number}. ${finding.stream} offset ${offsetText(finding.offset)}${frame}${message}${bytes}`;
	});
	if (more.length + unlisted > limit) {
		items.push(`- … and ${groupDigits(more.length + unlisted - limit)} more${unlisted > 0 ? '' : ' (see the table)'}`);
	}

	return details(html(title), items);
}

/**
 * One block per finding code, in report order (docs/findings.md, "how a finding is shown"): the first finding
 * of the code gets a heading (number, code, title, severity, stream, offset, frame, time, rules), its
 * message, the evidence bytes quoted as escaped text, an xxd excerpt in a ```` ```text ```` fence with `^`
 * markers, the fix, and the client reactions (one line, plus a folded per-client table); the code's
 * further findings follow in a folded list. Codes beyond `plan.fullBlocks` get one paragraph with the
 * evidence as hex and text instead of the excerpt, so the bytes stay visible without expanding anything.
 */
export function findingBlocks(context: ReportContext): SectionOutput {
	const groups = new Map<FindingCode, Array<{finding: Finding; number: number}>>();
	for (const [index, finding] of context.findings.entries()) {
		const group = groups.get(finding.code) ?? [];
		group.push({finding, number: context.numbers[index]!});
		groups.set(finding.code, group);
	}

	const blocks: Block[] = [];
	const leftOut: string[] = [];
	const excerpts = new Map<string, number>();
	let index = 0;
	for (const [findingCode, group] of groups) {
		const {finding, number} = group[0]!;
		const more = group.slice(1);
		const name = code(findingCode);
		// The first code's heading, bytes and fix outrank everything but the verdict; later codes less.
		const rank = index === 0 ? 99 : 66 - Math.min(index, 20);
		const unlisted = context.kept?.omitted.get(findingCode) ?? 0;
		if (more.length + unlisted > context.plan.moreFindings && context.plan.moreFindings > 0) {
			leftOut.push(
				`${plural(more.length + unlisted - context.plan.moreFindings, 'repeated finding')} of ${name}${unlisted > 0 ? '' : ' (in the table)'}`,
			);
		}

		if (index < context.plan.fullBlocks) {
			blocks.push(block(rank, `the block of ${name}`, [heading(finding, number), '', prose(finding.message)]));
			const key = `${finding.stream}:${finding.offset}:${finding.byteLength}`;
			const shownAt = excerpts.get(key);
			if (shownAt !== undefined) {
				blocks.push(
					block(rank - 1, `the bytes of ${name}`, [
						`${caption(context, finding)} (the same bytes as #${shownAt} above)`,
					]),
				);
			} else if (
				finding.byteLength === 0 &&
				context.snapshot.streamLength(finding.stream) === 0 &&
				carriedBytes(finding) === undefined
			) {
				blocks.push(block(rank - 1, `the bytes of ${name}`, [caption(context, finding)]));
			} else {
				excerpts.set(key, number);
				blocks.push(
					block(rank - 1, `the bytes of ${name}`, [caption(context, finding), '', ...hexExcerpt(context, finding)]),
				);
			}

			blocks.push(block(rank - 2, `the fix for ${name}`, [`**Fix:** ${prose(finding.hint)}`]));
			blocks.push(
				block(index === 0 ? 55 : 45 - Math.min(index, 20), `the client reactions to ${name}`, [
					clientsLine(finding.impact),
				]),
			);
			if (context.plan.hasImpactTables && finding.impact.length > 0) {
				blocks.push(block(12, `the per-client notes on ${name}`, impactTable(finding.impact)));
			}
		} else {
			const bytes =
				finding.byteLength > 0
					? ` Bytes at offset ${offsetText(finding.offset)}: \`${evidenceHex(context, finding, 16)}\` = ${code(evidenceText(context, finding, 40))}.`
					: '';
			blocks.push(
				block(rank, `the block of ${name}`, [
					`${heading(finding, number)} — ${prose(finding.message)}.${bytes} **Fix:** ${prose(finding.hint)}`,
				]),
			);
		}

		const list = moreList(context, finding, more, findingCode);
		if (list.length > 0) {
			blocks.push(block(10, `the list of repeated ${name} findings`, list));
		}

		index++;
	}

	if (!context.plan.hasImpactTables && groups.size > 0) {
		leftOut.push('the per-client notes (the reactions are on each **Clients** line)');
	}

	const short = Math.max(0, groups.size - context.plan.fullBlocks);
	if (short > 0) {
		leftOut.push(`the hex excerpts of ${plural(short, 'code')} (their bytes are quoted inline)`);
	}

	return {blocks, leftOut};
}

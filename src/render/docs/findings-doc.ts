import {Buffer} from 'node:buffer';
import {hexRows} from '../../core/bytes/hex-layout.js';
import {escapeBytes} from '../../core/bytes/glyphs.js';
import {
	CATALOG,
	CLIENT_FAMILY_LABEL,
	REACTION_WORDS,
	type CatalogEntry,
	type ExampleStep,
	type FindingExample,
} from '../../core/findings/support/catalog.js';
import {FINDINGS_DOC_PATH} from '../../core/findings/support/docs-ref.js';
import {SDK_SCHEMAS} from '../../core/jsonrpc/sdk-schemas.js';
import {Session} from '../../core/session/session.js';
import {
	FINDING_CODES,
	type ClientImpact,
	type Finding,
	type FindingCode,
	type FindingDraft,
	type SessionMeta,
	type StreamName,
} from '../../core/types.js';
import {plainHexLines} from '../hex/plain.js';

/**
 * `docs/findings.md`, the finding catalog as a page, generated from {@link CATALOG} (`npm run docs`,
 * scripts/gen-docs.mjs) so that it cannot drift from the code: one section per code with what it is,
 * how it is recognised, the fix, how each client family reacts, and the example's bytes as mcp-wire
 * shows them (replayed through a real {@link Session}, the finding's bytes marked with `^^`).
 * A test compares the committed page with this function's output.
 */

/** A rule id (`R14`, `J5`, `C1`, `O3`, `L2`) as the code cites it. */
export const RULE_ID_PATTERN = /\b([RJCLO])(\d{1,2})\b/g;

/** One Markdown file of `docs/`, by its name relative to `docs/` (e.g. `protocol.md`). */
export interface DocFile {
	readonly name: string;
	readonly text: string;
}

/**
 * GitHub's heading anchor: lowercase, punctuation other than `-` and `_` dropped, spaces to `-`.
 * @param heading the heading text without the leading `#`s.
 */
export function headingAnchor(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replaceAll(/[^\p{L}\p{N}\s_-]/gu, '')
		.replaceAll(/\s/g, '-');
}

/**
 * Where each rule id is defined in `docs/`: a heading that starts with the id (`### R14. Shutdown…`).
 * @param files the Markdown files of `docs/`.
 * @returns id → `file.md#anchor` (the first heading wins).
 */
export function ruleAnchors(files: readonly DocFile[]): Map<string, string> {
	const anchors = new Map<string, string>();
	for (const file of files) {
		for (const line of file.text.split('\n')) {
			const match = /^#{2,4}\s+(([RJCLO]\d{1,2}|F\d{2})\b.*)$/.exec(line);
			if (match === null) continue;
			const id = match[2]!;
			if (!anchors.has(id)) anchors.set(id, `${file.name}#${headingAnchor(match[1]!)}`);
		}
	}
	return anchors;
}

const META: SessionMeta = {
	tool: {name: 'mcp-wire', version: 'docs'},
	node: 'v20',
	platform: 'linux',
	command: ['server'],
	envMode: 'sdk-default',
	startedAt: '1970-01-01T00:00:00.000Z',
	mode: 'replay',
};

/**
 * Replays an example through a fresh {@link Session} (the same path as `mcp-wire view`).
 * @returns the session's findings after `finish`.
 */
export function replayExample(example: FindingExample): readonly Finding[] {
	// The TS SDK's schemas, loaded: examples of schema findings (invalid-result) need them.
	const session = new Session(META, {schemas: SDK_SCHEMAS});
	let tMs = 0;
	for (const step of example.steps) {
		tMs = step.tMs ?? tMs;
		if ('stream' in step) session.pushChunk(step.stream, tMs, exampleBytes(step.bytes));
		else if ('event' in step)
			session.mark(
				step.event === 'stdin-closed' ? {type: 'stdin-closed', tMs} : {type: 'signal-sent', signal: step.event, tMs},
			);
		else {
			for (const stream of ['stdout', 'stderr'] as const) session.mark({type: 'eof', stream, tMs});
			session.exit({code: step.exit, signal: step.signal ?? null, tMs});
		}
	}
	session.finish(tMs);
	return session.getSnapshot().findings;
}

/** An example's binary string (one char per byte) as bytes. @throws RangeError on a char above 0xFF. */
export function exampleBytes(bytes: string): Uint8Array {
	for (const char of bytes) {
		if (char.codePointAt(0)! > 0xff)
			throw new RangeError(`example bytes must be 0–255, got U+${char.codePointAt(0)!.toString(16)}`);
	}
	return new Uint8Array(Buffer.from(bytes, 'latin1'));
}

const SEVERITY_WORD = {error: 'error', warning: 'warning', info: 'info'} as const;

function impactTable(impact: readonly ClientImpact[]): string[] {
	const lines = ['| client | reaction | what it does |', '|---|---|---|'];
	for (const entry of impact) {
		const note = entry.note === REACTION_WORDS[entry.reaction] ? '' : cell(entry.note);
		lines.push(`| ${CLIENT_FAMILY_LABEL[entry.client]} | ${REACTION_WORDS[entry.reaction]} | ${note} |`);
	}
	return lines;
}

function cell(text: string): string {
	return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function stepLine(step: ExampleStep, tMs: number): string {
	const time = `${tMs} ms`.padEnd(9);
	if ('stream' in step) return `${time}${step.stream.padEnd(8)}${escapeBytes(exampleBytes(step.bytes))}`;
	if ('event' in step)
		return `${time}${step.event === 'stdin-closed' ? 'the client closes stdin' : `the client sends ${step.event}`}`;
	return `${time}the process exits (${step.signal === undefined ? `code ${step.exit}` : `signal ${step.signal}`})`;
}

function exampleSection(code: FindingCode, example: FindingExample): string[] {
	const lines: string[] = [];
	if (example.steps.length > 0) {
		let tMs = 0;
		lines.push('```text');
		for (const step of example.steps) {
			tMs = step.tMs ?? tMs;
			lines.push(stepLine(step, tMs));
		}
		lines.push('```');
	}
	if (example.note !== undefined) lines.push('', example.note);
	if (example.live === true) return lines;
	const found = replayExample(example).find((finding) => finding.code === code);
	if (found === undefined) {
		throw new Error(
			`docs: the example of \`${code}\` does not produce \`${code}\` when replayed; fix the example in its catalog entry (or mark it live)`,
		);
	}
	lines.push(
		'',
		`mcp-wire reports \`${code}\` at ${found.stream} offset ${found.offset}${found.byteLength > 0 ? ` (${found.byteLength} ${found.byteLength === 1 ? 'byte' : 'bytes'}, marked)` : ''}: ${found.message}.`,
	);
	if (found.byteLength > 0) {
		const streamBytes = streamOf(example, found.stream);
		const rows = hexRows(streamBytes, {baseOffset: 0, highlight: [{offset: found.offset, length: found.byteLength}]});
		const shown = rows.filter((row) => row.cells.some((cellOfRow) => cellOfRow.isHighlighted)).slice(0, 4);
		lines.push('', '```text', ...plainHexLines(shown, {gutter: 'xxd'}), '```');
	}
	return lines;
}

function streamOf(example: FindingExample, stream: StreamName): Uint8Array {
	const parts = example.steps.filter(
		(step): step is Extract<ExampleStep, {stream: StreamName}> => 'stream' in step && step.stream === stream,
	);
	return exampleBytes(parts.map((part) => part.bytes).join(''));
}

function draftFor(
	code: FindingCode,
	variant: {readonly severity?: FindingDraft['severity']; readonly detail?: FindingDraft['detail']} = {},
): FindingDraft {
	return {
		code,
		stream: 'stdout',
		offset: 0,
		byteLength: 0,
		tMs: 0,
		...(variant.severity ? {severity: variant.severity} : {}),
		...(variant.detail ? {detail: variant.detail} : {}),
	};
}

function ruleLinks(rules: readonly string[], anchors: ReadonlyMap<string, string>): string {
	if (rules.length === 0) return 'none (an operating-system error, not a protocol rule)';
	return rules
		.map((rule) => {
			const anchor = anchors.get(rule);
			if (anchor === undefined) throw new Error(`docs: rule ${rule} (cited by the catalog) has no heading in docs/`);
			return `[${rule}](${anchor})`;
		})
		.join(', ');
}

/**
 * Resolves the short rule links catalog text writes (`[R5](docs/protocol.md#r5)`, or without `docs/`) to
 * the heading anchors of `docs/` (`protocol.md#r5-stdout-carries-only-mcp-messages`), relative to the
 * page, which lives in `docs/` itself.
 * @throws Error when a linked rule has no heading.
 */
function resolveRuleLinks(markdown: string, anchors: ReadonlyMap<string, string>): string {
	return markdown.replaceAll(/\]\((?:docs\/)?[a-z-]+\.md#([rjclo]\d{1,2})\)/g, (_link, id: string) => {
		const anchor = anchors.get(id.toUpperCase());
		if (anchor === undefined)
			throw new Error(`docs: rule ${id.toUpperCase()} (linked from the catalog) has no heading in docs/`);
		return `](${anchor})`;
	});
}

function section(code: FindingCode, entry: CatalogEntry, anchors: ReadonlyMap<string, string>): string[] {
	return section0(code, entry, anchors).map((line) => resolveRuleLinks(line, anchors));
}

function section0(code: FindingCode, entry: CatalogEntry, anchors: ReadonlyMap<string, string>): string[] {
	const doc = entry.doc;
	const lines = [
		`## ${code}`,
		'',
		`**${entry.title}** · default severity: ${SEVERITY_WORD[entry.severity]} · rules: ${ruleLinks(entry.rules, anchors)}`,
		'',
	];
	if (doc === undefined) {
		lines.push("_Not described yet: add a `doc` to this code's catalog entry and run `npm run docs`._", '');
	} else {
		lines.push(`**What.** ${doc.what}`, '', `**How it is recognised.** ${doc.recognised}`, '');
	}
	lines.push(`**Fix.** ${doc?.fix ?? entry.hint(draftFor(code))}`, '', '**Clients.**', '');
	if (doc?.variants === undefined) lines.push(...impactTable(entry.impact(draftFor(code))));
	else {
		for (const variant of doc.variants) {
			lines.push(`_${variant.label}:_`, '', ...impactTable(entry.impact(draftFor(code, variant))), '');
		}
		lines.pop();
	}
	if (doc !== undefined) lines.push('', '**Example.**', '', ...exampleSection(code, doc.example));
	lines.push('');
	return lines;
}

/**
 * Renders `docs/findings.md`.
 * @param docs the other Markdown files of `docs/` (to link each rule id to its heading).
 * @param catalog the catalog to render (default {@link CATALOG}: every code it holds, in its order).
 * @returns the page, ending with one newline.
 * @throws Error when a catalog rule has no heading in `docs`, or a non-live example does not produce its code.
 */
export function renderFindingsDoc(
	docs: readonly DocFile[],
	catalog: Readonly<Record<string, CatalogEntry>> = CATALOG,
): string {
	const anchors = ruleAnchors(docs);
	// In the stable order of FINDING_CODES (not the catalog's, which follows where entries live), then any other key.
	const rank = (code: string) => {
		const index = (FINDING_CODES as readonly string[]).indexOf(code);
		return index === -1 ? FINDING_CODES.length : index;
	};
	const codes = (Object.keys(catalog) as FindingCode[]).sort((a, b) => rank(a) - rank(b));
	const lines = [
		'# Finding catalog',
		'',
		'<!-- Generated by `npm run docs` from src/core/findings/rules/. Do not edit this file: edit the rule meta and run `npm run docs`. -->',
		'',
		'Every fault mcp-wire names has a stable kebab-case code. Codes are a public interface, like lint rule ids: they',
		'appear unchanged in `--json`, the plain log, reports, the TUI, `--ignore` and `--fail-on`, and a code is never',
		`renamed. Each finding in \`--json\` carries \`"docs": "${FINDINGS_DOC_PATH}#<code>"\`, a path from the root of the`,
		'repository (and of the installed package) to its section below; the plain log prints the same pointer.',
		'',
		'Severity follows what breaks a real client: **error**, at least one mainstream client loses a message, hangs or',
		'disconnects; **warning**, tolerated today but wrong or fragile; **info**, worth knowing. A finding names a cause',
		'only on evidence. Rule ids (R5, J4, O3…) link to [protocol.md](protocol.md); field cases (F01…) to',
		'[field-cases.md](field-cases.md).',
		'',
		"**How a finding is shown.** Every front end gives the code, the stream (named from the server's side: `stdin`,",
		'`stdout`, `stderr`) and the byte offset where the evidence starts; quotes the offending bytes as hex and as',
		'escaped text (a terminal hides `0D 0A`, `EF BB BF` or `1B 5B`); says in one line per client family what the client',
		"does with it; and gives the fix in the server's language where it can be told. `mcp-wire explain` maps the error",
		'text a client logged back to the finding that causes it.',
		'',
		'Client reactions: **fatal** the connection is closed · **hang** the awaited message never arrives and the request',
		"waits for the client's timeout · **corrupt** accepted with U+FFFD in place of the bad bytes · **drop+log** valid",
		"JSON rejected by the client's schema and logged · **skip+log** the line is dropped and an error logged · **skip**",
		'dropped silently · **ok** accepted · **not established** no source or test settles it yet.',
		'',
		'| code | default severity | what |',
		'|---|---|---|',
		...codes.map(
			(code) =>
				`| [\`${code}\`](#${headingAnchor(code)}) | ${catalog[code]!.severity} | ${cell(catalog[code]!.title)} |`,
		),
		'',
	];
	for (const code of codes) lines.push(...section(code, catalog[code]!, anchors));
	return lines.join('\n').replace(/\n+$/, '\n');
}

import {REACTION_ORDER, REACTION_WORDS as REACTION_LABEL} from '../../core/findings/support/catalog.js';
import {Command} from 'commander';
import {escapeText} from '../../core/bytes/glyphs.js';
import {CLIENT_FAMILY_LABEL} from '../../core/findings/support/catalog.js';
import {explainError, type ExplainResult} from '../../core/findings/explain.js';
import {FINDING_CODES, type FindingCode} from '../../core/types.js';
import {EXIT, UsageError} from '../exit-codes.js';
import {PACKAGE_ROOT} from '../version.js';
import {PROCESS_IO, type CommandIo} from './report.js';

/**
 * The plain-text answer of `mcp-wire explain` (no colour): who logs the message, then per fault its code,
 * severity and likelihood, title, why the message points at it, the fix and the client reactions, and a
 * last line on finding it in the bytes. Everything quoted from the input is escaped.
 * @param docsRoot the installed package's root: the `docs:` line then names the file that exists there
 * @returns lines joined with `\n`, ending with a newline.
 */
export function formatExplanation(result: ExplainResult, docsRoot?: string): string {
	const lines: string[] = [];
	if (result.explanations.length === 0) {
		lines.push(`No known wire fault matches: ${escapeText(result.input, 120)}`);
		const near = nearestFindingCode(result.input);
		if (near !== undefined) lines.push(`Did you mean \`mcp-wire explain ${near}\`?`);
		lines.push('Run `mcp-wire probe -- <your server command>` to see every byte the server writes.');
		return `${lines.join('\n')}\n`;
	}

	if (result.source !== undefined) {
		lines.push(`Logged by ${result.source}.`);
	}

	for (const explanation of result.explanations) {
		// A finding code asked for by name: what it is, not why a message points at it.
		if (result.docs !== undefined) {
			lines.push(`${explanation.code} (${explanation.severity}): ${explanation.title}`);
			lines.push(`  what: ${escapeText(explanation.why)}`);
		} else {
			lines.push('');
			lines.push(`${explanation.code} (${explanation.severity}, ${explanation.likelihood}): ${explanation.title}`);
			lines.push(`  why: ${escapeText(explanation.why)}`);
		}
		lines.push(`  fix: ${explanation.hint}`);
		const groups = REACTION_ORDER.map((reaction) => {
			const clients = explanation.impact
				.filter((entry) => entry.reaction === reaction)
				.map((entry) => CLIENT_FAMILY_LABEL[entry.client]);
			return clients.length === 0 ? '' : `${REACTION_LABEL[reaction]}: ${clients.join(', ')}`;
		}).filter((group) => group !== '');
		if (groups.length > 0) {
			lines.push(`  clients: ${groups.join(' · ')}`);
		}
		if (result.docs !== undefined) lines.push(`  docs: ${docsRoot === undefined ? '' : `${docsRoot}/`}${result.docs}`);
	}

	lines.push('');
	lines.push('See it in the bytes: mcp-wire probe -- <your server command>   (add --report for a paste-ready report)');
	return `${lines.join('\n')}\n`;
}

/**
 * The finding code a mistyped one most likely meant: `missing-newlinee` → `missing-newline`. Only for a
 * single code-like word (lowercase letters, digits, `-`) within 3 edits (Levenshtein) of a code; the
 * nearest wins, the catalog's order breaks ties.
 * @returns the code, or undefined when the input is no near miss of one
 */
export function nearestFindingCode(input: string): FindingCode | undefined {
	const word = input.trim().toLowerCase();
	if (!/^[a-z0-9-]{3,40}$/.test(word)) return undefined;
	let best: {code: FindingCode; distance: number} | undefined;
	for (const code of FINDING_CODES) {
		const distance = editDistance(word, code);
		if (distance <= 3 && distance < word.length / 2 && (best === undefined || distance < best.distance))
			best = {code, distance};
	}
	return best?.code;
}

/** Levenshtein distance (insertions, deletions, substitutions) between two short strings. */
function editDistance(a: string, b: string): number {
	let previous = Array.from({length: b.length + 1}, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
		}
		previous = current;
	}
	return previous[b.length]!;
}

/**
 * `mcp-wire explain "<error text>"`: maps an error message copied from a client log to the wire fault
 * behind it (core/findings/explain.ts), with the catalog's explanation and fix. The text comes from the arguments
 * (joined with spaces) or, when there are none or it is `-`, from stdin. `--json` prints the result as one
 * JSON object. Exit code 0 when a fault matches, 1 when none does, 2 for a usage error.
 * @param io where to read and write (default: the process's stdio).
 */
export function explainCommand(io: CommandIo = PROCESS_IO): Command {
	return new Command('explain')
		.description(
			'map an error message from a client log to the wire fault behind it, with the fix (or describe a finding code)',
		)
		.argument(
			'[text...]',
			'the error text, e.g. "Unexpected token \'S\', \\"Starting B\\"... is not valid JSON", or a finding code such as stray-output (- or absent: stdin)',
		)
		.option('--json', 'print the explanation as JSON')
		.action(async (words: string[], flags: {readonly json?: boolean}) => {
			const text =
				words.length === 0 || (words.length === 1 && words[0] === '-') ? await readErrorText(io) : words.join(' ');
			if (text.trim() === '') {
				throw new UsageError('no error text given');
			}

			const result = explainError(text);
			io.writeOut(flags.json === true ? `${JSON.stringify(result)}\n` : formatExplanation(result, PACKAGE_ROOT));
			if (result.explanations.length === 0) {
				process.exitCode = EXIT.findings;
			}
		});
}

/** What `explain` takes, for a run without text on a terminal (nothing piped). */
export const EXPLAIN_USAGE =
	'explain takes the error text from a client log: mcp-wire explain "<error text>" (or pipe the text into it)';

/** The error text from stdin; on a terminal (nothing piped) a usage error that says what `explain` takes. */
async function readErrorText(io: CommandIo): Promise<string> {
	try {
		return await io.readStdin();
	} catch (error) {
		if (error instanceof UsageError) throw new UsageError(EXPLAIN_USAGE);
		throw error;
	}
}

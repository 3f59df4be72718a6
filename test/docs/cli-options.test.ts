// docs/cli.md is the command reference: its option tables list every option each command's --help shows.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {buildProgram} from '../../src/cli/main.js';
import {describeRedactions} from '../../src/render/redact/index.js';

const CLI_DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'cli.md'), 'utf8');

/** The `## ` sections of docs/cli.md: heading text → body (up to the next `## `). */
function sections(): Map<string, string> {
	const result = new Map<string, string>();
	for (const part of CLI_DOC.split('\n## ').slice(1)) {
		const end = part.indexOf('\n');
		result.set(part.slice(0, end).trim(), part.slice(end + 1));
	}
	return result;
}

/** The flags in the first column of the option tables of the section whose heading names `command`. */
function documentedFlags(command: string): string[] | undefined {
	const entry = [...sections()].find(([heading]) => heading.split(/[^a-z-]+/).includes(command));
	if (entry === undefined) return undefined;
	const rows = [...entry[1].matchAll(/^\| (.+?) \|/gm)].map((row) => row[1]!);
	return [...new Set(rows.flatMap((cell) => [...cell.matchAll(/`(--[a-z-]+)/g)].map((flag) => flag[1]!)))].sort();
}

describe('docs/cli.md option tables', () => {
	it('every command has a section whose table lists exactly the options its --help shows', async () => {
		const program = await buildProgram(['node', 'mcp-wire']);
		const names = program.commands.map((command) => command.name());
		expect(names).toEqual(
			expect.arrayContaining([
				'probe',
				'tap',
				'view',
				'attach',
				'sessions',
				'report',
				'explain',
				'doctor',
				'wrap',
				'unwrap',
			]),
		);
		const mismatches: string[] = [];
		for (const command of program.commands) {
			const shown = command.options
				.filter((option) => !option.hidden && option.long !== '--help')
				.map((option) => option.long!);
			const documented = documentedFlags(command.name());
			const expected = [...new Set(shown)].sort();
			if (JSON.stringify(documented) !== JSON.stringify(expected))
				mismatches.push(
					`${command.name()}: documented ${JSON.stringify(documented)}, --help ${JSON.stringify(expected)}`,
				);
		}
		expect(mismatches).toEqual([]);
	});

	it('the report section quotes the redaction footers the report prints', () => {
		const flat = CLI_DOC.replaceAll(/\s+/g, ' ');
		const nothing = describeRedactions({});
		expect(nothing).toBe('Redaction: on; nothing secret-looking was found.');
		expect(flat).toContain(`"${nothing}"`);
		expect(flat).toContain(`"${describeRedactions({}, {quotesPayloads: false})}"`);
		expect(flat).toContain(`"${describeRedactions({'secret-value': 1})}"`);
	});
});

// The README's option table of `probe` lists every option the command has (issue 11: `--max-lines` was missing).
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {buildProgram} from '../../src/cli/main.js';
import {describeRedactions} from '../../src/render/report/redact.js';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The flags in the first column of the option table under the README heading that starts with `heading`. */
function tableFlags(heading: string): string[] {
	const start = README.indexOf(`\n${heading}`);
	expect(start, heading).toBeGreaterThan(-1);
	const end = README.indexOf('\n### ', start + 1);
	const section = README.slice(start, end === -1 ? undefined : end);
	return [...section.matchAll(/^\| (.+?) \|/gm)].flatMap((row) =>
		[...row[1]!.matchAll(/`(--[a-z-]+)/g)].map((flag) => flag[1]!),
	);
}

describe('README option tables', () => {
	it('probe: every option of the command is in the table, and nothing else', async () => {
		const program = await buildProgram(['node', 'mcp-wire', 'probe']);
		const probe = program.commands.find((command) => command.name() === 'probe')!;
		const flags = probe.options.map((option) => option.long!).filter((flag) => flag !== '--help');
		expect([...new Set(tableFlags('### `mcp-wire probe'))].sort()).toEqual([...new Set(flags)].sort());
	});

	it('report: the redaction sentence quotes the footer the report prints (issue 11)', () => {
		const flat = README.replaceAll(/\s+/g, ' ');
		const nothing = describeRedactions({});
		expect(nothing).toBe('Redaction: on; nothing secret-looking was found.');
		expect(flat).toContain(`"${nothing}"`);
		expect(flat).toContain(`"${describeRedactions({}, {quotesPayloads: false})}"`);
		const masked = describeRedactions({'secret-value': 1});
		expect(flat).toContain(`"${masked}"`);
		expect(flat).not.toMatch(
			/home directory becomes `~`, the user name `<user>`, secret-looking values and well-known key shapes are masked/,
		);
	});
});

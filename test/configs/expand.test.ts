import {describe, expect, it} from 'vitest';
import {expandEntry, type ServerEntry} from '../../src/configs/index.js';

const entry = (client: ServerEntry['client'], fields: Partial<ServerEntry>): ServerEntry => ({
	client,
	scope: 'project',
	file: '/p/.mcp.json',
	name: 's',
	transport: 'stdio',
	command: 'x',
	args: [],
	env: {},
	jsonPath: ['mcpServers', 's'],
	position: {line: 1, column: 1},
	isWrapped: false,
	...fields,
});
const options = {
	env: {HOME: '/home/ana', TOKEN: 't0k'},
	home: '/home/ana',
	cwd: '/work/proj',
	platform: 'linux' as const,
};

describe('expandEntry', () => {
	it('Claude Code: ${VAR} and ${VAR:-default}; unset ones stay and are listed', () => {
		const result = expandEntry(
			entry('claude-code', {
				command: '${HOME}/bin/srv',
				args: ['--port', '${PORT:-8080}', '${MISSING}'],
				env: {KEY: '${TOKEN}'},
				cwd: '${NOPE}/x',
			}),
			options,
		);
		expect(result.entry).toMatchObject({
			command: '/home/ana/bin/srv',
			args: ['--port', '8080', '${MISSING}'],
			env: {KEY: 't0k'},
			cwd: '${NOPE}/x',
		});
		expect(result.unresolved).toEqual(['MISSING', 'NOPE']);
	});

	it('VS Code and Cursor: ${env:X}, ${userHome}, ${workspaceFolder}, ${/}; ${input:...} is listed', () => {
		const result = expandEntry(
			entry('vscode', {
				command: '${userHome}/.local/bin/srv',
				args: ['${workspaceFolder}${/}data', '${workspaceFolderBasename}', '${env:UNSET}|${env:TOKEN}'],
				env: {KEY: '${input:apiKey}', GONE: null},
			}),
			options,
		);
		expect(result.entry).toMatchObject({
			command: '/home/ana/.local/bin/srv',
			args: ['/work/proj/data', 'proj', '|t0k'],
			env: {KEY: '${input:apiKey}', GONE: null},
		});
		expect(result.unresolved).toEqual(['input:apiKey']);
		expect(expandEntry(entry('cursor', {url: 'http://${env:TOKEN}'}), options).entry.url).toBe('http://t0k');
	});

	it('Claude Desktop: nothing is expanded', () => {
		const original = entry('claude-desktop', {command: '${HOME}/srv'});
		expect(expandEntry(original, options)).toEqual({entry: original, unresolved: []});
	});
});

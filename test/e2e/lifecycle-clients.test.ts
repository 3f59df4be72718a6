/**
 * What the real TS SDK v1 client (1.32.2) does with the lifecycle and schema faults of the example servers,
 * next to what mcp-wire says about the same server: the impact rows of `invalid-result`, `ping-error` and
 * `message-before-initialize` rest on these runs. One process at a time, generous timeouts.
 */
import {join} from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {getDefaultEnvironment, StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {McpError} from '@modelcontextprotocol/sdk/types.js';
import {describe, expect, it} from 'vitest';
import {ROOT, runJson} from './helpers.js';

const server = (name: string) =>
	new StdioClientTransport({
		command: 'node',
		args: [join(ROOT, 'examples', 'servers', 'node', `${name}.mjs`)],
		env: getDefaultEnvironment(),
		stderr: 'ignore',
	});

async function connected(name: string): Promise<Client> {
	const client = new Client({name: 'mcp-wire-ground-truth', version: '1.0.0'});
	await client.connect(server(name), {timeout: 30_000});
	return client;
}

describe('the real TS SDK client on lifecycle and schema faults', () => {
	it(
		'rejects the whole tools/list of tool-without-input-schema with the issue mcp-wire reports as invalid-result',
		{timeout: 120_000},
		async () => {
			const client = await connected('tool-without-input-schema');
			let failure: unknown;
			try {
				await client.listTools(undefined, {timeout: 30_000});
			} catch (error) {
				failure = error;
			} finally {
				await client.close();
			}
			const issues = (failure as {issues?: {path: PropertyKey[]; message: string}[]}).issues;
			expect(issues?.map((issue) => ({path: issue.path.map(String).join('.'), message: issue.message}))).toEqual([
				{path: 'tools.0.inputSchema', message: 'Invalid input: expected object, received undefined'},
			]);

			const run = await runJson([
				'probe',
				'--json',
				'--timeout',
				'60000',
				'--',
				'node',
				'examples/servers/node/tool-without-input-schema.mjs',
			]);
			const found = run.findings.filter((f) => f.code === 'invalid-result');
			expect(found.map((f) => [f.severity, f.detail?.['path'], f.detail?.['message']])).toEqual([
				['error', 'tools.0.inputSchema', 'Invalid input: expected object, received undefined'],
			]);
		},
	);

	it(
		'connects to and lists the tools of notifies-before-initialize (message-before-initialize is a warning)',
		{timeout: 120_000},
		async () => {
			const client = await connected('notifies-before-initialize');
			try {
				const tools = await client.listTools(undefined, {timeout: 30_000});
				expect(tools.tools.map((tool) => tool.name)).toEqual(['echo']);
			} finally {
				await client.close();
			}
		},
	);

	it(
		'works with ping-method-not-found until the host pings: client.ping() then fails with -32601',
		{timeout: 120_000},
		async () => {
			const client = await connected('ping-method-not-found');
			let failure: unknown;
			try {
				expect((await client.listTools(undefined, {timeout: 30_000})).tools.map((tool) => tool.name)).toEqual(['echo']);
				await client.ping({timeout: 30_000});
			} catch (error) {
				failure = error;
			} finally {
				await client.close();
			}
			expect(failure).toBeInstanceOf(McpError);
			expect((failure as McpError).code).toBe(-32601);
		},
	);
});

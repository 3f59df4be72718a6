import {readFileSync} from 'node:fs';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {getDefaultEnvironment, StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {decodeCapture} from '../../src/core/capture/binary-codec.js';
import {replayEvents} from '../../src/core/session/replay.js';
import {BIN, EVERYTHING, HANG_MS, scratch, waitFor, type Scratch} from './tap-helpers.js';

// The real MCP TypeScript SDK client talks to the real server-everything through `mcp-wire tap`.
describe('tap between the SDK client and server-everything', () => {
	let box: Scratch;
	beforeAll(() => {
		box = scratch();
	});
	afterAll(() => box.remove());

	it(
		'initialize, tools/list, tools/call echo and close all succeed, and the capture replays to every frame',
		{timeout: 60_000},
		async () => {
			const transport = new StdioClientTransport({
				command: 'node',
				args: [BIN, 'tap', '--name', 'everything', '--', 'node', EVERYTHING, 'stdio'],
				env: {
					...getDefaultEnvironment(),
					XDG_STATE_HOME: box.env['XDG_STATE_HOME']!,
					XDG_RUNTIME_DIR: box.env['XDG_RUNTIME_DIR']!,
				},
				stderr: 'pipe',
			});
			const stderr: string[] = [];
			transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString('utf8')));
			const client = new Client({name: 'mcp-wire-e2e', version: '1.0.0'});
			await client.connect(transport);
			expect(client.getServerVersion()?.name).toBe('mcp-servers/everything');
			const tools = await client.listTools();
			expect(tools.tools.map((t) => t.name)).toContain('echo');
			const result = await client.callTool({name: 'echo', arguments: {message: 'through the tap'}});
			expect(result.content).toEqual([{type: 'text', text: 'Echo: through the tap'}]);
			await client.close();

			// The server's stderr reached the client unchanged, and nothing of ours was added.
			expect(stderr.join('')).toContain('Starting default (STDIO) server...');
			expect(stderr.join('')).not.toContain('mcp-wire');

			const [file] = await waitFor(
				() => {
					const files = box.captures();
					return files.length === 1 && decodeCapture(readFileSync(files[0]!)).end !== undefined ? files : undefined;
				},
				HANG_MS,
				'the capture to end with its end record',
			);
			const decoded = decodeCapture(readFileSync(file!));
			expect(decoded.end).toMatchObject({complete: true, gaps: 0});
			expect(decoded.problems).toEqual([]);
			expect(decoded.header).toMatchObject({mode: 'tap', name: 'everything', command: ['node', EVERYTHING, 'stdio']});
			const session = replayEvents(decoded.header!, decoded.events);
			const frames = session.getSnapshot().frames.filter((f) => f.stream !== 'stderr');
			// server-everything also sends notifications (list_changed, logging) at moments of its choosing.
			const serverNotes = frames.filter((f) => f.stream === 'stdout' && f.kind === 'notification');
			expect(serverNotes.every((f) => f.method?.startsWith('notifications/'))).toBe(true);
			const shape = frames
				.filter((f) => !serverNotes.includes(f))
				.map((f) => `${f.stream} ${f.kind} ${f.method ?? f.answers?.method ?? ''}`.trim());
			expect(shape).toEqual([
				'stdin request initialize',
				'stdout response initialize',
				'stdin notification notifications/initialized',
				'stdin request tools/list',
				'stdout response tools/list',
				'stdin request tools/call',
				'stdout response tools/call',
			]);
			const call = frames.find((f) => f.method === 'tools/call');
			expect(call?.message).toMatchObject({params: {name: 'echo', arguments: {message: 'through the tap'}}});
			expect(session.getSnapshot().marks.map((m) => m.type)).toContain('stdin-closed');
		},
	);
});

/**
 * Ground truth: every example server under the real TypeScript SDK v2 client (`@modelcontextprotocol/client`
 * 2.4.0, installed by scripts/install-clients.mjs outside node_modules): `Client.connect` + `listTools` (+
 * `callTool` for an example recorded with `--call`) + `close` with the default options (a plain `initialize`
 * offering 2025-11-25, docs/protocol.md C2), the SDK's default environment and stderr drained. mcp-wire's outcome for `ts-sdk-v2` must match what the client did.
 */
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {beforeAll, describe, expect, it} from 'vitest';
import {
	callsOf,
	compareAll,
	disagreements,
	EXAMPLES,
	mapLimit,
	predicted,
	ROOT,
	type Example,
	type RealOutcome,
} from './ground-truth.js';
import {directCommand, installedPackage, REAL_CLIENTS} from './real-clients.js';

/** As the v1 ground truth: a slow-by-design example (20 s) must not hit it on a busy machine. */
const REQUEST_TIMEOUT_MS = 60_000;
const PARALLEL = 16;

/** Where the TS SDK v2 client does not do what mcp-wire's ts-sdk-v2 model says, and why. */
const KNOWN: Readonly<Record<string, string>> = {};

/** The part of the v2 client API the test drives (the package is not a dependency, so no types). */
interface V2Client {
	onerror?: (error: Error) => void;
	connect(transport: unknown, options: {timeout: number}): Promise<void>;
	listTools(params: undefined, options: {timeout: number}): Promise<{tools: unknown[]}>;
	callTool(
		params: {name: string; arguments: Record<string, unknown>},
		resultSchema: undefined,
		options: {timeout: number; onprogress: () => void},
	): Promise<{isError?: boolean}>;
	close(): Promise<void>;
}
interface V2Module {
	Client: new (info: {name: string; version: string}) => V2Client;
}
interface V2StdioModule {
	StdioClientTransport: new (params: {command: string; args: string[]; cwd: string; stderr: 'pipe'}) => {
		stderr: NodeJS.ReadableStream | null;
	};
}

let sdk: {client: V2Module; stdio: V2StdioModule};

async function runV2Client(example: Example): Promise<RealOutcome> {
	const logged: string[] = [];
	const [command, ...args] = directCommand(example.command);
	const transport = new sdk.stdio.StdioClientTransport({
		command: command!,
		args,
		cwd: ROOT,
		stderr: 'pipe',
	});
	transport.stderr?.on('data', () => {});
	const client = new sdk.client.Client({name: 'mcp-wire-ground-truth', version: '1.0.0'});
	client.onerror = (error) => logged.push(String(error.message).slice(0, 200));
	let connected = false;
	let tools: number | undefined;
	let called: RealOutcome['called'];
	let error: string | undefined;
	try {
		await client.connect(transport, {timeout: REQUEST_TIMEOUT_MS});
		connected = true;
		tools = (await client.listTools(undefined, {timeout: REQUEST_TIMEOUT_MS})).tools.length;
		// As the v1 ground truth: the probe's call, with a progress callback so a progressToken is sent.
		for (const call of callsOf(example)) {
			const result = await client.callTool({name: call.name, arguments: {...call.arguments}}, undefined, {
				timeout: REQUEST_TIMEOUT_MS,
				onprogress: () => {},
			});
			called = result.isError === true ? 'tool-error' : 'ok';
		}
		if (called !== undefined) await new Promise((resolve) => setTimeout(resolve, 500));
	} catch (caught) {
		called = undefined;
		error = (caught instanceof Error ? caught.message : String(caught)).replaceAll(/\s+/g, ' ').slice(0, 200);
	}
	await client.close().catch(() => {});
	return {
		connected,
		...(tools === undefined ? {} : {tools}),
		...(called === undefined ? {} : {called}),
		...(error === undefined ? {} : {error}),
		logged,
	};
}

describe(`the real TS SDK v2 client (${REAL_CLIENTS['ts-sdk-v2'].version}) on every example server`, () => {
	beforeAll(async () => {
		const dir = installedPackage('ts-sdk-v2');
		sdk = {
			client: (await import(pathToFileURL(join(dir, 'dist', 'index.mjs')).href)) as V2Module,
			stdio: (await import(pathToFileURL(join(dir, 'dist', 'stdio.mjs')).href)) as V2StdioModule,
		};
	});

	it('does what mcp-wire predicts for ts-sdk-v2', async () => {
		const results = await mapLimit(EXAMPLES, PARALLEL, runV2Client);
		const reals = new Map(EXAMPLES.map((example, index) => [example.name, results[index]!]));
		const {table, problems} = compareAll(
			'TS SDK v2 client',
			reals,
			(name) => predicted(name, 'ts-sdk-v2'),
			KNOWN,
			(name, p, r) => disagreements(`ts-sdk-v2/${name}`, p, r, callsOf(EXAMPLES.find((e) => e.name === name)!).length),
		);
		console.log(table);
		expect(problems).toEqual([]);
		// Where v2 differs from v1: a banner line is skipped silently, so nothing is logged.
		expect(reals.get('stray-print-node')).toEqual({
			connected: true,
			tools: 1,
			logged: [],
		});
	}, 600_000);
});

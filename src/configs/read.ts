/**
 * Reading MCP server entries out of a client config file, with the exact position of every problem
 * (docs/cli.md#doctor). Never writes.
 */
import {readFileSync} from 'node:fs';
import type {Node} from 'jsonc-parser';
import {brokenWord, createLineIndex, findProperty, firstInvalidUtf8, parseConfigText} from './parse.js';
import {detectWrap} from './wrap-marker.js';
import {clientProfile} from '../core/clients/registry.js';
import {
	ConfigError,
	type ConfigFile,
	type ConfigProblem,
	type ConfigProblemKind,
	type Position,
	type ServerEntry,
	type ServerTransport,
} from './types.js';

/** The result of reading one config file: its well-formed entries and every problem found. */
export interface ReadResult {
	readonly servers: ServerEntry[];
	readonly problems: ConfigProblem[];
}

/** `file:line:column: message`, the one-line form of a problem for terminals. */
export function formatProblem(problem: ConfigProblem): string {
	return `${problem.file}:${problem.line}:${problem.column}: ${problem.message}`;
}

/**
 * Reads the file's bytes as UTF-8 text. Throws ConfigError `not-found` when it cannot be read.
 * Returns the text and, when the bytes are not valid UTF-8, the byte offset of the first bad byte.
 */
export function readConfigText(file: ConfigFile): {text: string; bytes: Buffer; invalidUtf8At: number} {
	let bytes: Buffer;
	try {
		bytes = readFileSync(file.path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? 'error';
		throw new ConfigError('not-found', file.path, `${file.path}: cannot read the config file (${code})`);
	}
	return {text: bytes.toString('utf8'), bytes, invalidUtf8At: firstInvalidUtf8(bytes)};
}

/** Same separators, no trailing separator: how two spellings of one project path are compared. */
function normaliseProjectKey(key: string): string {
	return key.replace(/\\/g, '/').replace(/\/+$/, '');
}

/**
 * The value node at `file.serversPath`, and the exact path to it. For Claude Code's local scope the
 * project key also matches when it is spelled with the other separator or a trailing slash.
 */
export function findServersNode(root: Node, file: ConfigFile): {node: Node | undefined; path: string[]} {
	const path: string[] = [];
	let node: Node | undefined = root;
	for (const [index, key] of file.serversPath.entries()) {
		if (node?.type !== 'object') {
			return {node: undefined, path: [...file.serversPath]};
		}
		let property = findProperty(node, key);
		if (property === undefined && file.scope === 'local' && index === 1) {
			const wanted = normaliseProjectKey(key);
			property = (node.children ?? []).findLast(
				(candidate) =>
					typeof candidate.children?.[0]?.value === 'string' &&
					normaliseProjectKey(candidate.children[0].value as string) === wanted,
			);
		}
		const actualKey = property?.children?.[0]?.value;
		path.push(typeof actualKey === 'string' ? actualKey : key);
		node = property?.children?.[1];
	}
	return {node, path};
}

function describe(node: Node): string {
	return node.type === 'null' ? 'null' : `${node.type === 'array' || node.type === 'object' ? 'an' : 'a'} ${node.type}`;
}

function parseTransport(type: string): ServerTransport | undefined {
	switch (type) {
		case 'stdio':
			return 'stdio';
		case 'http':
		case 'streamable-http':
		case 'streamableHttp':
			return 'http';
		case 'sse':
			return 'sse';
		default:
			return undefined;
	}
}

/** Reads the server entries from config text already in memory (see {@link readServers} for the rules). */
export function parseServers(file: ConfigFile, text: string): ReadResult {
	const positionOf = createLineIndex(text);
	const problems: ConfigProblem[] = [];
	const servers: ServerEntry[] = [];
	const problem = (kind: ConfigProblemKind, offset: number, message: string, server?: string): void => {
		const {line, column} = positionOf(offset);
		problems.push({kind, file: file.path, line, column, message, ...(server === undefined ? {} : {server})});
	};
	if (file.unsupported !== undefined) {
		problem('unsupported', 0, file.unsupported);
		return {servers, problems};
	}
	const parsed = parseConfigText(text, file.format);
	if (parsed.failure) {
		problem('broken-json', parsed.failure.offset, `${brokenWord(file.format)}: ${parsed.failure.message}`);
		return {servers, problems};
	}
	if (parsed.root.type !== 'object') {
		problem('not-object', parsed.root.offset, `the file must hold a JSON object, found ${describe(parsed.root)}`);
		return {servers, problems};
	}
	const {node: container, path: containerPath} = findServersNode(parsed.root, file);
	if (container === undefined) {
		return {servers, problems};
	}
	const containerName = containerPath.map((key) => JSON.stringify(key)).join(' → ');
	if (container.type !== 'object') {
		problem(
			'not-object',
			container.offset,
			`${containerName} must be an object mapping server names to entries, found ${describe(container)}`,
		);
		return {servers, problems};
	}
	const properties = (container.children ?? []).filter((property) => property.type === 'property');
	const lastIndex = new Map<string, number>();
	for (const [index, property] of properties.entries()) {
		lastIndex.set(String(property.children?.[0]?.value), index);
	}
	for (const [index, property] of properties.entries()) {
		const keyNode = property.children?.[0];
		const valueNode = property.children?.[1];
		if (keyNode === undefined || valueNode === undefined) {
			continue;
		}
		const name = String(keyNode.value);
		if (lastIndex.get(name) !== index) {
			const later = properties[lastIndex.get(name) ?? index]?.children?.[0];
			const laterAt = positionOf(later?.offset ?? keyNode.offset);
			problem(
				'duplicate-name',
				keyNode.offset,
				`server "${name}" is defined twice; the client uses the later one at line ${laterAt.line}`,
				name,
			);
			continue;
		}
		const entry = readEntry(
			file,
			name,
			keyNode,
			valueNode,
			[...containerPath, name],
			positionOf(keyNode.offset),
			problem,
		);
		if (entry !== undefined) {
			servers.push(entry);
		}
	}
	return {servers, problems};
}

type ProblemSink = (kind: ConfigProblemKind, offset: number, message: string, server?: string) => void;

function readEntry(
	file: ConfigFile,
	name: string,
	keyNode: Node,
	valueNode: Node,
	jsonPath: string[],
	position: Position,
	problem: ProblemSink,
): ServerEntry | undefined {
	if (valueNode.type !== 'object') {
		problem('not-object', valueNode.offset, `server "${name}" must be an object, found ${describe(valueNode)}`, name);
		return undefined;
	}
	let isValid = true;
	const bad = (node: Node, message: string): void => {
		isValid = false;
		problem('bad-field', node.offset, message, name);
	};
	const field = (key: string): Node | undefined => findProperty(valueNode, key)?.children?.[1];
	const stringField = (key: string): string | undefined => {
		const node = field(key);
		if (node === undefined) {
			return undefined;
		}
		if (node.type !== 'string') {
			bad(node, `"${key}" of server "${name}" must be a string, found ${describe(node)}`);
			return undefined;
		}
		return node.value as string;
	};

	const typeNode = field('type');
	const type = stringField('type');
	const command = stringField('command');
	const url = stringField('url');
	const cwd = stringField('cwd');
	let transport: ServerTransport | undefined;
	if (type !== undefined) {
		transport = parseTransport(type);
		if (transport === undefined && typeNode !== undefined) {
			bad(
				typeNode,
				`server "${name}" has an unknown "type" ${JSON.stringify(type)} (expected "stdio", "http" or "sse")`,
			);
		}
	} else if (field('command') !== undefined) {
		transport = 'stdio';
	} else if (field('url') !== undefined) {
		transport = 'http';
	} else if (typeNode === undefined) {
		problem('no-command', keyNode.offset, `server "${name}" has neither "command" nor "url"`, name);
		return undefined;
	}
	if (transport === 'stdio' && field('command') === undefined) {
		problem('no-command', keyNode.offset, `server "${name}" is a stdio server without "command"`, name);
		return undefined;
	}
	if (transport === 'stdio' && command === '') {
		problem('no-command', field('command')?.offset ?? keyNode.offset, `server "${name}" has an empty "command"`, name);
		return undefined;
	}
	if ((transport === 'http' || transport === 'sse') && field('url') === undefined) {
		problem('no-command', keyNode.offset, `server "${name}" has "type" ${JSON.stringify(type)} but no "url"`, name);
		return undefined;
	}

	const args: string[] = [];
	const argsNode = field('args');
	if (argsNode !== undefined) {
		if (argsNode.type !== 'array') {
			bad(argsNode, `"args" of server "${name}" must be an array of strings, found ${describe(argsNode)}`);
		} else {
			for (const [index, element] of (argsNode.children ?? []).entries()) {
				if (element.type === 'string') {
					args.push(element.value as string);
				} else {
					bad(element, `"args"[${index}] of server "${name}" must be a string, found ${describe(element)}`);
				}
			}
		}
	}

	const env: Record<string, string | null> = {};
	const envNode = field('env');
	if (envNode !== undefined) {
		if (envNode.type !== 'object') {
			bad(envNode, `"env" of server "${name}" must be an object of strings, found ${describe(envNode)}`);
		} else {
			for (const property of envNode.children ?? []) {
				const key = String(property.children?.[0]?.value);
				const value = property.children?.[1];
				if (value === undefined) {
					continue;
				}
				if (value.type === 'string') {
					env[key] = value.value as string;
				} else if (file.client === 'vscode' && (value.type === 'number' || value.type === 'boolean')) {
					env[key] = String(value.value);
				} else if (file.client === 'vscode' && value.type === 'null') {
					env[key] = null;
				} else {
					bad(value, `"env" → "${key}" of server "${name}" must be a string, found ${describe(value)}`);
				}
			}
		}
	}
	// The client's own start-up limit for this entry (docs/clients.md#the-clients): a number in the layout's unit.
	const layout = clientProfile(file.client).configs[0]?.servers;
	const limitNode = layout?.keys.startupTimeout === undefined ? undefined : field(layout.keys.startupTimeout);
	const startupTimeoutMs =
		limitNode?.type === 'number' && typeof limitNode.value === 'number' && limitNode.value > 0
			? limitNode.value * (layout?.timeoutUnit === 's' ? 1000 : 1)
			: undefined;
	if (!isValid || transport === undefined) {
		return undefined;
	}
	const isWrapped = transport === 'stdio' && command !== undefined && detectWrap([command, ...args]) !== undefined;
	return {
		client: file.client,
		scope: file.scope,
		file: file.path,
		name,
		transport,
		...(transport === 'stdio' && command !== undefined ? {command} : {}),
		args,
		env,
		...(cwd === undefined ? {} : {cwd}),
		...(startupTimeoutMs === undefined ? {} : {startupTimeoutMs}),
		...(url === undefined || transport === 'stdio' ? {} : {url}),
		jsonPath,
		position,
		isWrapped,
	};
}

/**
 * Reads every server entry of one config file (docs/cli.md#doctor).
 *
 * Entries: the object at `file.serversPath` maps names to entries. `type` (`stdio`, `http`
 * (also `streamable-http`), `sse`) decides the transport; without it an entry with `command` is stdio
 * and one with only `url` is http. `args` defaults to `[]`, `env` to `{}`. VS Code may also give
 * numbers/booleans (stringified) and `null` (unset) in `env`.
 *
 * Problems (each with file, 1-based line:column and a one-line message; the entry is then left out of
 * `servers`):
 * - broken JSON, at the first error (a trailing comma at the comma); strict for `json` files, JSONC
 *   for VS Code; empty files, a BOM in a strict file and invalid UTF-8 count as broken JSON;
 * - a file, servers map or entry that is not an object (at the offending value);
 * - an entry with no `command` and no `url` (at the entry's name);
 * - a field of the wrong type (at the field's value);
 * - a name defined twice (at the earlier one, which the client ignores).
 * A missing servers map is not a problem (no servers). Throws ConfigError `not-found` if the file
 * cannot be read.
 */
export function readServers(file: ConfigFile): ReadResult {
	const {text, bytes, invalidUtf8At} = readConfigText(file);
	if (invalidUtf8At >= 0) {
		const prefix = bytes.subarray(0, invalidUtf8At).toString('utf8');
		const {line, column} = createLineIndex(prefix)(prefix.length);
		return {
			servers: [],
			problems: [{kind: 'broken-json', file: file.path, line, column, message: 'the file is not valid UTF-8'}],
		};
	}
	return parseServers(file, text);
}

/**
 * The files (of `files`) whose servers map has an entry named `name`, valid or not, in the order
 * given; files that do not exist, cannot be read or are broken JSON are skipped. `wrap NAME` uses it
 * to find the one file to edit (none: unknown server; several: ask for `--client`/`--config`).
 */
export function locateServer(files: readonly ConfigFile[], name: string): ConfigFile[] {
	return files.filter((file) => {
		if (!file.exists) {
			return false;
		}
		let result: ReadResult;
		try {
			result = readServers(file);
		} catch {
			return false;
		}
		return (
			result.servers.some((server) => server.name === name) ||
			result.problems.some((problem) => problem.server === name)
		);
	});
}

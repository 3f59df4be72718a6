/**
 * `mcp-wire wrap NAME` / `mcp-wire unwrap NAME` as plans and an atomic apply (docs/cli.md#wrap-and-unwrap).
 *
 * A wrap rewrites ONE entry so the tap runs the original command:
 *   before: "command": "node", "args": ["server.js"]
 *   after:  "command": "npx",  "args": ["-y", "mcp-wire", "tap", "--name", "fs", "--", "node", "server.js"]
 * Only the `command` value and the start of the `args` array change (or an `args` property is added
 * right after `command`); every other byte of the file stays as it was, comments and all. The edits are
 * computed on jsonc-parser's syntax tree and applied with its `applyEdits`; `modify` is not used
 * because it re-formats neighbouring values.
 *
 * The original is recorded in the entry itself: the tokens after the tap's `--` are the original
 * command and arguments, byte for byte (the original `command` string literal is moved, not re-encoded).
 * An unwrap restores them. It restores the exact original bytes of the entry from the backup
 * (see {@link backupPathOf}) when the backup's entry equals the unwrapped entry (so a missing `args` comes
 * back missing); otherwise (the entry was edited while wrapped, or no backup) it undoes the wrap edit
 * structurally, which gives the same bytes except that an `args` property wrap added stays as `[]`.
 */
import {createHash, randomBytes} from 'node:crypto';
import {
	chmodSync,
	chownSync,
	closeSync,
	fsyncSync,
	mkdirSync,
	openSync,
	readFileSync,
	realpathSync,
	renameSync,
	statSync,
	unlinkSync,
	writeFileSync,
	writeSync,
} from 'node:fs';
import path from 'node:path';
import {applyEdits, getNodeValue, type Edit, type Node} from 'jsonc-parser';
import {unifiedDiff} from './diff.js';
import {brokenWord, createLineIndex, findProperty, parseConfigText} from './parse.js';
import {isInlineTable, tomlString} from './toml.js';
import {findServersNode, parseServers, readConfigText} from './read.js';
import {detectWrap} from './wrap-marker.js';
import {ConfigError, type ConfigFile, type ServerEntry} from './types.js';

/**
 * A planned edit of one config file (nothing is written until {@link applyPlan}).
 * - `status`: `changed` (the plan edits the file), or, for an idempotent no-op, `already-wrapped`
 *   (wrap of a wrapped entry) / `not-wrapped` (unwrap of an entry that is not wrapped).
 * - `changed`: `after !== before`.
 * - `before` / `after`: the whole file text now and after the edit.
 * - `diff`: unified diff of before → after (see `unifiedDiff`), '' when unchanged; what `--dry-run` prints.
 * - `restoredFrom` (unwrap only): `backup` when the entry's exact original bytes came from the backup,
 *   `args` when the wrap was undone structurally.
 */
export interface EditPlan {
	readonly action: 'wrap' | 'unwrap';
	readonly status: 'changed' | 'already-wrapped' | 'not-wrapped';
	readonly changed: boolean;
	readonly file: string;
	readonly server: string;
	readonly jsonPath: readonly string[];
	readonly before: string;
	readonly after: string;
	readonly diff: string;
	readonly restoredFrom?: 'backup' | 'args';
}

/**
 * Where the backup of a config file goes (docs/cli.md#wrap-and-unwrap), or undefined for none.
 * - A user or local config (in the home): `<file>.mcp-wire.bak`, beside it.
 * - A project config (`.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`: files teams commit) never gets
 *   a file in the repository: its backup is `<backupsDir>/<name>-<hash>.bak`, where `hash` is the first
 *   16 hex digits of the SHA-256 of the file's absolute path (one backup per project file), and none
 *   when `backupsDir` is undefined (no home to keep it in).
 * @param backupsDir absolute directory for project backups (the CLI passes `<state dir>/mcp-wire/backups`)
 */
export function backupPathOf(file: ConfigFile, backupsDir: string | undefined): string | undefined {
	if (file.scope !== 'project') return `${file.path}.mcp-wire.bak`;
	if (backupsDir === undefined) return undefined;
	const hash = createHash('sha256').update(path.resolve(file.path)).digest('hex').slice(0, 16);
	const name = path.basename(file.path).replace(/^\./, '');
	return path.join(backupsDir, `${name}-${hash}.bak`);
}

interface LoadedEntry {
	readonly text: string;
	readonly entry: ServerEntry;
	readonly entryNode: Node;
	readonly commandNode: Node;
	readonly argsNode: Node | undefined;
}

function nodeText(text: string, node: Node): string {
	return text.slice(node.offset, node.offset + node.length);
}

/** `value` as a string literal of the file's format (TOML shares JSON's escapes but wants DEL escaped). */
function literal(file: ConfigFile, value: string): string {
	return file.format === 'toml' ? tomlString(value) : JSON.stringify(value);
}

function eolOf(text: string): string {
	return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Reads, parses and finds the stdio entry `name`; every failure is a ConfigError (file untouched). */
function loadEntry(file: ConfigFile, name: string): LoadedEntry {
	if (file.unsupported !== undefined) {
		throw new ConfigError('unsupported', file.path, `${file.path}: ${file.unsupported}; not editing it`);
	}
	const {text, bytes, invalidUtf8At} = readConfigText(file);
	if (invalidUtf8At >= 0) {
		const prefix = bytes.subarray(0, invalidUtf8At).toString('utf8');
		const position = createLineIndex(prefix)(prefix.length);
		throw new ConfigError(
			'broken-json',
			file.path,
			`${file.path}:${position.line}:${position.column}: the file is not valid UTF-8; not editing it`,
			position,
		);
	}
	const parsed = parseConfigText(text, file.format);
	if (parsed.failure) {
		const position = createLineIndex(text)(parsed.failure.offset);
		throw new ConfigError(
			'broken-json',
			file.path,
			`${file.path}:${position.line}:${position.column}: ${brokenWord(file.format)}: ${parsed.failure.message}; not editing it`,
			position,
		);
	}
	const where = file.serversPath.map((key) => JSON.stringify(key)).join(' → ');
	const container = parsed.root.type === 'object' ? findServersNode(parsed.root, file).node : undefined;
	const names =
		container?.type === 'object'
			? (container.children ?? []).map((property) => String(property.children?.[0]?.value))
			: [];
	if (container?.type !== 'object' || findProperty(container, name) === undefined) {
		const there =
			names.length === 0 ? 'there are no servers there' : `servers there: ${[...new Set(names)].join(', ')}`;
		throw new ConfigError('unknown-server', file.path, `${file.path}: no server "${name}" under ${where} (${there})`);
	}
	const {servers, problems} = parseServers(file, text);
	const entry = servers.find((server) => server.name === name);
	const problem = problems.find((candidate) => candidate.server === name && candidate.kind !== 'duplicate-name');
	if (entry === undefined || problem !== undefined) {
		const message = problem === undefined ? `server "${name}" is not a valid entry` : problem.message;
		const position = problem === undefined ? undefined : {line: problem.line, column: problem.column};
		throw new ConfigError(
			'invalid-entry',
			file.path,
			`${file.path}:${position?.line ?? 1}:${position?.column ?? 1}: ${message}; not editing it`,
			position,
		);
	}
	if (entry.transport !== 'stdio') {
		throw new ConfigError(
			'not-stdio',
			file.path,
			`${file.path}:${entry.position.line}:${entry.position.column}: server "${name}" is an ${entry.transport.toUpperCase()} server (${entry.url ?? 'no url'}); only stdio servers can run through the tap`,
			entry.position,
		);
	}
	const entryNode = findProperty(container, name)?.children?.[1] as Node;
	const commandNode = findProperty(entryNode, 'command')?.children?.[1] as Node;
	const argsNode = findProperty(entryNode, 'args')?.children?.[1];
	return {text, entry, entryNode, commandNode, argsNode};
}

function makePlan(
	file: ConfigFile,
	loaded: LoadedEntry,
	action: EditPlan['action'],
	status: EditPlan['status'],
	after: string,
	restoredFrom?: EditPlan['restoredFrom'],
): EditPlan {
	const changed = after !== loaded.text;
	return {
		action,
		status,
		changed,
		file: file.path,
		server: loaded.entry.name,
		jsonPath: loaded.entry.jsonPath,
		before: loaded.text,
		after,
		diff: changed ? unifiedDiff(loaded.text, after, file.path) : '',
		...(restoredFrom === undefined ? {} : {restoredFrom}),
	};
}

/** The edits that insert `tokens` (JSON literals) at the start of `args`, in the array's own style. */
function argsInsertEdits(file: ConfigFile, text: string, loaded: LoadedEntry, tokens: readonly string[]): Edit[] {
	const {argsNode, commandNode, entryNode} = loaded;
	const eol = eolOf(text);
	if (argsNode === undefined && file.format === 'toml') return tomlArgsInsert(text, loaded, tokens);
	if (argsNode === undefined) {
		const commandProperty = commandNode.parent as Node;
		const lineStart =
			Math.max(text.lastIndexOf('\n', commandProperty.offset - 1), text.lastIndexOf('\r', commandProperty.offset - 1)) +
			1;
		const lead = text.slice(lineStart, commandProperty.offset);
		const isOwnLine = /^[ \t]*$/.test(lead) && lineStart > entryNode.offset;
		const separator = isOwnLine ? `,${eol}${lead}` : ', ';
		return [
			{
				offset: commandNode.offset + commandNode.length,
				length: 0,
				content: `${separator}"args": [${tokens.join(', ')}]`,
			},
		];
	}
	const elements = argsNode.children ?? [];
	const first = elements[0];
	if (first === undefined) {
		return [{offset: argsNode.offset + 1, length: 0, content: tokens.join(', ')}];
	}
	const between = text.slice(argsNode.offset + 1, first.offset);
	const lastBreak = Math.max(between.lastIndexOf('\n'), between.lastIndexOf('\r'));
	let separator: string;
	if (lastBreak >= 0 && /^[ \t]*$/.test(between.slice(lastBreak + 1))) {
		separator = `,${eol}${between.slice(lastBreak + 1)}`;
	} else {
		const second = elements[1];
		const gap = second === undefined ? '' : text.slice(first.offset + first.length, second.offset);
		separator = /^,[ \t]*$/.test(gap) ? gap : ', ';
	}
	return [{offset: first.offset, length: 0, content: tokens.map((token) => token + separator).join('')}];
}

/**
 * A TOML entry without `args`: `args = [...]` on a line of its own after the `command` line (after any comment
 * there), indented like it; in an inline table, `, args = [...]` right after the command's value.
 */
function tomlArgsInsert(text: string, loaded: LoadedEntry, tokens: readonly string[]): Edit[] {
	const {commandNode, entryNode} = loaded;
	const array = `args = [${tokens.join(', ')}]`;
	const valueEnd = commandNode.offset + commandNode.length;
	if (isInlineTable(entryNode)) return [{offset: valueEnd, length: 0, content: `, ${array}`}];
	const property = commandNode.parent as Node;
	const lineStart =
		Math.max(text.lastIndexOf('\n', property.offset - 1), text.lastIndexOf('\r', property.offset - 1)) + 1;
	const lead = /^[ \t]*/.exec(text.slice(lineStart, property.offset))?.[0] ?? '';
	const breakAt = text.slice(valueEnd).search(/\r\n|\n|\r/);
	const lineEnd = breakAt < 0 ? text.length : valueEnd + breakAt;
	return [{offset: lineEnd, length: 0, content: `${eolOf(text)}${lead}${array}`}];
}

/**
 * Plans wrapping server `name` of `file` with `tapCommand` (e.g. `['npx', '-y', 'mcp-wire', 'tap',
 * '--name', name, '--']`): `command` becomes `tapCommand[0]` and `args` becomes
 * `[...tapCommand.slice(1), originalCommand, ...originalArgs]` (docs/cli.md#wrap-and-unwrap). Idempotent: an entry that
 * already runs through `mcp-wire tap` gives a plan with `status: 'already-wrapped'`, `changed: false`.
 *
 * Throws ConfigError `not-found`, `broken-json` (with line:column), `unknown-server`, `invalid-entry`
 * or `not-stdio`; TypeError when `tapCommand` has no `<mcp-wire> tap ... --` marker (its last token
 * must be `--`), since the wrap could then not be recognised or undone. Reads the file; writes nothing.
 */
export function planWrap(file: ConfigFile, name: string, tapCommand: readonly string[]): EditPlan {
	const [tapProgram, ...tapArgs] = tapCommand;
	if (
		tapProgram === undefined ||
		tapArgs[tapArgs.length - 1] !== '--' ||
		detectWrap([...tapCommand, 'x']) === undefined
	) {
		throw new TypeError(`tapCommand must be "<mcp-wire launcher> tap [options] --", got ${JSON.stringify(tapCommand)}`);
	}
	const loaded = loadEntry(file, name);
	const {text, entry, commandNode} = loaded;
	if (entry.isWrapped) {
		return makePlan(file, loaded, 'wrap', 'already-wrapped', text);
	}
	const tokens = [...tapArgs.map((arg) => literal(file, arg)), nodeText(text, commandNode)];
	const edits: Edit[] = [
		{offset: commandNode.offset, length: commandNode.length, content: literal(file, tapProgram)},
		...argsInsertEdits(file, text, loaded, tokens),
	];
	const after = applyEdits(text, edits);
	const check = parseServers(file, after).servers.find((server) => server.name === name);
	const expected = [...tapArgs, entry.command ?? '', ...entry.args];
	if (check?.command !== tapProgram || JSON.stringify(check.args) !== JSON.stringify(expected) || !check.isWrapped) {
		throw new Error(`internal error: wrapping "${name}" in ${file.path} did not give the expected entry`);
	}
	return makePlan(file, loaded, 'wrap', 'changed', after);
}

/** Deep equality of parsed JSON values; object key order does not matter. */
function jsonEqual(a: unknown, b: unknown): boolean {
	if (a === b) {
		return true;
	}
	if (
		typeof a !== 'object' ||
		typeof b !== 'object' ||
		a === null ||
		b === null ||
		Array.isArray(a) !== Array.isArray(b)
	) {
		return false;
	}
	if (Array.isArray(a) && Array.isArray(b)) {
		return a.length === b.length && a.every((value, index) => jsonEqual(value, b[index]));
	}
	const aRecord = a as Record<string, unknown>;
	const bRecord = b as Record<string, unknown>;
	const keys = Object.keys(aRecord);
	return (
		keys.length === Object.keys(bRecord).length &&
		keys.every((key) => Object.hasOwn(bRecord, key) && jsonEqual(aRecord[key], bRecord[key]))
	);
}

/** The backup's raw entry text when the backup holds exactly the unwrapped entry; else undefined. */
function entryFromBackup(
	file: ConfigFile,
	name: string,
	unwrapped: Record<string, unknown>,
	backupPath: string | undefined,
): string | undefined {
	if (backupPath === undefined) return undefined;
	let backupText: string;
	try {
		backupText = readFileSync(backupPath, 'utf8');
	} catch {
		return undefined;
	}
	const parsed = parseConfigText(backupText, file.format);
	if (parsed.failure || parsed.root.type !== 'object') {
		return undefined;
	}
	const container = findServersNode(parsed.root, file).node;
	const node = container?.type === 'object' ? findProperty(container, name)?.children?.[1] : undefined;
	if (node?.type !== 'object') {
		return undefined;
	}
	const original = getNodeValue(node) as Record<string, unknown>;
	const expected = {...unwrapped};
	if (!Object.hasOwn(original, 'args') && Array.isArray(expected['args']) && expected['args'].length === 0) {
		delete expected['args'];
	}
	return jsonEqual(original, expected) ? nodeText(backupText, node) : undefined;
}

/**
 * Plans unwrapping server `name` of `file`: the command and arguments after the tap's `--` become
 * `command` and `args` again (docs/cli.md#wrap-and-unwrap). The entry's exact original bytes come from the backup when
 * it matches (`restoredFrom: 'backup'`), else the wrap edit is undone in place (`restoredFrom: 'args'`).
 * Idempotent: an entry that is not wrapped gives `status: 'not-wrapped'`, `changed: false`.
 *
 * `backupPath` is the backup to restore from ({@link backupPathOf}; undefined: none).
 *
 * Throws ConfigError `not-found`, `broken-json`, `unknown-server`, `invalid-entry` or `not-stdio`.
 * Reads the file (and its backup); writes nothing.
 */
export function planUnwrap(file: ConfigFile, name: string, backupPath: string | undefined): EditPlan {
	const loaded = loadEntry(file, name);
	const {text, entry, entryNode, commandNode, argsNode} = loaded;
	const marker = detectWrap([entry.command ?? '', ...entry.args]);
	if (marker === undefined || argsNode === undefined) {
		return makePlan(file, loaded, 'unwrap', 'not-wrapped', text);
	}
	const originalArgs = entry.args.slice(marker.originalIndex);
	const unwrapped = {
		...(getNodeValue(entryNode) as Record<string, unknown>),
		command: entry.args[marker.originalIndex - 1],
		args: originalArgs,
	};
	const fromBackup = entryFromBackup(file, name, unwrapped, backupPath);
	if (fromBackup !== undefined) {
		const after = applyEdits(text, [{offset: entryNode.offset, length: entryNode.length, content: fromBackup}]);
		return makePlan(file, loaded, 'unwrap', 'changed', after, 'backup');
	}
	// Token index i of [command, ...args] is args element i - 1.
	const elements = argsNode.children ?? [];
	const originalCommandNode = elements[marker.originalIndex - 1] as Node;
	const firstKept = elements[marker.originalIndex];
	const lastElement = elements[elements.length - 1] as Node;
	const first = elements[0] as Node;
	const edits: Edit[] = [
		{offset: commandNode.offset, length: commandNode.length, content: nodeText(text, originalCommandNode)},
		firstKept === undefined
			? {offset: first.offset, length: lastElement.offset + lastElement.length - first.offset, content: ''}
			: {offset: first.offset, length: firstKept.offset - first.offset, content: ''},
	];
	const after = applyEdits(text, edits);
	const check = parseServers(file, after).servers.find((server) => server.name === name);
	if (
		check === undefined ||
		check.command !== unwrapped.command ||
		JSON.stringify(check.args) !== JSON.stringify(originalArgs)
	) {
		throw new Error(`internal error: unwrapping "${name}" in ${file.path} did not give the expected entry`);
	}
	return makePlan(file, loaded, 'unwrap', 'changed', after, 'args');
}

/** True when any object in the file has a `command` + `args` that run through `mcp-wire tap`. */
function hasWrappedEntries(root: Node): boolean {
	if (root.type === 'object') {
		const command = findProperty(root, 'command')?.children?.[1];
		const args = findProperty(root, 'args')?.children?.[1];
		if (command?.type === 'string' && args?.type === 'array') {
			const tokens = [command.value as string, ...(args.children ?? []).map((element) => String(element.value))];
			if (detectWrap(tokens) !== undefined) {
				return true;
			}
		}
	}
	return (root.children ?? []).some((child) => hasWrappedEntries(child));
}

/**
 * The result of {@link applyPlan}.
 * - `written`: whether the config file was replaced (false for a plan with `changed: false`).
 * - `backupPath`: the backup ({@link backupPathOf}; undefined: none is kept); `backupWritten`: whether
 *   this call (re)wrote it.
 */
export interface ApplyResult {
	readonly written: boolean;
	readonly path: string;
	readonly backupPath: string | undefined;
	readonly backupWritten: boolean;
}

function writeFailed(file: ConfigFile, what: string, error: unknown): ConfigError {
	const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
	return new ConfigError(
		'write-failed',
		file.path,
		`${file.path}: cannot write ${what} (${code}); the config file is unchanged`,
	);
}

/**
 * Writes a plan (docs/cli.md#wrap-and-unwrap: backup, atomic, file untouched on error).
 *
 * 1. The file must still hold exactly `plan.before`, else ConfigError `changed-on-disk` (plan again).
 *    A plan with `changed: false` writes nothing.
 * 2. Backup policy: the backup `backupPath` ({@link backupPathOf}; undefined: none) is written (with the
 *    file's mode; its folder is created 0700) when it does not exist, or
 *    when the file has no wrapped entry at all, i.e. it is a state the user made, not one mcp-wire made.
 *    So the backup is always the file as it was just before mcp-wire's first change since everything
 *    was last unwrapped; a backup taken while an entry is wrapped is never overwritten, so no
 *    user-made state is lost. Unwrap uses it to restore exact bytes. It is never deleted.
 * 3. The new text goes to a temp file in the same folder as the real file (symlinks are followed, so a
 *    linked config stays a link), is fsynced, gets the original mode (and owner, when permitted), and
 *    is renamed over the file: readers see the old file or the new one, never a mix.
 * 4. Steps 1–3 run holding a lock file beside the config (`<file>.mcp-wire.lock`, O_EXCL), so two
 *    concurrent runs cannot both pass step 1 and the later rename silently drop the earlier edit: the
 *    later run gets `changed-on-disk` and plans again (the CLI retries).
 * A read-only file (no owner write bit) is refused: ConfigError `read-only`.
 * Throws ConfigError `not-found`, `changed-on-disk`, `read-only` or `write-failed`; in every case the
 * config file is left as it was (a backup may already exist).
 */
export function applyPlan(file: ConfigFile, plan: EditPlan, backupPath: string | undefined): ApplyResult {
	if (plan.file !== file.path) {
		throw new TypeError(`the plan is for ${plan.file}, not ${file.path}`);
	}
	if (!plan.changed) {
		const {text} = readConfigText(file);
		if (text !== plan.before)
			throw new ConfigError(
				'changed-on-disk',
				file.path,
				`${file.path} changed since the change was planned; nothing written, run the command again`,
			);
		return {written: false, path: file.path, backupPath, backupWritten: false};
	}
	let lockTarget: string;
	try {
		lockTarget = realpathSync(file.path);
		const mode = statSync(lockTarget).mode;
		if (process.platform !== 'win32' && (mode & 0o200) === 0) {
			throw new ConfigError(
				'read-only',
				file.path,
				`${file.path} is read-only (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); mcp-wire does not change a read-only config: make it writable (chmod u+w) if you mean it`,
			);
		}
	} catch (error) {
		if (error instanceof ConfigError) throw error;
		throw writeFailed(file, 'the config file', error);
	}
	return withConfigLock(file, lockTarget, () => applyLocked(file, plan, backupPath));
}

/** How long {@link withConfigLock} waits for another mcp-wire to finish its edit (ms). */
const LOCK_WAIT_MS = 10_000;
/** A lock file older than this (ms) was left by a run that died; it is taken over. */
const LOCK_STALE_MS = 30_000;

function sleepSync(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `fn` holding `<real path>.mcp-wire.lock` (created with O_EXCL beside the config; removed
 * after), so two `wrap`/`unwrap` runs on one file never interleave their check-and-rename (docs/cli.md#wrap-and-unwrap:
 * 2 in 20 concurrent runs lost an edit). Waits up to {@link LOCK_WAIT_MS}; a lock older than
 * {@link LOCK_STALE_MS} is taken over. Throws ConfigError `write-failed` when the lock cannot be had.
 */
function withConfigLock<T>(file: ConfigFile, realPath: string, fn: () => T): T {
	const lock = `${realPath}.mcp-wire.lock`;
	const deadline = Date.now() + LOCK_WAIT_MS;
	for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
		try {
			closeSync(openSync(lock, 'wx', 0o600));
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw writeFailed(file, `the lock file ${lock}`, error);
			try {
				if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) unlinkSync(lock);
			} catch {
				// released meanwhile
			}
			if (Date.now() > deadline) {
				throw new ConfigError(
					'write-failed',
					file.path,
					`${file.path}: another mcp-wire is editing it (lock file ${lock}); the config file is unchanged; run again, or remove the lock file if no mcp-wire runs`,
				);
			}
			sleepSync(delay);
		}
	}
	try {
		return fn();
	} finally {
		try {
			unlinkSync(lock);
		} catch {
			// already gone
		}
	}
}

function applyLocked(file: ConfigFile, plan: EditPlan, backupPath: string | undefined): ApplyResult {
	const {text, bytes} = readConfigText(file);
	if (text !== plan.before) {
		throw new ConfigError(
			'changed-on-disk',
			file.path,
			`${file.path} changed since the change was planned; nothing written, run the command again`,
		);
	}
	let realPath: string;
	let mode: number;
	let uid: number;
	let gid: number;
	try {
		realPath = realpathSync(file.path);
		const stats = statSync(realPath);
		mode = stats.mode & 0o7777;
		uid = stats.uid;
		gid = stats.gid;
	} catch (error) {
		throw writeFailed(file, 'the config file', error);
	}

	const parsed = parseConfigText(text, file.format);
	const isUserState = parsed.root === undefined || !hasWrappedEntries(parsed.root);
	const backupWritten =
		backupPath === undefined ? false : writeBackup(file, backupPath, bytes, isUserState, {mode, uid, gid});

	try {
		writeAtomic(realPath, Buffer.from(plan.after, 'utf8'), mode, uid, gid);
	} catch (error) {
		throw writeFailed(file, 'the config file', error);
	}
	return {written: true, path: file.path, backupPath, backupWritten};
}

/**
 * Writes the backup (applyPlan's step 2): created when missing, replaced only when `isUserState`.
 * Returns whether it was written; throws ConfigError `write-failed`.
 */
function writeBackup(
	file: ConfigFile,
	backupPath: string,
	bytes: Uint8Array,
	isUserState: boolean,
	{mode, uid, gid}: {mode: number; uid: number; gid: number},
): boolean {
	try {
		mkdirSync(path.dirname(backupPath), {recursive: true, mode: 0o700});
		writeFileSync(backupPath, bytes, {flag: 'wx', mode});
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
			throw writeFailed(file, `the backup ${backupPath}`, error);
		}
	}
	if (!isUserState) return false;
	try {
		writeAtomic(backupPath, bytes, mode, uid, gid);
		return true;
	} catch (writeError) {
		throw writeFailed(file, `the backup ${backupPath}`, writeError);
	}
}

/** Temp file in the target's folder + fsync + rename; the temp file is removed on failure. */
function writeAtomic(target: string, bytes: Uint8Array, mode: number, uid: number, gid: number): void {
	const temp = path.join(
		path.dirname(target),
		`.${path.basename(target)}.mcp-wire-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
	);
	let fd: number | undefined;
	try {
		fd = openSync(temp, 'wx', mode);
		let written = 0;
		while (written < bytes.length) {
			written += writeSync(fd, bytes, written, bytes.length - written);
		}
		fsyncSync(fd);
		closeSync(fd);
		fd = undefined;
		chmodSync(temp, mode);
		try {
			chownSync(temp, uid, gid);
		} catch {
			// Not permitted (not root): the temp file is already ours, like the file we replace.
		}
		renameSync(temp, target);
	} catch (error) {
		if (fd !== undefined) {
			try {
				closeSync(fd);
			} catch {
				// Already failing; the original error is the one to report.
			}
		}
		try {
			unlinkSync(temp);
		} catch {
			// The temp file may not exist.
		}
		throw error;
	}
}

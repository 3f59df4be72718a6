/**
 * Parsing config text the way each client parses it, with exact positions, on top of Microsoft's
 * `jsonc-parser` (the parser VS Code itself uses). No JSON parser of our own.
 */
import {parseTree, printParseErrorCode, type Node, type ParseError} from 'jsonc-parser';
import {parseTomlTree} from './toml.js';
import type {ConfigFile, Position} from './types.js';

/** How a broken file of `format` is called in messages: `broken JSON`, `broken TOML`. */
export function brokenWord(format: ConfigFile['format']): string {
	return format === 'toml' ? 'broken TOML' : format === 'yaml' ? 'broken YAML' : 'broken JSON';
}

/**
 * Maps a UTF-16 offset in `text` to a 1-based line/column; LF, CR LF and a lone CR end a line. A
 * leading BOM takes no column (editors hide it).
 */
export function createLineIndex(text: string): (offset: number) => Position {
	const bomWidth = text.startsWith('\uFEFF') ? 1 : 0;
	const starts: number[] = [0];
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 0x0a) {
			starts.push(i + 1);
		} else if (c === 0x0d) {
			if (text.charCodeAt(i + 1) === 0x0a) {
				i++;
			}
			starts.push(i + 1);
		}
	}
	return (offset: number): Position => {
		let lo = 0;
		let hi = starts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if ((starts[mid] ?? 0) <= offset) {
				lo = mid;
			} else {
				hi = mid - 1;
			}
		}
		const column = offset - (starts[lo] ?? 0) + 1;
		return {line: lo + 1, column: lo === 0 && offset > 0 ? column - bomWidth : column};
	};
}

/**
 * Byte offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1 when all of
 * `bytes` is valid UTF-8 (overlongs, surrogates and code points above U+10FFFF are invalid).
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
	let i = 0;
	while (i < bytes.length) {
		const b = bytes[i] ?? 0;
		if (b < 0x80) {
			i++;
			continue;
		}
		let need: number;
		let min: number;
		let cp: number;
		if (b >= 0xc2 && b <= 0xdf) {
			need = 1;
			min = 0x80;
			cp = b & 0x1f;
		} else if (b >= 0xe0 && b <= 0xef) {
			need = 2;
			min = 0x800;
			cp = b & 0x0f;
		} else if (b >= 0xf0 && b <= 0xf4) {
			need = 3;
			min = 0x10000;
			cp = b & 0x07;
		} else {
			return i;
		}
		if (i + need >= bytes.length) {
			return i;
		}
		for (let k = 1; k <= need; k++) {
			const cb = bytes[i + k] ?? 0;
			if ((cb & 0xc0) !== 0x80) {
				return i;
			}
			cp = (cp << 6) | (cb & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
			return i;
		}
		i += need + 1;
	}
	return -1;
}

/** A parse failure: where (UTF-16 offset into the text) and a one-line description. */
export interface ParseFailure {
	readonly offset: number;
	readonly message: string;
}

/** The result of {@link parseConfigText}: the syntax tree, or the first failure. */
export type ParseResult =
	{readonly root: Node; readonly failure?: undefined} | {readonly root?: undefined; readonly failure: ParseFailure};

const BOM = '\uFEFF';

/**
 * Parses config text as its client would.
 * - `json`: strict JSON (comments, trailing commas and a leading BOM are failures, since the client
 *   reads the file with `JSON.parse`).
 * - `jsonc`: comments and trailing commas allowed, a leading BOM ignored (VS Code).
 * - `toml`: TOML 1.0 (toml-eslint-parser), mapped to the same tree (see `parseTomlTree`); an empty file is
 *   an empty table, as Codex reads it.
 * - `yaml`: not read yet; always a failure saying so.
 * Only the first error is reported; later ones are usually consequences of it. A trailing comma is
 * reported at the comma, every other error where jsonc-parser found it.
 */
export function parseConfigText(text: string, format: ConfigFile['format']): ParseResult {
	if (format === 'toml') {
		return parseTomlTree(text.startsWith(BOM) ? ' ' + text.slice(1) : text);
	}
	if (format === 'yaml') {
		return {failure: {offset: 0, message: 'YAML is not supported yet'}};
	}
	if (text.trim() === '' || (format === 'jsonc' && text.startsWith(BOM) && text.slice(1).trim() === '')) {
		return {failure: {offset: 0, message: 'the file is empty (expected a JSON object)'}};
	}
	if (text.startsWith(BOM) && format === 'json') {
		return {failure: {offset: 0, message: 'the file starts with a byte order mark (BOM), which JSON.parse rejects'}};
	}
	// Same length, so offsets stay valid; VS Code skips a BOM.
	const source = text.startsWith(BOM) ? ' ' + text.slice(1) : text;
	const errors: ParseError[] = [];
	const root = parseTree(source, errors, {
		allowTrailingComma: format === 'jsonc',
		disallowComments: format === 'json',
		allowEmptyContent: false,
	});
	const first = errors[0];
	if (first !== undefined) {
		return {failure: describeError(source, first)};
	}
	if (root === undefined) {
		return {failure: {offset: 0, message: 'expected a JSON value'}};
	}
	return {root};
}

function previousSignificant(text: string, offset: number): number {
	let i = offset - 1;
	while (i >= 0 && /\s/.test(text[i] ?? '')) {
		i--;
	}
	return i;
}

function describeError(text: string, error: ParseError): ParseFailure {
	const at = text[error.offset];
	const atEnd = error.offset >= text.length;
	const found = atEnd ? 'the end of the file' : `'${at === '\n' || at === '\r' ? '\\n' : at}'`;
	const code = printParseErrorCode(error.error);
	switch (code) {
		case 'PropertyNameExpected':
		case 'ValueExpected': {
			if (at === '}' || at === ']') {
				const prev = previousSignificant(text, error.offset);
				if (text[prev] === ',') {
					return {offset: prev, message: 'trailing comma (not allowed in JSON)'};
				}
			}
			return {
				offset: error.offset,
				message:
					code === 'PropertyNameExpected'
						? `expected a property name in double quotes, found ${found}`
						: `expected a value, found ${found}`,
			};
		}
		case 'InvalidCommentToken':
			return {offset: error.offset, message: 'comments are not allowed in JSON'};
		case 'ColonExpected':
			return {offset: error.offset, message: `expected ':', found ${found}`};
		case 'CommaExpected':
			return {offset: error.offset, message: `expected ',' between values (missing comma?), found ${found}`};
		case 'CloseBraceExpected':
			return {offset: error.offset, message: `expected '}', found ${found}`};
		case 'CloseBracketExpected':
			return {offset: error.offset, message: `expected ']', found ${found}`};
		case 'EndOfFileExpected':
			return {offset: error.offset, message: `unexpected ${found} after the end of the JSON value`};
		case 'InvalidSymbol':
			return {offset: error.offset, message: `unexpected character ${found}`};
		case 'InvalidNumberFormat':
			return {offset: error.offset, message: 'invalid number'};
		case 'UnexpectedEndOfString':
			return {offset: error.offset, message: 'unterminated string'};
		case 'UnexpectedEndOfComment':
			return {offset: error.offset, message: 'unterminated comment'};
		case 'UnexpectedEndOfNumber':
			return {offset: error.offset, message: 'unterminated number'};
		case 'InvalidUnicode':
			return {offset: error.offset, message: 'invalid \\u escape in a string'};
		case 'InvalidEscapeCharacter':
			return {offset: error.offset, message: 'invalid escape character in a string'};
		case 'InvalidCharacter':
			return {offset: error.offset, message: 'control character in a string (escape it)'};
		default:
			return {offset: error.offset, message: 'invalid JSON'};
	}
}

/** Finds the property node (key + value) named `key` in an object node; the LAST one wins, like JSON.parse. */
export function findProperty(object: Node, key: string): Node | undefined {
	let found: Node | undefined;
	for (const property of object.children ?? []) {
		if (property.type === 'property' && property.children?.[0]?.value === key) {
			found = property;
		}
	}
	return found;
}

/** Follows `path` (object keys only) from `root`; returns the value node, or undefined. */
export function findValue(root: Node, path: readonly string[]): Node | undefined {
	let node: Node | undefined = root;
	for (const key of path) {
		if (node?.type !== 'object') {
			return undefined;
		}
		node = findProperty(node, key)?.children?.[1];
	}
	return node;
}

/**
 * A TOML config (Codex's `config.toml`, docs/clients.md#codex) as the same syntax tree the JSON configs use
 * (jsonc-parser's `Node`: objects of properties, arrays, strings with exact offsets), so reading, `wrap` and
 * `unwrap` edit it by span and every other byte stays as it was. Parsing is toml-eslint-parser's (TOML 1.0, a
 * range on every key and value); this file only maps its tree.
 */
import type {Node, NodeType} from 'jsonc-parser';
import {parseTOML, type AST} from 'toml-eslint-parser';

/** A tree node under construction; `inline` marks an object written inline (`{ a = 1 }`), where keys join with `, `. */
interface Built {
	type: NodeType;
	value?: unknown;
	offset: number;
	length: number;
	parent?: Built;
	children?: Built[];
	inline?: boolean;
}

function make(type: NodeType, range: readonly [number, number], parent?: Built): Built {
	return {type, offset: range[0], length: range[1] - range[0], ...(parent === undefined ? {} : {parent})};
}

function keyName(key: AST.TOMLBare | AST.TOMLQuoted): string {
	return key.type === 'TOMLBare' ? key.name : key.value;
}

/** The property `name` of `object`, or undefined. */
function propertyOf(object: Built, name: string): Built | undefined {
	return object.children?.find((property) => property.children?.[0]?.value === name);
}

/** Adds property `name` (its key spanning `keyRange`) holding `value` to `object`. */
function addProperty(
	object: Built,
	name: string,
	keyRange: readonly [number, number],
	value: Built,
	end: number,
): void {
	const property = make('property', [keyRange[0], Math.max(end, keyRange[1])], object);
	const key = make('string', keyRange, property);
	key.value = name;
	value.parent = property;
	property.children = [key, value];
	(object.children ??= []).push(property);
}

/** The object at `name` under `object`, created (spanning `range`) when absent; the last element of an array of tables. */
function descend(
	object: Built,
	name: string,
	keyRange: readonly [number, number],
	range: readonly [number, number],
): Built {
	const found = propertyOf(object, name)?.children?.[1];
	if (found?.type === 'object') return found;
	if (found?.type === 'array') return found.children?.[found.children.length - 1] ?? found;
	const created = make('object', range);
	created.children = [];
	addProperty(object, name, keyRange, created, range[1]);
	return created;
}

function convertValue(text: string, value: AST.TOMLContentNode): Built {
	switch (value.type) {
		case 'TOMLArray': {
			const array = make('array', value.range);
			array.children = value.elements.map((element) => {
				const child = convertValue(text, element);
				child.parent = array;
				return child;
			});
			return array;
		}
		case 'TOMLInlineTable': {
			const object = make('object', value.range);
			object.children = [];
			object.inline = true;
			for (const keyValue of value.body) addKeyValue(text, object, keyValue);
			return object;
		}
		default: {
			const kind = value.kind;
			const node = make(
				kind === 'string'
					? 'string'
					: kind === 'boolean'
						? 'boolean'
						: kind === 'integer' || kind === 'float'
							? 'number'
							: 'string',
				value.range,
			);
			// Dates keep their source text: a config value, never compared as a date.
			node.value =
				kind === 'string' || kind === 'boolean'
					? value.value
					: kind === 'integer' || kind === 'float'
						? Number(value.value)
						: text.slice(value.range[0], value.range[1]);
			return node;
		}
	}
}

function addKeyValue(text: string, table: Built, keyValue: AST.TOMLKeyValue): void {
	const keys = keyValue.key.keys;
	let object = table;
	for (const key of keys.slice(0, -1)) object = descend(object, keyName(key), key.range, keyValue.range);
	const last = keys[keys.length - 1] as AST.TOMLBare | AST.TOMLQuoted;
	addProperty(object, keyName(last), last.range, convertValue(text, keyValue.value), keyValue.range[1]);
}

function addTable(text: string, root: Built, table: AST.TOMLTable): void {
	const keys = table.key.keys;
	let object = root;
	for (const key of keys.slice(0, -1)) object = descend(object, keyName(key), key.range, table.range);
	const last = keys[keys.length - 1] as AST.TOMLBare | AST.TOMLQuoted;
	let target: Built;
	if (table.kind === 'array') {
		let array = propertyOf(object, keyName(last))?.children?.[1];
		if (array?.type !== 'array') {
			array = make('array', table.range);
			array.children = [];
			addProperty(object, keyName(last), last.range, array, table.range[1]);
		}
		target = make('object', table.range, array);
		target.children = [];
		array.children?.push(target);
	} else {
		const existing = propertyOf(object, keyName(last))?.children?.[1];
		target = existing?.type === 'object' ? existing : descend(object, keyName(last), last.range, table.range);
		// A table defined after its sub-tables were: it spans its own header and keys.
		target.offset = table.range[0];
		target.length = table.range[1] - table.range[0];
	}
	for (const keyValue of table.body) addKeyValue(text, target, keyValue);
}

/** The outcome of {@link parseTomlTree}: the tree, or where (UTF-16 offset) and why it does not parse. */
export type TomlTree =
	| {readonly root: Node; readonly failure?: undefined}
	| {readonly root?: undefined; readonly failure: {readonly offset: number; readonly message: string}};

/**
 * Parses TOML text into a jsonc-parser `Node` tree: tables and inline tables become objects, arrays arrays,
 * strings strings (the node spans the literal with its quotes), integers and floats numbers, booleans booleans,
 * dates strings of their source text. A failure gives the parser's offset and message (lower-cased first letter).
 */
export function parseTomlTree(text: string): TomlTree {
	let program: AST.TOMLProgram;
	try {
		program = parseTOML(text);
	} catch (error) {
		const offset = typeof (error as {index?: unknown}).index === 'number' ? (error as {index: number}).index : 0;
		const message = error instanceof Error ? error.message : String(error);
		return {failure: {offset, message: message.charAt(0).toLowerCase() + message.slice(1)}};
	}
	const root = make('object', [0, text.length]);
	root.children = [];
	for (const item of program.body[0].body) {
		if (item.type === 'TOMLTable') addTable(text, root, item);
		else addKeyValue(text, root, item);
	}
	return {root: root as Node};
}

/** True when `node` (an object of the tree) was written inline, `{ command = "x" }`. */
export function isInlineTable(node: Node): boolean {
	return (node as Built).inline === true;
}

/** `value` as a TOML basic string: JSON's escapes, which TOML shares, plus DEL, which TOML wants escaped. */
export function tomlString(value: string): string {
	return JSON.stringify(value).replace(/\u007f/g, '\\u007F');
}

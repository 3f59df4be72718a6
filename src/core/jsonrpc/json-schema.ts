import {createRequire} from 'node:module';
import {isPlainObject} from './classify.js';

/**
 * Is a tool's `inputSchema` / `outputSchema` valid JSON Schema, and does the TS SDK client take it?
 * MCP 2025-11-25 (basic, "JSON Schema usage"): embedded schemas default to draft 2020-12 when they name no
 * `$schema`. Ajv validates against the dialect's meta-schema (draft 2020-12, or draft-07 when `$schema`
 * says so; another dialect is not judged). The TS SDK v1 client compiles every `outputSchema` in
 * `listTools()` (`cacheToolMetadata`, with its own Ajv: draft-07, `validateSchema: false`); a schema that
 * does not compile makes `listTools()` throw, so that is checked with the SDK's own validator.
 *
 * Ajv and its meta-schemas cost a few hundred ms to load, so they load only for a schema that
 * {@link plainSchema} does not already accept: the keywords most servers use, with values of the right
 * type, which both meta-schemas and the SDK's compile accept.
 */

/** The problems of one schema: the meta-schema's first issues, and the SDK's compile error for an `outputSchema`. */
export interface SchemaProblems {
	/** The dialect it was judged in: `2020-12` or `draft-07`. */
	readonly dialect: '2020-12' | 'draft-07';
	/** Meta-schema issues, at most 5: the JSON Pointer inside the schema ('' for the schema itself) and Ajv's message. */
	readonly issues: readonly {readonly path: string; readonly message: string}[];
	/** The TS SDK's `getValidator()` error for an `outputSchema` (its first line), when it throws. */
	readonly sdkError?: string;
}

const DIALECTS: Readonly<Record<string, '2020-12' | 'draft-07'>> = {
	'https://json-schema.org/draft/2020-12/schema': '2020-12',
	'https://json-schema.org/draft/2020-12/schema#': '2020-12',
	'http://json-schema.org/draft-07/schema': 'draft-07',
	'http://json-schema.org/draft-07/schema#': 'draft-07',
};

const TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const TEXT = new Set(['title', 'description', 'format', '$comment']);
const COUNTS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']);
const NUMBERS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);
const ANY = new Set(['default', 'const', 'examples', 'enum', '$schema']);
const LISTS = new Set(['anyOf', 'oneOf', 'allOf']);

const isType = (value: unknown): boolean =>
	typeof value === 'string'
		? TYPES.has(value)
		: Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && TYPES.has(v));

/**
 * True when `schema` uses only keywords whose values are plainly valid in draft-07 and 2020-12 alike and
 * compile in the TS SDK's Ajv (no `$ref`, `pattern`, `$defs`, …): such a schema needs no validator. False
 * means only "not known here" (Ajv decides), never "invalid".
 */
export function plainSchema(schema: unknown, depth = 0): boolean {
	if (typeof schema === 'boolean') return true;
	if (!isPlainObject(schema) || depth > 32) return false;
	for (const [key, value] of Object.entries(schema)) {
		if (key === 'type') {
			if (!isType(value)) return false;
		} else if (TEXT.has(key)) {
			if (typeof value !== 'string') return false;
		} else if (COUNTS.has(key)) {
			if (!Number.isSafeInteger(value) || (value as number) < 0) return false;
		} else if (NUMBERS.has(key)) {
			if (typeof value !== 'number' || !Number.isFinite(value) || (key === 'multipleOf' && value <= 0)) return false;
		} else if (ANY.has(key)) {
			if (key === '$schema' && (typeof value !== 'string' || DIALECTS[value] === undefined)) return false;
			if (key === 'enum' && !Array.isArray(value)) return false;
			if (key === 'examples' && !Array.isArray(value)) return false;
		} else if (key === 'required') {
			if (!Array.isArray(value) || !value.every((v) => typeof v === 'string') || new Set(value).size !== value.length)
				return false;
		} else if (key === 'properties') {
			if (!isPlainObject(value) || !Object.values(value).every((v) => plainSchema(v, depth + 1))) return false;
		} else if (key === 'items' || key === 'additionalProperties' || key === 'not') {
			if (!plainSchema(value, depth + 1)) return false;
		} else if (LISTS.has(key)) {
			if (!Array.isArray(value) || value.length === 0 || !value.every((v) => plainSchema(v, depth + 1))) return false;
		} else if (key === 'uniqueItems') {
			if (typeof value !== 'boolean') return false;
		} else return false;
	}
	return true;
}

interface AjvLike {
	validateSchema(schema: unknown): boolean | Promise<unknown>;
	errors?: readonly {readonly instancePath: string; readonly message?: string}[] | null;
}

let validators:
	| {readonly '2020-12': AjvLike; readonly 'draft-07': AjvLike; readonly sdk: {getValidator(s: unknown): unknown}}
	| undefined;

/** Ajv for each dialect and the TS SDK's validator, loaded on first use (synchronously: rules are synchronous). */
function loadValidators(): NonNullable<typeof validators> {
	if (validators) return validators;
	const require = createRequire(import.meta.url);
	const Ajv2020 = (require('ajv/dist/2020.js') as {default: new (o: object) => AjvLike}).default;
	const Ajv07 = (require('ajv') as {default: new (o: object) => AjvLike}).default;
	const {AjvJsonSchemaValidator} = require('@modelcontextprotocol/sdk/validation/ajv') as {
		AjvJsonSchemaValidator: new () => {getValidator(s: unknown): unknown};
	};
	const options = {strict: false, validateFormats: false, allErrors: true};
	validators = {'2020-12': new Ajv2020(options), 'draft-07': new Ajv07(options), sdk: new AjvJsonSchemaValidator()};
	return validators;
}

/**
 * Judge one tool schema. Input: the member's name and its value (an object whose `type` is `object`:
 * anything else is `invalid-result`'s). Output: undefined when it is valid (or written in a dialect not
 * judged here), else its {@link SchemaProblems}.
 */
export function checkToolSchema(member: 'inputSchema' | 'outputSchema', schema: unknown): SchemaProblems | undefined {
	if (!isPlainObject(schema)) return undefined;
	const declared = schema['$schema'];
	const dialect = declared === undefined ? '2020-12' : typeof declared === 'string' ? DIALECTS[declared] : undefined;
	if (dialect === undefined || plainSchema(schema)) return undefined;
	const loaded = loadValidators();
	const ajv = loaded[dialect];
	const valid = ajv.validateSchema(schema) === true;
	const issues = valid
		? []
		: (ajv.errors ?? []).slice(0, 5).map((e) => ({path: e.instancePath, message: e.message ?? 'invalid'}));
	let sdkError: string | undefined;
	if (member === 'outputSchema') {
		try {
			loaded.sdk.getValidator(schema);
		} catch (error) {
			sdkError = (error instanceof Error ? error.message : String(error)).split('\n')[0];
		}
	}
	if (issues.length === 0 && sdkError === undefined) return undefined;
	return {dialect, issues, ...(sdkError === undefined ? {} : {sdkError})};
}

/**
 * A `tools/call` result's `structuredContent` checked as the TS SDK v1 client checks it in `callTool()`
 * (1.32.2): with the SDK's own validator compiled from the tool's `outputSchema` (its Ajv, draft-07
 * default, formats checked). Output: undefined when it validates (or the schema does not compile: that is
 * `invalid-tool-schema`'s), else the SDK's `errorMessage` (`data/temp must be number`).
 */
export function structuredContentProblem(outputSchema: unknown, value: unknown): string | undefined {
	if (!isPlainObject(outputSchema)) return undefined;
	let validate: (input: unknown) => {valid: boolean; errorMessage?: string};
	try {
		validate = loadValidators().sdk.getValidator(outputSchema) as typeof validate;
	} catch {
		return undefined;
	}
	const verdict = validate(value);
	return verdict.valid ? undefined : (verdict.errorMessage ?? 'does not match');
}

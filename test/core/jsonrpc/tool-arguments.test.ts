import {createRequire} from 'node:module';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {sampleInstance, toolArguments} from '../../../src/core/jsonrpc/tool-arguments.js';

const require = createRequire(import.meta.url);
const Ajv2020 = (require('ajv/dist/2020.js') as {default: new (o: object) => AjvLike}).default;
interface AjvLike {
	validate(schema: unknown, data: unknown): boolean;
	errors?: unknown;
}
const ajv = new Ajv2020({strict: false, validateFormats: false});

describe('toolArguments: the minimal instance of an inputSchema', () => {
	it('fills only the required properties, strings empty', () => {
		const schema = {
			type: 'object',
			properties: {city: {type: 'string'}, units: {type: 'string'}},
			required: ['city'],
		};
		expect(toolArguments(schema)).toEqual({value: {city: ''}, unsure: []});
	});

	it('takes const, then default, then examples[0], then enum[0]', () => {
		const schema = {
			type: 'object',
			properties: {
				a: {type: 'string', const: 'k', default: 'd'},
				b: {type: 'string', default: 'd', examples: ['e'], enum: ['x', 'd']},
				c: {type: 'integer', examples: [7], enum: [7, 8]},
				d: {enum: ['celsius', 'fahrenheit']},
			},
			required: ['a', 'b', 'c', 'd'],
		};
		expect(toolArguments(schema).value).toEqual({a: 'k', b: 'd', c: 7, d: 'celsius'});
	});

	it('gives each type its smallest value inside the bounds', () => {
		const schema = {
			type: 'object',
			properties: {
				n: {type: 'integer', minimum: 3},
				x: {type: 'number', exclusiveMinimum: 0, maximum: 1},
				m: {type: 'integer', minimum: 5, multipleOf: 4},
				neg: {type: 'integer', maximum: -2},
				s: {type: 'string', minLength: 3},
				when: {type: 'string', format: 'date-time'},
				ok: {type: 'boolean'},
				none: {type: 'null'},
				list: {type: 'array', minItems: 2, items: {type: 'integer', minimum: 1}},
				nested: {type: 'object', properties: {q: {type: 'string'}}, required: ['q']},
			},
			required: ['n', 'x', 'm', 'neg', 's', 'when', 'ok', 'none', 'list', 'nested'],
		};
		expect(toolArguments(schema).value).toEqual({
			n: 3,
			x: 0.5,
			m: 8,
			neg: -2,
			s: 'aaa',
			when: '1970-01-01T00:00:00Z',
			ok: false,
			none: null,
			list: [1, 1],
			nested: {q: ''},
		});
	});

	it('follows local $ref, the first anyOf branch and allOf', () => {
		const schema = {
			type: 'object',
			$defs: {Point: {type: 'object', properties: {x: {type: 'number'}}, required: ['x']}},
			properties: {
				at: {$ref: '#/$defs/Point'},
				maybe: {anyOf: [{type: 'null'}, {type: 'string', format: 'email'}]},
				both: {
					allOf: [{type: 'object', required: ['a'], properties: {a: {type: 'integer', minimum: 2}}}, {required: ['b']}],
				},
			},
			required: ['at', 'maybe', 'both'],
		};
		expect(toolArguments(schema)).toEqual({value: {at: {x: 0}, maybe: null, both: {a: 2, b: null}}, unsure: []});
	});

	it('says where a keyword it cannot satisfy may reject the guess', () => {
		const schema = {type: 'object', properties: {id: {type: 'string', pattern: '^[a-z]+$'}}, required: ['id']};
		expect(toolArguments(schema)).toEqual({value: {id: ''}, unsure: ['/id: pattern']});
	});

	it('gives {} for a schema that is not an object schema, and never throws on junk', () => {
		expect(toolArguments(undefined).value).toEqual({});
		expect(toolArguments({type: 'string'}).value).toEqual({});
		expect(sampleInstance({$ref: '#/nowhere'})).toEqual({value: null, unsure: [': $ref #/nowhere']});
		const loop: Record<string, unknown> = {$ref: '#'};
		expect(sampleInstance(loop).value).toBe(null);
	});
});

/** JSON Schemas whose keywords this generator claims to satisfy, each with valid `default`/`examples`/`enum`. */
const leaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
	fc
		.record({min: fc.nat(6), extra: fc.nat(6), format: fc.constantFrom(undefined, 'date-time', 'email', 'uuid', 'uri')})
		.map(({min, extra, format}) => ({
			type: 'string',
			minLength: min,
			maxLength: min + extra,
			...(format === undefined ? {} : {format}),
		})),
	fc
		.record({
			low: fc.option(fc.integer({min: -50, max: 50}), {nil: undefined}),
			span: fc.nat(40),
			step: fc.option(fc.integer({min: 1, max: 7}), {nil: undefined}),
			exclusive: fc.boolean(),
			integer: fc.boolean(),
		})
		.filter(({low, span, step, exclusive}) => {
			// Keep only satisfiable ranges: a multiple of step strictly inside when exclusive.
			if (low === undefined) return true;
			const s = step ?? 1;
			for (let n = low; n <= low + span; n++)
				if (n % s === 0 && (!exclusive || (n > low && n < low + span))) return true;
			return false;
		})
		.map(({low, span, step, exclusive, integer}) => ({
			type: integer ? 'integer' : 'number',
			...(low === undefined
				? {}
				: exclusive
					? {exclusiveMinimum: low, exclusiveMaximum: low + span}
					: {minimum: low, maximum: low + span}),
			...(step === undefined ? {} : {multipleOf: step}),
		})),
	fc.constant({type: 'boolean'}),
	fc.constant({type: 'null'}),
	fc
		.array(fc.oneof(fc.string(), fc.integer(), fc.boolean()), {minLength: 1, maxLength: 4})
		.map((values) => ({enum: values})),
	fc.jsonValue().map((value) => ({const: value})),
	fc.string().map((value) => ({type: 'string', default: value})),
	fc.integer().map((value) => ({type: 'integer', examples: [value]})),
);

const {schema: anySchema} = fc.letrec((tie) => ({
	schema: fc.oneof({depthSize: 'small', withCrossShrink: true}, leaf, tie('object'), tie('array'), tie('union')),
	object: fc
		.dictionary(fc.string({minLength: 1, maxLength: 6}), tie('schema') as fc.Arbitrary<Record<string, unknown>>, {
			maxKeys: 4,
		})
		.chain((properties) =>
			fc.subarray(Object.keys(properties)).map((required) => ({type: 'object', properties, required})),
		),
	array: fc
		.record({items: tie('schema'), minItems: fc.nat(3)})
		.map(({items, minItems}) => ({type: 'array', items, minItems})),
	union: fc.array(tie('schema'), {minLength: 1, maxLength: 3}).map((branches) => ({anyOf: branches})),
}));

describe('toolArguments: property', () => {
	it('what it generates validates against the schema (Ajv, draft 2020-12)', () => {
		fc.assert(
			fc.property(anySchema, (schema) => {
				const {value, unsure} = sampleInstance(schema);
				expect(unsure).toEqual([]);
				const valid = ajv.validate(schema, value);
				if (!valid) throw new Error(`${JSON.stringify(value)} rejected: ${JSON.stringify(ajv.errors)}`);
			}),
			{numRuns: 200},
		);
	});
});

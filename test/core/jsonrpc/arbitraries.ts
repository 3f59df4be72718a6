/**
 * fast-check arbitraries for JSON-RPC-ish messages: mostly well-formed envelopes with random faults
 * (jsonrpc values, ids of every JSON type, extra keys, result/error combinations, params/_meta types),
 * plus scalars and arrays. Every value is passed through JSON.stringify/JSON.parse so it is exactly what
 * a frame's `message` can be (e.g. a `__proto__` key is an own property, -0 becomes 0).
 */
import fc from 'fast-check';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

export const jsonScalar = fc.oneof(
	fc.constant(null),
	fc.boolean(),
	fc.integer({min: -5, max: 5}),
	fc.double({noNaN: true, noDefaultInfinity: true}),
	fc.string({maxLength: 4}),
);

export const jsonValue = fc.oneof(
	{depthSize: 'small'},
	jsonScalar,
	fc.constant({}),
	fc.constant([]),
	fc.dictionary(fc.string({maxLength: 3}), jsonScalar, {maxKeys: 2}),
);

/** Ids of every JSON type, weighted towards valid ones. */
export const idArb = fc.oneof(
	{weight: 6, arbitrary: fc.integer({min: -3, max: 1000})},
	{weight: 4, arbitrary: fc.string({maxLength: 4})},
	{
		weight: 1,
		arbitrary: fc.constantFrom(0, -0, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, -(2 ** 53), 1e20, 1e21, 1.5, -0.25, 1e-7),
	},
	{weight: 1, arbitrary: fc.double({noNaN: true, noDefaultInfinity: true})},
	{weight: 1, arbitrary: fc.constant(null)},
	{weight: 1, arbitrary: fc.boolean()},
	{weight: 1, arbitrary: fc.constantFrom({}, [], [1], {a: 1})},
);

const jsonrpcArb = fc.oneof(
	{weight: 12, arbitrary: fc.constant('2.0')},
	{weight: 1, arbitrary: fc.constantFrom('2', 2, 2.0, '1.0', null, '2.0 ', '', true, {})},
);

const methodArb = fc.oneof(
	{
		weight: 8,
		arbitrary: fc.constantFrom(
			'initialize',
			'tools/list',
			'ping',
			'notifications/initialized',
			'notifications/progress',
			'x',
			'',
			'rpc.discover',
		),
	},
	{weight: 2, arbitrary: fc.string({maxLength: 6})},
	{weight: 1, arbitrary: fc.constantFrom(1, null, true, {}, [])},
);

const metaArb = fc.oneof(
	{weight: 3, arbitrary: fc.record({progressToken: idArb, other: jsonScalar}, {requiredKeys: []})},
	{
		weight: 2,
		arbitrary: fc.record({
			[RELATED_TASK]: fc.oneof(
				fc.record({taskId: fc.oneof(fc.string({maxLength: 3}), fc.integer())}),
				jsonScalar,
				fc.constant([]),
			),
		}),
	},
	{weight: 1, arbitrary: fc.oneof(jsonScalar, fc.constant([]))},
);

const objectBodyArb = fc.record({_meta: metaArb, cursor: jsonScalar, tools: fc.constant([])}, {requiredKeys: []});

const paramsArb = fc.oneof(
	{weight: 8, arbitrary: objectBodyArb},
	{weight: 1, arbitrary: fc.oneof(jsonScalar, fc.constant([]), fc.array(jsonScalar, {maxLength: 2}))},
);

const resultArb = fc.oneof(
	{
		weight: 8,
		arbitrary: fc.oneof(
			objectBodyArb,
			fc.record({resultType: fc.constantFrom('complete', 'input_required', 'done', 1)}),
		),
	},
	{weight: 1, arbitrary: fc.oneof(jsonScalar, fc.constant([]), fc.constant([{}]))},
);

const codeArb = fc.oneof(
	{weight: 6, arbitrary: fc.constantFrom(-32700, -32600, -32601, -32602, -32603, -32000, -32042, 0, 1)},
	{weight: 1, arbitrary: fc.integer()},
	{weight: 1, arbitrary: fc.constantFrom(2 ** 53, -(2 ** 53), 1.5, '12', '-32600', 'x', null, true, {})},
);

const errorArb = fc.oneof(
	{
		weight: 8,
		arbitrary: fc.record(
			{
				code: codeArb,
				message: fc.oneof(
					{weight: 6, arbitrary: fc.string({maxLength: 5})},
					{weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null))},
				),
				data: jsonValue,
			},
			{requiredKeys: ['code', 'message']},
		),
	},
	{
		weight: 1,
		arbitrary: fc.record({code: codeArb, message: fc.string({maxLength: 3}), data: jsonValue}, {requiredKeys: []}),
	},
	{weight: 1, arbitrary: fc.oneof(jsonScalar, fc.constant([]))},
);

const extraKeyArb = fc.oneof(
	fc.constantFrom(
		'__proto__',
		'foo',
		'extra',
		'Id',
		'constructor',
		'toString',
		'hasOwnProperty',
		'JSONRPC',
		'params',
		'method',
		'result',
		'error',
		'id',
	),
	fc.string({maxLength: 5}),
);

/** A template of one kind, with optional faults. */
function envelope(kind: 'request' | 'notification' | 'response' | 'error' | 'any') {
	const weights = {
		request: {id: 12, method: 12, params: 6, result: 1, error: 1},
		notification: {id: 1, method: 12, params: 6, result: 1, error: 1},
		response: {id: 12, method: 1, params: 1, result: 12, error: 1},
		error: {id: 10, method: 1, params: 1, result: 1, error: 12},
		any: {id: 6, method: 6, params: 6, result: 6, error: 6},
	}[kind];
	const maybe = <T>(weight: number, arbitrary: fc.Arbitrary<T>) =>
		fc.oneof(
			{weight, arbitrary: arbitrary.map((value) => ({value}))},
			{weight: 12 - Math.min(weight, 11), arbitrary: fc.constant(undefined)},
		);
	return fc
		.record({
			jsonrpc: maybe(11, jsonrpcArb),
			id: maybe(weights.id, idArb),
			method: maybe(weights.method, methodArb),
			params: maybe(weights.params, paramsArb),
			result: maybe(weights.result, resultArb),
			error: maybe(weights.error, errorArb),
			extras: fc.oneof(
				{weight: 6, arbitrary: fc.constant([])},
				{weight: 1, arbitrary: fc.array(fc.tuple(extraKeyArb, jsonValue), {minLength: 1, maxLength: 2})},
			),
		})
		.map(({extras, ...members}) => {
			const entries: [string, unknown][] = [];
			for (const [key, slot] of Object.entries(members)) if (slot !== undefined) entries.push([key, slot.value]);
			for (const extra of extras) entries.push(extra);
			return entries;
		});
}

/** Entries → a parsed JSON object as a frame would carry it (own `__proto__` keys included). */
function toWire(entries: readonly [string, unknown][]): unknown {
	return JSON.parse(JSON.stringify(Object.fromEntries(entries)));
}

/** JSON-RPC-ish messages, valid and invalid, as parsed from a frame. */
export const messageArb: fc.Arbitrary<unknown> = fc.oneof(
	{weight: 4, arbitrary: envelope('request').map(toWire)},
	{weight: 3, arbitrary: envelope('notification').map(toWire)},
	{weight: 4, arbitrary: envelope('response').map(toWire)},
	{weight: 3, arbitrary: envelope('error').map(toWire)},
	{weight: 2, arbitrary: envelope('any').map(toWire)},
	{weight: 1, arbitrary: jsonScalar.map((value) => JSON.parse(JSON.stringify(value)) as unknown)},
	{weight: 1, arbitrary: fc.array(envelope('request').map(toWire), {maxLength: 2})},
);

/** Results shaped like the ones the schemas check (lists, content, completion, initialize), with faults anywhere. */
const leaf = fc.oneof({weight: 3, arbitrary: fc.string({maxLength: 6})}, {weight: 1, arbitrary: jsonValue});
const item = fc.record(
	{
		name: leaf,
		uri: fc.oneof(fc.constantFrom('file:///a.txt', 'https://x.test/r', 'not a uri', ''), jsonScalar),
		uriTemplate: leaf,
		type: fc.oneof(fc.constantFrom('text', 'image', 'audio', 'resource', 'resource_link', 'object'), jsonScalar),
		text: leaf,
		data: fc.oneof(fc.constantFrom('aGVsbG8=', 'not base64!', ''), jsonScalar),
		mimeType: leaf,
		description: leaf,
		title: leaf,
		inputSchema: fc.oneof(
			fc.constant({type: 'object'}),
			fc.constant({type: 'object', properties: {a: {type: 'string'}}, required: ['a']}),
			jsonValue,
		),
		outputSchema: fc.oneof(fc.constant({type: 'object'}), jsonValue),
		annotations: fc.oneof(fc.constant({readOnlyHint: true}), jsonValue),
		arguments: fc.oneof(fc.constant([{name: 'a', required: true}]), jsonValue),
		icons: fc.oneof(fc.constant([{src: 'https://x.test/i.png'}]), jsonValue),
		_meta: jsonValue,
	},
	{requiredKeys: []},
);
export const sdkResultArb: fc.Arbitrary<unknown> = fc
	.record(
		{
			tools: fc.array(item, {maxLength: 2}),
			prompts: fc.array(item, {maxLength: 2}),
			resources: fc.array(item, {maxLength: 2}),
			resourceTemplates: fc.array(item, {maxLength: 2}),
			contents: fc.array(item, {maxLength: 2}),
			content: fc.array(item, {maxLength: 2}),
			messages: fc.array(fc.record({role: fc.oneof(fc.constantFrom('user', 'assistant'), jsonScalar), content: item}), {
				maxLength: 2,
			}),
			completion: fc.oneof(
				fc.record(
					{
						values: fc.array(leaf, {maxLength: 2}),
						total: fc.oneof(fc.nat(), jsonScalar),
						hasMore: fc.oneof(fc.boolean(), jsonScalar),
					},
					{requiredKeys: []},
				),
				jsonValue,
			),
			structuredContent: jsonValue,
			isError: fc.oneof(fc.boolean(), jsonScalar),
			nextCursor: leaf,
			protocolVersion: fc.oneof(fc.constantFrom('2025-11-25', '2025-06-18', '2024-11-05'), jsonScalar),
			capabilities: fc.oneof(
				fc.constant({tools: {}}),
				fc.constant({tools: {listChanged: true}, logging: {}}),
				jsonValue,
			),
			serverInfo: fc.oneof(
				fc.constant({name: 's', version: '1'}),
				fc.record({name: leaf, version: leaf}, {requiredKeys: []}),
				jsonValue,
			),
			instructions: leaf,
			_meta: jsonValue,
		},
		{requiredKeys: []},
	)
	.map((result) => JSON.parse(JSON.stringify(result)) as unknown);

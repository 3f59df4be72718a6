import {isPlainObject, own} from './classify.js';
import type {SdkVerdict} from './problem.js';

const ACCEPTED: SdkVerdict = Object.freeze({accepted: true as const});

/** pydantic lax `int` from JSON: bool, an integer literal, a float with no fraction within i64, a numeric string. */
function isPythonLaxInt(value: unknown): boolean {
	if (typeof value === 'boolean') return true;
	if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 1e21;
	return typeof value === 'string' && /^\s*[+-]?\d+(?:_\d+)*(?:\.0+)?\s*$/.test(value);
}

/**
 * `RequestId = Annotated[int, Field(strict=True)] | str`. A JS number cannot tell `1` from `1.0`; the
 * JSON.stringify spelling is assumed (integers below 1e21 print as integer literals).
 */
function isPythonRequestId(value: unknown): boolean {
	return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 1e21);
}

/** `JSONRPCError.id: str | int` (lax): also accepts booleans. */
function isPythonErrorId(value: unknown): boolean {
	return typeof value === 'string' || isPythonLaxInt(value);
}

function reject(issue: string): SdkVerdict {
	return {accepted: false, issue};
}

/**
 * A hand-written model of what the Python SDK 1.29 client does with one parsed line (C4):
 * `JSONRPCMessage.model_validate_json`, a pydantic union of request | notification | response | error,
 * every model `extra="allow"`. Accepted, or dropped with `logger.exception(...)`, with a short reason.
 *
 * Modelled rules (checked against a pydantic 2.13 replica of the 1.x wire models):
 * - `jsonrpc` must be exactly `"2.0"`; arrays and scalars are rejected (no batch branch).
 * - A string `method` with `params` absent, null or an object is accepted as a notification whatever
 *   else is present: extra keys are allowed, so an `id` of any type (null, boolean, fractional) and even
 *   `result`/`error` ride along as extras.
 * - A result: `id` a string or strict int (booleans and fractions rejected) and `result` an object.
 * - An error: `id` required, `str | int` in lax mode (booleans and `1.0` accepted, null and absent
 *   rejected; main accepts null, python-sdk#2056); `error.code` lax int (booleans, integral floats and
 *   numeric strings such as `"12"` accepted); `error.message` a string.
 * - `result` and `error` together: accepted (as the error, or as the result when the error is invalid).
 * Limits: number spelling is lost after `JSON.parse` (`1.0` and `1e2` ids are rejected by Python but
 * look like `1` and `100` here); the JSON.stringify spelling is assumed.
 */
export function pythonSdkVerdict(message: unknown): SdkVerdict {
	if (Array.isArray(message)) return reject('a batch array: no list branch in JSONRPCMessage');
	if (!isPlainObject(message)) return reject('not a JSON object');
	if (own(message, 'jsonrpc') !== '2.0') return reject(`jsonrpc: Input should be '2.0'`);

	const method = own(message, 'method');
	let issue: string | undefined;
	if (method !== undefined) {
		const params = own(message, 'params');
		if (typeof method !== 'string') issue = 'method: Input should be a valid string';
		else if (params === undefined || params === null || isPlainObject(params)) return ACCEPTED;
		else issue = 'params: Input should be a valid dictionary';
	}

	const id = own(message, 'id');
	const error = own(message, 'error');
	const result = own(message, 'result');
	if (result !== undefined && isPythonRequestId(id) && isPlainObject(result)) return ACCEPTED;
	if (error !== undefined) {
		const code = isPlainObject(error) ? own(error, 'code') : undefined;
		const text = isPlainObject(error) ? own(error, 'message') : undefined;
		if (isPythonErrorId(id) && isPlainObject(error) && isPythonLaxInt(code) && typeof text === 'string')
			return ACCEPTED;
		if (id === undefined) return reject('id: Field required');
		if (!isPythonErrorId(id)) return reject('id: Input should be a valid string or integer');
		if (!isPlainObject(error)) return reject('error: Input should be a valid dictionary');
		if (!isPythonLaxInt(code)) return reject('error.code: Input should be a valid integer');
		return reject('error.message: Input should be a valid string');
	}
	if (result !== undefined) {
		if (id === undefined) return reject('id: Field required');
		if (!isPythonRequestId(id)) return reject('id: Input should be a valid integer or string');
		return reject('result: Input should be a valid dictionary');
	}
	return reject(issue ?? 'no method, result or error');
}

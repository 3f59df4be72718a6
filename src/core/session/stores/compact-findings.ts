import type {Finding, FindingCode, Severity, StreamName} from '../../types.js';
import {viewOf, type FindingList, type FindingTable} from './finding-list.js';

/**
 * The {@link FindingList} of the TUI on a big capture (docs/performance.md#tui-on-big-captures): per finding only
 * numbers in typed-array columns (a shape id, the stream, offset, byte length, frame index and time: 37
 * bytes), and per distinct shape (everything else: code, severity, message, hint, client impact, rules,
 * detail) one finding kept as its template. Findings of one code on many frames mostly share one shape
 * (a `crlf` on every frame is one), so memory grows by the columns, not by each finding's text and
 * objects; a finding is built again (an equal object, keys in the same order) only when it is read with
 * {@link CompactFindings.at}, for the rows on screen. A finding whose fields cannot be told apart by their
 * serialisation (not plain data: a class instance, a function, a cycle) is kept whole.
 */
export class CompactFindings implements FindingList {
	private count = 0;
	private shape = new Uint32Array(INITIAL);
	private stream = new Uint8Array(INITIAL);
	private offset = new Float64Array(INITIAL);
	private byteLength = new Float64Array(INITIAL);
	private frameIndex = new Float64Array(INITIAL);
	private tMs = new Float64Array(INITIAL);
	private readonly shapes: Shape[] = [];
	private readonly shapeIds = new Map<string, number>();
	/** The shape last added per code: a finding whose other fields are the same values reuses it without a key. */
	private readonly lastShape = new Map<FindingCode, number>();
	private readonly counts = new Map<FindingCode, number>();
	/** Findings kept whole (see the class comment), by index. */
	private readonly whole = new Map<number, Finding>();

	get length(): number {
		return this.count;
	}

	/** Distinct shapes kept (for tests and the bench). */
	get shapeCount(): number {
		return this.shapes.length;
	}

	add(finding: Finding): void {
		const i = this.count;
		if (i === this.shape.length) this.grow();
		this.count++;
		this.counts.set(finding.code, (this.counts.get(finding.code) ?? 0) + 1);
		const columnar = columnarBits(finding);
		const id = this.shapeOf(finding, columnar);
		if (id === undefined) {
			this.shape[i] = WHOLE;
			this.whole.set(i, finding);
			return;
		}

		this.shape[i] = id;
		if (columnar & BIT.stream) this.stream[i] = STREAM_CODE[finding.stream];
		if (columnar & BIT.offset) this.offset[i] = finding.offset;
		if (columnar & BIT.byteLength) this.byteLength[i] = finding.byteLength;
		if (columnar & BIT.frameIndex) this.frameIndex[i] = finding.frameIndex!;
		if (columnar & BIT.tMs) this.tMs[i] = finding.tMs;
	}

	at(index: number): Finding | undefined {
		if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
		const id = this.shape[index]!;
		if (id === WHOLE) return this.whole.get(index);
		const shape = this.shapes[id]!;
		const template = shape.template as unknown as Record<string, unknown>;
		const out: Record<string, unknown> = {};
		for (const key of shape.keys) {
			const bit = POSITIONAL_BIT[key];
			out[key] = bit !== undefined && shape.columnar & bit ? this.column(key as Positional, index) : template[key];
		}

		return out as unknown as Finding;
	}

	codeAt(index: number): FindingCode {
		const id = this.shape[index]!;
		return id === WHOLE ? this.whole.get(index)!.code : this.shapes[id]!.template.code;
	}

	severityAt(index: number): Severity {
		const id = this.shape[index]!;
		return id === WHOLE ? this.whole.get(index)!.severity : this.shapes[id]!.template.severity;
	}

	frameIndexAt(index: number): number | undefined {
		const id = this.shape[index]!;
		if (id === WHOLE) return this.whole.get(index)!.frameIndex;
		const shape = this.shapes[id]!;
		return shape.columnar & BIT.frameIndex ? this.frameIndex[index] : shape.template.frameIndex;
	}

	countOf(code: FindingCode): number {
		return this.counts.get(code) ?? 0;
	}

	view(length = this.count): Required<FindingTable> {
		return viewOf(this, length);
	}

	private column(key: Positional, index: number): unknown {
		switch (key) {
			case 'stream':
				return STREAMS[this.stream[index]!];
			case 'offset':
				return this.offset[index];
			case 'byteLength':
				return this.byteLength[index];
			case 'frameIndex':
				return this.frameIndex[index];
			case 'tMs':
				return this.tMs[index];
		}
	}

	/** The id of `finding`'s shape (added when new), or undefined when it is to be kept whole. */
	private shapeOf(finding: Finding, columnar: number): number | undefined {
		const last = this.lastShape.get(finding.code);
		if (last !== undefined && sameShape(this.shapes[last]!, finding, columnar)) return last;
		const key = shapeKey(finding, columnar);
		if (key === undefined) return undefined;
		let id = this.shapeIds.get(key);
		if (id === undefined) {
			id = this.shapes.length;
			this.shapes.push({template: finding, keys: Object.keys(finding), columnar});
			this.shapeIds.set(key, id);
		}

		this.lastShape.set(finding.code, id);
		return id;
	}

	private grow(): void {
		const size = this.shape.length * 2;
		this.shape = copyInto(new Uint32Array(size), this.shape);
		this.stream = copyInto(new Uint8Array(size), this.stream);
		this.offset = copyInto(new Float64Array(size), this.offset);
		this.byteLength = copyInto(new Float64Array(size), this.byteLength);
		this.frameIndex = copyInto(new Float64Array(size), this.frameIndex);
		this.tMs = copyInto(new Float64Array(size), this.tMs);
	}
}

/** One shape: the first finding seen with it, its keys in order, and which of its positional fields come from the columns. */
interface Shape {
	readonly template: Finding;
	readonly keys: readonly string[];
	readonly columnar: number;
}

const INITIAL = 64;
/** `shape` of a finding kept whole. */
const WHOLE = 0xffffffff;
const STREAMS: readonly StreamName[] = ['stdin', 'stdout', 'stderr'];
const STREAM_CODE: Readonly<Record<StreamName, number>> = {stdin: 0, stdout: 1, stderr: 2};

type Positional = 'stream' | 'offset' | 'byteLength' | 'frameIndex' | 'tMs';
const BIT: Readonly<Record<Positional, number>> = {stream: 1, offset: 2, byteLength: 4, frameIndex: 8, tMs: 16};
const POSITIONAL_BIT: Readonly<Record<string, number | undefined>> = Object.assign(
	Object.create(null) as Record<string, number>,
	BIT,
);
/** Deepest nesting a shape key follows; deeper findings are kept whole. */
const MAX_DEPTH = 64;

function copyInto<T extends Uint8Array | Uint32Array | Float64Array>(to: T, from: T): T {
	to.set(from);
	return to;
}

/** Which positional fields of `finding` its columns hold: own fields with a value a column keeps exactly. */
function columnarBits(finding: Finding): number {
	const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(finding, key);
	let bits = 0;
	if (has('stream') && Object.prototype.hasOwnProperty.call(STREAM_CODE, finding.stream)) bits |= BIT.stream;
	if (has('offset') && typeof finding.offset === 'number') bits |= BIT.offset;
	if (has('byteLength') && typeof finding.byteLength === 'number') bits |= BIT.byteLength;
	if (has('frameIndex') && typeof finding.frameIndex === 'number') bits |= BIT.frameIndex;
	if (has('tMs') && typeof finding.tMs === 'number') bits |= BIT.tMs;
	return bits;
}

/** True when `finding` has the keys of `shape`, in order, and the same values outside the columns (by identity). */
function sameShape(shape: Shape, finding: Finding, columnar: number): boolean {
	if (shape.columnar !== columnar || Object.getPrototypeOf(finding) !== Object.getPrototypeOf(shape.template))
		return false;
	const keys = Object.keys(finding);
	if (keys.length !== shape.keys.length) return false;
	const a = shape.template as unknown as Record<string, unknown>;
	const b = finding as unknown as Record<string, unknown>;
	for (let k = 0; k < keys.length; k++) {
		const key = keys[k]!;
		if (key !== shape.keys[k]) return false;
		const bit = POSITIONAL_BIT[key];
		if (bit !== undefined && columnar & bit) continue;
		if (!Object.is(a[key], b[key])) return false;
	}

	return Object.getOwnPropertySymbols(finding).length === 0;
}

/**
 * A string equal for two findings exactly when they have the same keys in the same order and equal values
 * outside the columns (numbers by `Object.is`, `undefined` told from a missing key); undefined when a
 * value is not plain data.
 */
function shapeKey(finding: Finding, columnar: number): string | undefined {
	const record = finding as unknown as Record<string, unknown>;
	if (Object.getPrototypeOf(finding) !== Object.prototype || Object.getOwnPropertySymbols(finding).length > 0)
		return undefined;
	let key = `${columnar}{`;
	for (const name of Object.keys(record)) {
		const bit = POSITIONAL_BIT[name];
		if (bit !== undefined && columnar & bit) {
			key += `${JSON.stringify(name)}#,`;
			continue;
		}

		const value = serialise(record[name], 0);
		if (value === undefined) return undefined;
		key += `${JSON.stringify(name)}:${value},`;
	}

	return `${key}}`;
}

/** Plain data as a string (see {@link shapeKey}); undefined for anything else. */
function serialise(value: unknown, depth: number): string | undefined {
	switch (typeof value) {
		case 'string':
			return JSON.stringify(value);
		case 'number':
			return Object.is(value, -0) ? '-0' : String(value);
		case 'boolean':
			return value ? 't' : 'f';
		case 'undefined':
			return 'u';
		case 'object':
			break;
		default:
			return undefined;
	}

	if (value === null) return 'n';
	if (depth >= MAX_DEPTH || Object.getOwnPropertySymbols(value).length > 0) return undefined;
	const proto = Object.getPrototypeOf(value) as unknown;
	if (Array.isArray(value)) {
		if (proto !== Array.prototype || Object.keys(value).length !== value.length) return undefined;
		let out = '[';
		for (const item of value) {
			const part = serialise(item, depth + 1);
			if (part === undefined) return undefined;
			out += `${part},`;
		}

		return `${out}]`;
	}

	if (proto !== Object.prototype && proto !== null) return undefined;
	let out = proto === null ? 'N{' : '{';
	const record = value as Record<string, unknown>;
	for (const name of Object.keys(record)) {
		const part = serialise(record[name], depth + 1);
		if (part === undefined) return undefined;
		out += `${JSON.stringify(name)}:${part},`;
	}

	return `${out}}`;
}

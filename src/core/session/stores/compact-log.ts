// The storage of the compact frame index (compact-frame-index.ts): paged number columns, an append-only
// log of varint records, a string table.

const PAGE_BITS = 16;
const PAGE = 1 << PAGE_BITS;
const MASK = PAGE - 1;

type NumberArray = {[index: number]: number};

/** A growable column of numbers in pages of 65,536 typed-array entries (no copy when it grows). */
export class Column {
	private readonly pages: NumberArray[] = [];
	constructor(private readonly make: (length: number) => NumberArray) {}
	get(index: number): number {
		return this.pages[index >>> PAGE_BITS]![index & MASK]!;
	}

	set(index: number, value: number): void {
		const page = index >>> PAGE_BITS;
		(this.pages[page] ??= this.make(PAGE))[index & MASK] = value;
	}
}

export const f64 = (): Column => new Column((n) => new Float64Array(n));
export const u8 = (): Column => new Column((n) => new Uint8Array(n));

/** Bytes per page of a {@link ByteLog}. */
const LOG_PAGE = 256 * 1024;
/** No record is longer than this (bytes): a record starts on a new page when fewer bytes are left. */
const MAX_RECORD = 160;

const scratch = new Float64Array(1);
const scratchBytes = new Uint8Array(scratch.buffer);

/**
 * An append-only log of variable-length records in pages of {@link LOG_PAGE} bytes (no copy when it
 * grows; a record never spans two pages). Numbers are written as LEB128 varints (non-negative integers
 * up to 2^53, by arithmetic) or as 8-byte floats. A position is `page * LOG_PAGE + byte`.
 */
export class ByteLog {
	private readonly pages: Uint8Array[] = [];
	private page: Uint8Array = new Uint8Array(0);
	private at = 0;

	/** Start a record: the position it starts at. */
	begin(): number {
		if (this.page.length - this.at < MAX_RECORD) {
			this.page = new Uint8Array(LOG_PAGE);
			this.pages.push(this.page);
			this.at = 0;
		}

		return (this.pages.length - 1) * LOG_PAGE + this.at;
	}

	byte(value: number): void {
		this.page[this.at++] = value;
	}

	/** A non-negative integer up to 2^53. */
	uint(value: number): void {
		let n = value;
		while (n >= 128) {
			this.page[this.at++] = (n % 128) | 128;
			n = Math.floor(n / 128);
		}

		this.page[this.at++] = n;
	}

	/** An integer with |value| ≤ 2^52 (zigzag). */
	int(value: number): void {
		this.uint(value >= 0 ? value * 2 : -value * 2 - 1);
	}

	float(value: number): void {
		scratch[0] = value;
		this.page.set(scratchBytes, this.at);
		this.at += 8;
	}

	/** A reader at `position`. */
	reader(position: number): LogReader {
		return new LogReader(this.pages, position);
	}
}

/** Reads the records of a {@link ByteLog} in order from a position. */
export class LogReader {
	private pageIndex: number;
	private page: Uint8Array;
	private at: number;
	constructor(
		private readonly pages: readonly Uint8Array[],
		position: number,
	) {
		this.pageIndex = Math.floor(position / LOG_PAGE);
		this.page = pages[this.pageIndex] ?? new Uint8Array(0);
		this.at = position % LOG_PAGE;
	}

	/** Call before each record: as {@link ByteLog.begin}, a record that would not fit the page's rest is on the next page. */
	begin(): void {
		if (LOG_PAGE - this.at < MAX_RECORD) {
			this.pageIndex++;
			this.page = this.pages[this.pageIndex] ?? new Uint8Array(0);
			this.at = 0;
		}
	}

	byte(): number {
		return this.page[this.at++]!;
	}

	uint(): number {
		let value = 0;
		let scale = 1;
		for (;;) {
			const b = this.page[this.at++]!;
			value += (b & 127) * scale;
			if (b < 128) return value;
			scale *= 128;
		}
	}

	int(): number {
		const z = this.uint();
		return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
	}

	float(): number {
		for (let i = 0; i < 8; i++) scratchBytes[i] = this.page[this.at++]!;
		return scratch[0]!;
	}
}

/** Records between two checkpoints of a log (a checkpoint holds what decoding needs to start there). */
export const EVERY_BITS = 5;
export const EVERY = 1 << EVERY_BITS;

/** A string table: small ids for the few method names a session uses (-1: none, -2: not in the table, read from the message). */
export class Strings {
	private readonly ids = new Map<string, number>();
	private readonly values: string[] = [];
	idOf(value: string | undefined): number {
		if (value === undefined) return -1;
		let id = this.ids.get(value);
		if (id === undefined) {
			if (this.values.length >= 65_536) return -2;
			id = this.values.length;
			this.values.push(value);
			this.ids.set(value, id);
		}

		return id;
	}

	value(id: number): string | undefined {
		return id < 0 ? undefined : this.values[id];
	}
}

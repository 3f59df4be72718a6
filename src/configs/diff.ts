/**
 * A small line diff in unified format, for `wrap --dry-run` / `unwrap --dry-run` (docs/cli.md#wrap-and-unwrap).
 */

type Op = {readonly kind: ' ' | '-' | '+'; readonly text: string; readonly aLine: number; readonly bLine: number};

function splitLines(text: string): string[] {
	if (text === '') {
		return [];
	}
	const lines = text.split(/\r\n|\n|\r/);
	if (lines[lines.length - 1] === '') {
		lines.pop();
	}
	return lines;
}

/** LCS-based edit script for the (small) middle part that differs. */
function middleOps(a: readonly string[], b: readonly string[]): Array<' ' | '-' | '+'> {
	const n = a.length;
	const m = b.length;
	if (n * m > 4_000_000) {
		return [...Array<'-'>(n).fill('-'), ...Array<'+'>(m).fill('+')];
	}
	const table: Uint32Array[] = Array.from({length: n + 1}, () => new Uint32Array(m + 1));
	for (let i = n - 1; i >= 0; i--) {
		const row = table[i] as Uint32Array;
		const next = table[i + 1] as Uint32Array;
		for (let j = m - 1; j >= 0; j--) {
			row[j] = a[i] === b[j] ? (next[j + 1] ?? 0) + 1 : Math.max(next[j] ?? 0, row[j + 1] ?? 0);
		}
	}
	const ops: Array<' ' | '-' | '+'> = [];
	let i = 0;
	let j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && a[i] === b[j]) {
			ops.push(' ');
			i++;
			j++;
		} else if (i < n && (j >= m || (table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0))) {
			ops.push('-');
			i++;
		} else {
			ops.push('+');
			j++;
		}
	}
	return ops;
}

/**
 * Unified diff of `before` → `after` with `context` lines around each change (default 3): a
 * `--- label` / `+++ label` header, then `@@ -start,count +start,count @@` hunks whose lines start with
 * ' ', '-' or '+'. Line terminators are not shown (LF, CR LF and CR all end a line). Returns '' when
 * the texts are equal. Output lines are joined with LF and end with LF.
 */
export function unifiedDiff(before: string, after: string, label: string, context = 3): string {
	if (before === after) {
		return '';
	}
	const a = splitLines(before);
	const b = splitLines(after);
	let prefix = 0;
	while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) {
		prefix++;
	}
	let suffix = 0;
	while (
		suffix < a.length - prefix &&
		suffix < b.length - prefix &&
		a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
	) {
		suffix++;
	}
	const kinds: Array<' ' | '-' | '+'> = [
		...Array<' '>(prefix).fill(' '),
		...middleOps(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix)),
		...Array<' '>(suffix).fill(' '),
	];
	const ops: Op[] = [];
	let ai = 0;
	let bi = 0;
	for (const kind of kinds) {
		if (kind === ' ') {
			ops.push({kind, text: a[ai] ?? '', aLine: ai + 1, bLine: bi + 1});
			ai++;
			bi++;
		} else if (kind === '-') {
			ops.push({kind, text: a[ai] ?? '', aLine: ai + 1, bLine: bi + 1});
			ai++;
		} else {
			ops.push({kind, text: b[bi] ?? '', aLine: ai + 1, bLine: bi + 1});
			bi++;
		}
	}
	const out: string[] = [`--- ${label}`, `+++ ${label}`];
	let index = 0;
	while (index < ops.length) {
		if (ops[index]?.kind === ' ') {
			index++;
			continue;
		}
		const start = Math.max(0, index - context);
		let end = index;
		// Extend the hunk while the next change is within 2 * context unchanged lines.
		for (;;) {
			while (end < ops.length && ops[end]?.kind !== ' ') {
				end++;
			}
			let gap = end;
			while (gap < ops.length && ops[gap]?.kind === ' ') {
				gap++;
			}
			if (gap < ops.length && gap - end <= 2 * context) {
				end = gap;
				continue;
			}
			end = Math.min(ops.length, end + context);
			break;
		}
		const hunk = ops.slice(start, end);
		const first = hunk[0] as Op;
		const aCount = hunk.filter((op) => op.kind !== '+').length;
		const bCount = hunk.filter((op) => op.kind !== '-').length;
		const aStart = aCount === 0 ? first.aLine - 1 : first.aLine;
		const bStart = bCount === 0 ? first.bLine - 1 : first.bLine;
		out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
		for (const op of hunk) {
			out.push(`${op.kind}${op.text}`);
		}
		index = end;
	}
	return out.join('\n') + '\n';
}

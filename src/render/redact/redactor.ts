import {Buffer} from 'node:buffer';
import type {Finding, Frame, Mark, ProcessObservation, SessionMeta, Summary} from '../../core/types.js';
import {bump, latin1, maskInPlace, mergeRanges, utf8AsLatin1} from './mask.js';
import {
	escapeRegExp,
	GENERIC_USERS,
	INFERRED_HOME,
	isSecretName,
	looksLikeSecretValue,
	NAMED,
	pemSpan,
	SHAPES,
} from './patterns.js';
import {maskPayloadValue, PayloadScanner} from './payload-scanner.js';
import type {Range, RedactionCounts, RedactionKind, RedactOptions} from './types.js';

/** A unit of base64, standard or URL alphabet (padding aside). */
const BASE64_UNIT = /[A-Za-z0-9+/_-]/;

/**
 * Runs of base64 (16 to 8,192 units, with their `=` padding) that may wrap a secret, found by one walk
 * (a regex with look-arounds overflowed the stack on a megabyte run).
 */
function* base64Runs(subject: string): Generator<{start: number; end: number}> {
	let at = 0;
	while (at < subject.length) {
		if (!BASE64_UNIT.test(subject[at]!)) {
			at++;
			continue;
		}

		const start = at;
		while (at < subject.length && BASE64_UNIT.test(subject[at]!)) at++;
		let end = at;
		while (end < subject.length && end - at < 2 && subject[end] === '=') end++;
		if (end - start >= 16 && end - start <= 8192) yield {start, end};
		at = end === at ? at : end;
	}
}

/**
 * The redaction engine: finds what to mask in text or bytes and replaces it. Stateful only in the literal
 * secrets it has learned (from {@link RedactOptions}, from redacted command arguments, and from
 * secret-named values seen in streams) and in its counts.
 */
export class Redactor {
	private readonly literals = new Set<string>();
	private readonly homeVariants: readonly string[];
	private readonly users: readonly string[];
	private readonly counts: Partial<Record<RedactionKind, number>> = {};
	/** A PEM private key block began in an earlier text() call and has not ended (lines redacted one by one). */
	private isInPem = false;
	readonly options: RedactOptions;

	constructor(options: RedactOptions = {}) {
		this.options = options;
		const homes = [options.home, ...(options.also ?? []).map((other) => other.home)]
			.map((home) => home?.replace(/[/\\]+$/, ''))
			.filter((home): home is string => home !== undefined && home.length >= 2);
		this.homeVariants = [
			...new Set(
				homes.flatMap((home) => [
					home,
					home.replaceAll('\\', '/'),
					home.replaceAll('\\', '\\\\'),
					home.replaceAll('\\', '\\\\\\\\'),
				]),
			),
		];
		this.users = [
			...new Set(
				[options.user, ...(options.also ?? []).map((other) => other.user)].filter(
					(user): user is string => user !== undefined && user.length >= 3 && !GENERIC_USERS.has(user.toLowerCase()),
				),
			),
		];
		for (const [name, value] of Object.entries(options.env ?? {})) {
			if (value !== undefined && isSecretName(name)) {
				this.learn(value);
			}
		}

		for (const secret of options.secrets ?? []) {
			this.learn(secret);
		}
	}

	/** Remember a literal secret (at least 4 characters, not just whitespace) to mask wherever it appears. */
	learn(value: string): void {
		if (value.length >= 4 && value.trim() !== '') {
			this.literals.add(value);
		}
	}

	/** The literal secret values known so far (from options, the command, and secret-named values seen). */
	knownSecrets(): readonly string[] {
		return [...this.literals];
	}

	/** Counts of everything redacted with `count: true` so far. */
	getCounts(): RedactionCounts {
		return {...this.counts};
	}

	/** Adds counts (e.g. payload strings counted by a scanner). */
	addCount(kind: RedactionKind, by: number): void {
		if (by > 0) {
			bump(this.counts, kind, by);
		}
	}

	/**
	 * Every range to mask in `subject`. `isBytes`: `subject` is a byte string ({@link latin1}), so literals
	 * are matched as their UTF-8 bytes and the home directory keeps its parent path (`/home/`).
	 */
	findRanges(subject: string, isBytes: boolean): Range[] {
		const ranges: Range[] = [];
		for (const rule of SHAPES) {
			for (const match of subject.matchAll(rule.re)) {
				if (rule.group === undefined) {
					ranges.push({
						start: match.index,
						end: match.index + match[0].length,
						kind: rule.kind,
						keep: rule.keep(match[0]),
					});
				} else {
					const span = match.indices?.[rule.group];
					if (span !== undefined && span[1] > span[0]) {
						ranges.push({start: span[0], end: span[1], kind: rule.kind, keep: 0});
					}
				}
			}
		}

		for (const range of this.namedRanges(subject)) ranges.push(range);
		for (const range of this.base64Ranges(subject)) ranges.push(range);
		for (const literal of this.literals) {
			const needle = isBytes ? utf8AsLatin1(literal) : literal;
			for (let at = subject.indexOf(needle); at !== -1; at = subject.indexOf(needle, at + needle.length)) {
				ranges.push({start: at, end: at + needle.length, kind: 'secret-value', keep: 0});
			}
		}

		for (const variant of this.homeVariants) {
			const needle = isBytes ? utf8AsLatin1(variant) : variant;
			const re = new RegExp(`${escapeRegExp(needle)}(?![A-Za-z0-9_.-])`, 'g');
			const keep = isBytes ? Math.max(needle.lastIndexOf('/'), needle.lastIndexOf('\\')) + 1 : 0;
			for (const match of subject.matchAll(re)) {
				ranges.push({start: match.index, end: match.index + needle.length, kind: 'home', keep});
			}
		}

		for (const match of subject.matchAll(INFERRED_HOME)) {
			const span = match.indices?.[1];
			const name = match[1] ?? '';
			if (span !== undefined && name !== '<user>' && !/^\*+$/.test(name) && !GENERIC_USERS.has(name.toLowerCase())) {
				ranges.push({start: span[0], end: span[1], kind: 'user', keep: 0});
			}
		}

		for (const user of this.users) {
			const needle = isBytes ? utf8AsLatin1(user) : user;
			const re = new RegExp(`(?<![A-Za-z0-9_.-])${escapeRegExp(needle)}(?![A-Za-z0-9_-])`, 'g');
			for (const match of subject.matchAll(re)) {
				ranges.push({start: match.index, end: match.index + needle.length, kind: 'user', keep: 0});
			}
		}

		return ranges;
	}

	/**
	 * Base64 runs (standard or URL alphabet, 16 to 8,192 characters) whose decoded text is mostly printable
	 * and holds a secret by shape, by name or a known literal: the whole run is masked (a token wrapped in
	 * base64 in a config blob, a basic-auth pair, a data URL).
	 */
	private base64Ranges(subject: string): Range[] {
		const ranges: Range[] = [];
		for (const {start, end} of base64Runs(subject)) {
			const run = subject.slice(start, end);
			if (!/[A-Z]/.test(run) || !/[a-z]/.test(run)) continue;
			const decoded = Buffer.from(run.replaceAll('-', '+').replaceAll('_', '/'), 'base64').toString('latin1');
			let printable = 0;
			for (let i = 0; i < decoded.length; i++) {
				const unit = decoded.codePointAt(i)!;
				if ((unit >= 0x20 && unit < 0x7f) || unit === 0x0a || unit === 0x0d || unit === 0x09) printable++;
			}

			if (decoded.length < 8 || printable < decoded.length * 0.9) continue;
			if (this.holdsSecret(decoded)) ranges.push({start, end, kind: 'base64-secret', keep: 0});
		}

		return ranges;
	}

	/** Whether decoded text holds a secret by shape, by name or a known literal (no home or user name). */
	private holdsSecret(text: string): boolean {
		for (const rule of SHAPES) {
			rule.re.lastIndex = 0;
			const isFound = rule.re.test(text);
			rule.re.lastIndex = 0;
			if (isFound) return true;
		}

		if (this.namedRanges(text).length > 0) return true;
		for (const literal of this.literals) if (text.includes(utf8AsLatin1(literal))) return true;
		return false;
	}

	/** Ranges of values under secret-looking names (see {@link NAMED}). */
	private namedRanges(subject: string): Range[] {
		const ranges: Range[] = [];
		for (const re of NAMED) {
			for (const match of subject.matchAll(re)) {
				const groups = match.groups ?? {};
				if (!isSecretName(groups['name'] ?? '')) {
					continue;
				}

				const indices = match.indices?.groups ?? {};
				const span = indices['value'] ?? indices['value2'] ?? indices['value3'];
				if (span !== undefined && span[1] > span[0]) {
					ranges.push({start: span[0], end: span[1], kind: 'secret-value', keep: 0});
				}
			}
		}

		return ranges;
	}

	/**
	 * Learns the values of secret-named assignments found in a byte string (e.g. `API_KEY=…` on stderr),
	 * so the same value is masked where it shows up without its name (only values that look like secrets:
	 * see {@link looksLikeSecretValue}, so usage text such as `--api-key value` teaches nothing).
	 */
	learnFromBytes(subject: string): void {
		for (const range of this.namedRanges(subject)) {
			const value = Buffer.from(subject.slice(range.start, range.end), 'latin1').toString('utf8');
			if (looksLikeSecretValue(value)) {
				this.learn(value);
			}
		}
	}

	/**
	 * Redacts text for display: secrets → `<redacted>` (a known public prefix kept: `ghp_<redacted>`),
	 * the home directory → `~`, the user name → `<user>`.
	 * @param options `count`: add what was found to the counts (use it once per source, not per view).
	 */
	text(text: string, options: {readonly count?: boolean} = {}): string {
		if (text === '') {
			return text;
		}

		const pem = pemSpan(text, this.isInPem);
		this.isInPem = pem.isOpen;
		const ranges = mergeRanges([...this.findRanges(text, false), ...pem.ranges]);
		if (ranges.length === 0) {
			return text;
		}

		let out = '';
		let at = 0;
		for (const range of ranges) {
			if (options.count === true) {
				bump(this.counts, range.kind);
			}

			out += text.slice(at, range.start);
			const replacement =
				range.kind === 'home'
					? '~'
					: range.kind === 'user'
						? '<user>'
						: `${text.slice(range.start, range.start + range.keep)}<redacted>`;
			out += replacement;
			at = range.end;
		}

		return out + text.slice(at);
	}

	/**
	 * Redacts a parsed JSON value or a finding's detail: every string through {@link text}, and a string or
	 * number under a secret-looking member name becomes `<redacted>`. Object keys are kept.
	 */
	value(value: unknown, name?: string): unknown {
		if (
			name !== undefined &&
			isSecretName(name) &&
			(typeof value === 'string' || typeof value === 'number') &&
			value !== ''
		) {
			return '<redacted>';
		}

		if (typeof value === 'string') {
			return this.text(value);
		}

		if (Array.isArray(value)) {
			return value.map((item) => this.value(item));
		}

		if (typeof value === 'object' && value !== null) {
			return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.value(item, key)]));
		}

		return value;
	}

	/**
	 * Redacts a command line (program and arguments): the argument after a secret-named flag
	 * (`--token xyz`) becomes `<redacted>`, and each argument goes through {@link text} (`--api-key=xyz`,
	 * `KEY=VALUE`, shapes, paths). The redacted values are learned, so they are masked in the streams too.
	 * @param options `count` as in {@link text}.
	 */
	command(args: readonly string[], options: {readonly count?: boolean} = {}): string[] {
		const out: string[] = [];
		let isSecretNext = false;
		for (const arg of args) {
			if (isSecretNext && !arg.startsWith('-')) {
				isSecretNext = false;
				this.learn(arg);
				if (options.count === true) {
					bump(this.counts, 'secret-value');
				}

				out.push('<redacted>');
				continue;
			}

			isSecretNext = false;
			const flag = /^--?([A-Za-z][A-Za-z0-9_.-]*)$/.exec(arg);
			if (flag !== null && isSecretName(flag[1]!)) {
				isSecretNext = true;
			}

			for (const range of this.namedRanges(arg)) {
				this.learn(arg.slice(range.start, range.end));
			}

			out.push(this.text(arg, options));
		}

		return out;
	}

	/**
	 * Masks bytes, same length: every masked byte becomes `*` (LF and CR stay). Used on whole streams.
	 * @param payloads also mask JSON string values (a fresh {@link PayloadScanner} over `bytes`).
	 * @param options `count` as in {@link text}.
	 * @returns a new array; the input is not changed.
	 */
	bytes(bytes: Uint8Array, payloads: boolean, options: {readonly count?: boolean} = {}): Uint8Array {
		const out = new Uint8Array(bytes);
		const subject = latin1(bytes);
		for (const range of mergeRanges(this.findRanges(subject, true))) {
			if (options.count === true) {
				bump(this.counts, range.kind);
			}

			maskInPlace(out, range.start + range.keep, range.end);
		}

		if (payloads) {
			const scanner = new PayloadScanner();
			for (const [start, end] of scanner.scan(bytes)) {
				maskInPlace(out, start, end);
			}

			if (options.count === true) {
				this.addCount('payload', scanner.strings);
			}
		}

		return out;
	}

	/**
	 * Redacts a frame for display: `text`, `method`, string `id` and `answers.method` through {@link text};
	 * `message` through {@link value} (after {@link maskPayloadValue} when payloads are masked and the frame
	 * is on stdin/stdout). Offsets and byte counts are unchanged.
	 */
	frame(frame: Frame): Frame {
		const isPayload = this.options.payloads === true && frame.stream !== 'stderr';
		const redacted: {-readonly [K in keyof Frame]: Frame[K]} = {...frame};
		if (frame.text !== undefined) {
			redacted.text = this.text(frame.text);
		}

		if (frame.message !== undefined) {
			redacted.message = this.value(isPayload ? maskPayloadValue(frame.message) : frame.message);
		}

		if (frame.method !== undefined) {
			redacted.method = this.text(frame.method);
		}

		if (typeof frame.id === 'string') {
			redacted.id = this.text(frame.id);
		}

		if (frame.answers !== undefined) {
			redacted.answers = {...frame.answers, method: this.text(frame.answers.method)};
		}

		return redacted;
	}

	/** Redacts a finding's message, hint and detail; offsets and lengths are unchanged. */
	finding(finding: Finding): Finding {
		return {
			...finding,
			message: this.text(finding.message),
			hint: this.text(finding.hint),
			impact: finding.impact.map((impact) => ({...impact, note: this.text(impact.note)})),
			...(finding.detail === undefined
				? {}
				: {detail: this.value(finding.detail) as Readonly<Record<string, unknown>>}),
		};
	}

	/**
	 * Redacts session facts: command (see {@link command}), cwd, name, and the capturing user's home and
	 * user name (`~`, `<user>` when they are the ones being redacted). `envKeys` are names only and stay.
	 */
	meta(meta: SessionMeta, options: {readonly count?: boolean} = {}): SessionMeta {
		return {
			...meta,
			command: this.command(meta.command, options),
			...(meta.cwd === undefined ? {} : {cwd: this.text(meta.cwd, options)}),
			...(meta.name === undefined ? {} : {name: this.text(meta.name, options)}),
			...(meta.home === undefined ? {} : {home: this.text(meta.home)}),
			...(meta.user === undefined ? {} : {user: this.text(meta.user)}),
			...(meta.capturePath === undefined ? {} : {capturePath: this.text(meta.capturePath)}),
		};
	}

	/**
	 * Redacts a mark's free text: an `evidence` mark's process command lines (through {@link command}, so
	 * an argument after `--token` is hidden and learned), `comm`, note and connecting addresses; an
	 * `observed` mark's detail (through {@link value}); a `timeout`'s method and a `phase`'s name. Times,
	 * pids, offsets and lengths are unchanged.
	 */
	mark(mark: Mark): Mark {
		switch (mark.type) {
			case 'evidence': {
				const evidence = mark.evidence;
				return {
					...mark,
					evidence: {
						...evidence,
						...(evidence.note === undefined ? {} : {note: this.text(evidence.note)}),
						processes: evidence.processes.map((process) => this.process(process)),
					},
				};
			}

			case 'observed': {
				return {...mark, detail: this.value(mark.detail) as Readonly<Record<string, unknown>>};
			}

			case 'timeout': {
				return {
					...mark,
					method: this.text(mark.method),
					...(typeof mark.id === 'string' ? {id: this.text(mark.id)} : {}),
				};
			}

			case 'phase': {
				return {...mark, name: this.text(mark.name)};
			}

			default: {
				return mark;
			}
		}
	}

	/** One process of an `evidence` mark, its command line, `comm` and TCP peers redacted. */
	private process(process: ProcessObservation): ProcessObservation {
		return {
			...process,
			...(process.command === undefined ? {} : {command: this.command(process.command)}),
			...(process.comm === undefined ? {} : {comm: this.text(process.comm)}),
			...(process.connecting === undefined
				? {}
				: {connecting: process.connecting.map((address) => this.text(address))}),
		};
	}

	/** Redacts the server's and the client's self-descriptions in a summary (`serverInfo`, `clientInfo`). */
	summary(summary: Summary): Summary {
		const redactInfo = (info: {readonly name?: string; readonly version?: string}) => ({
			...(info.name === undefined ? {} : {name: this.text(info.name)}),
			...(info.version === undefined ? {} : {version: this.text(info.version)}),
		});
		return {
			...summary,
			...(summary.serverInfo === undefined ? {} : {serverInfo: redactInfo(summary.serverInfo)}),
			...(summary.clientInfo === undefined ? {} : {clientInfo: redactInfo(summary.clientInfo)}),
		};
	}
}

import {Command} from 'commander';
import {escapeText, groupDigits} from '../../core/bytes/glyphs.js';
import {listLiveTaps, type LiveTap} from '../../captures/attach.js';
import {
	captureHomeProblem,
	capturesDir,
	checkPrivateDir,
	currentPlatform,
	listCaptures,
	UnsafeDirectoryError,
	type CaptureEntry,
} from '../../captures/capture-store.js';
import {captureVerdicts, MAX_VERDICT_BYTES, type CaptureVerdict} from '../../captures/verdicts.js';
import {parsePositiveInt} from '../options.js';
import {buildId} from '../version.js';
import {shellWord} from '../../render/text/plain-log.js';

interface SessionsCliOptions {
	readonly json?: boolean;
	readonly limit: number;
	readonly all?: boolean;
}

/**
 * `mcp-wire sessions`: the live taps of this user (sockets in the runtime directory that answer with a
 * session header; sockets of taps that died are removed) and the most recent captures in the capture
 * directory, with start time, name, pid, size, verdict and path (shell-quoted when needed, to paste after
 * `mcp-wire view`) (docs/cli.md#sessions). `--json` prints one JSON object per line: `{type: 'live', name,
 * pid, serverPid, address, state, startedAt, command}` and `{type: 'capture', path, name, pid, startedAt,
 * bytes, isLive, verdict}` (`verdict`: `ok`, `warn`, `fail`, `stopped`, `cut-short` or null, captures/verdicts.ts). Without a home (`$HOME` unset, empty or
 * relative, and no absolute `$XDG_STATE_HOME`) there is no capture directory, as for `tap` (which then
 * records nothing): captures are not listed, one line on stderr says why, and the exit code is 0.
 */
export function sessionsCommand(): Command {
	return new Command('sessions')
		.description('list live taps (for `mcp-wire attach`) and recent captures (for `mcp-wire view`)')
		.option('--json', 'one JSON object per line')
		.option('--limit <n>', 'show at most N captures', parsePositiveInt('--limit'), 20)
		.option('--all', 'show every capture')
		.action(async (options: SessionsCliOptions) => {
			process.exitCode = await sessionsAction(options);
		});
}

async function sessionsAction(options: SessionsCliOptions): Promise<number> {
	const facts = currentPlatform();
	const dir = capturesDir(facts);
	const live = await listLiveTaps({facts}).catch((error: unknown) => {
		if (!(error instanceof UnsafeDirectoryError)) throw error;
		process.stderr.write(`mcp-wire: sessions: live taps not listed: ${error.message}\n`);
		return [];
	});
	let all: CaptureEntry[] = [];
	// No home: no capture directory (the tap records nothing then); never list one under a guessed home.
	const homeProblem = captureHomeProblem(facts);
	if (homeProblem === undefined) {
		try {
			if (checkPrivateDir(dir, facts.uid)) all = listCaptures(dir);
		} catch (error) {
			if (!(error instanceof UnsafeDirectoryError)) throw error;
			process.stderr.write(`mcp-wire: sessions: captures not listed: ${error.message}\n`);
		}
	} else {
		process.stderr.write(
			`mcp-wire: sessions: no capture directory: ${homeProblem} (set HOME or XDG_STATE_HOME; a tap records nothing without one unless given --capture FILE)\n`,
		);
	}
	const captures = options.all ? all : all.slice(0, options.limit);
	const livePids = new Set(live.map((tap) => tap.pid));
	const isLive = (entry: CaptureEntry): boolean => livePids.has(entry.pid);
	const verdicts =
		captures.length === 0
			? new Map<string, CaptureVerdict | undefined>()
			: await captureVerdicts(dir, captures, {version: buildId(), isLive, all});
	const out = (line: string): void => {
		process.stdout.write(`${line}\n`);
	};

	if (options.json) {
		for (const tap of live) out(JSON.stringify(liveRecord(tap)));
		for (const entry of captures) {
			out(
				JSON.stringify({
					type: 'capture',
					path: entry.path,
					name: entry.name,
					pid: entry.pid,
					startedAt: entry.startedAt.toISOString(),
					bytes: entry.bytes,
					isLive: isLive(entry),
					verdict: verdicts.get(entry.path) ?? null,
				}),
			);
		}

		return 0;
	}

	if (live.length === 0) {
		out('no live taps');
	} else {
		out(`live taps (${live.length}) · attach with \`mcp-wire attach NAME|PID\``);
		const rows = live.map((tap) => [
			tap.name,
			String(tap.pid),
			tap.header?.pid === undefined ? '-' : String(tap.header.pid),
			tap.header?.startedAt === undefined ? '-' : shortTime(new Date(tap.header.startedAt)),
			tap.state === 'live' ? escapeText((tap.header?.command ?? []).join(' '), 60) : '(not answering)',
		]);
		for (const line of table(['NAME', 'PID', 'SERVER', 'STARTED', 'COMMAND'], rows)) out(`  ${line}`);
	}

	out('');
	if (homeProblem !== undefined) {
		out(`no capture directory (${homeProblem})`);
	} else if (all.length === 0) {
		out(`no captures in ${dir}`);
	} else {
		const shown = captures.length < all.length ? `${captures.length} of ${all.length}` : `${all.length}`;
		out(`captures (${shown}) in ${dir} · open with \`mcp-wire view FILE\``);
		// The whole path, shell-quoted when it needs it: pasted after `mcp-wire view` it opens the capture.
		const rows = captures.map((entry) => [
			shortTime(entry.startedAt),
			entry.name,
			String(entry.pid),
			formatBytes(entry.bytes),
			isLive(entry) ? 'live' : '',
			verdictText(verdicts.get(entry.path)),
			shellWord(entry.path),
		]);
		for (const line of table(['STARTED', 'NAME', 'PID', 'SIZE', '', 'VERDICT', 'FILE'], rows)) out(`  ${line}`);
		if (captures.some((entry) => !isLive(entry) && verdicts.get(entry.path) === undefined))
			out(`  —: no verdict (over ${formatBytes(MAX_VERDICT_BYTES)}, or unreadable); \`mcp-wire view FILE\` replays it`);
	}

	return 0;
}

function liveRecord(tap: LiveTap): Record<string, unknown> {
	return {
		type: 'live',
		name: tap.name,
		pid: tap.pid,
		serverPid: tap.header?.pid ?? null,
		address: tap.address,
		state: tap.state,
		startedAt: tap.header?.startedAt ?? null,
		command: tap.header?.command ?? null,
	};
}

/** A capture's verdict in the table: `ok`, `warn`, `fail`, `stopped`, `cut short`, or `—` when there is none. */
export function verdictText(verdict: CaptureVerdict | undefined): string {
	if (verdict === undefined) return '—';
	return verdict === 'cut-short' ? 'cut short' : verdict;
}

/** Local time `YYYY-MM-DD HH:MM:SS`. */
function shortTime(date: Date): string {
	const pad = (n: number): string => String(n).padStart(2, '0');
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Bytes as `812 B`, `1.2 KiB`, `3.4 MiB`, `1.1 GiB`. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${groupDigits(bytes)} B`;
	const units = ['KiB', 'MiB', 'GiB', 'TiB'];
	let value = bytes / 1024;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}

	return `${value.toFixed(1)} ${units[unit]}`;
}

function table(headings: readonly string[], rows: readonly (readonly string[])[]): string[] {
	const widths = headings.map((heading, i) => Math.max(heading.length, ...rows.map((row) => (row[i] ?? '').length)));
	const line = (cells: readonly string[]): string =>
		cells
			.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
			.join('  ')
			.trimEnd();
	return [line(headings), ...rows.map((row) => line(row))];
}

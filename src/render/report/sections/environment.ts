import {connectedClient, eraNote, listCounts, stallsNote} from '../../text/plain-log.js';
import {groupDigits} from '../../../core/bytes/glyphs.js';
import {STREAM_LABEL, type ExitInfo, type StreamName} from '../../../core/types.js';
import {code, ms, plural, prose} from '../md.js';
import type {ReportContext} from './context.js';
import {readRuntime} from './runtime.js';

function shellWord(word: string): string {
	if (word !== '' && /^[\w@%+=:,./~<>*-]+$/.test(word)) {
		return word;
	}

	return `'${word.replaceAll("'", `'\\''`)}'`;
}

function exitText(exit: ExitInfo | undefined): string {
	if (exit === undefined) {
		return 'no exit recorded';
	}

	if (exit.signal !== null) {
		return `killed by ${prose(exit.signal)} at ${ms(exit.tMs)} ms`;
	}

	return exit.code === null
		? `server exited at ${ms(exit.tMs)} ms`
		: `server exit code ${exit.code} at ${ms(exit.tMs)} ms`;
}

/**
 * The environment as a short list: mcp-wire's version and the capture's (when they differ), the OS and
 * the Node.js mcp-wire ran on; the command (redacted, shell-quoted) and cwd; the env mode with the names of
 * `--env` variables; what the server says it is (serverInfo, protocol, era) and its runtime when it can be
 * read from the command or stderr; the bytes and frames per stream, the duration and how the process ended;
 * for a tap capture whose end record has `stalls`, what the tap's waits for its capture mean.
 */
export function environmentLines(context: ReportContext): string[] {
	const {meta, summary} = context.snapshot;
	const recorded = meta.tool.version === context.toolVersion ? '' : ` (capture recorded by ${meta.tool.version})`;
	const node = meta.node.startsWith('v') ? meta.node : `v${meta.node}`;
	const lines = [
		// The capture's own words (a crafted file can hold anything) go through prose: inert Markdown.
		`- ${prose(`mcp-wire ${context.toolVersion}${recorded} · ${meta.mode} · ${meta.platform} · Node ${node} · started ${meta.startedAt}`)}`,
	];

	const cwd = meta.cwd === undefined ? '' : ` in ${code(meta.cwd, 80)}`;
	lines.push(`- command: ${code(meta.command.map((word) => shellWord(word)).join(' '), 160)}${cwd}`);

	const keys =
		meta.envKeys !== undefined && meta.envKeys.length > 0
			? ` + ${meta.envKeys.map((key) => code(key, 40)).join(', ')}`
			: '';
	lines.push(`- env: ${prose(meta.envMode)}${keys}`);

	const server: string[] = [];
	if (summary.serverInfo !== undefined) {
		server.push(code([summary.serverInfo.name ?? '?', summary.serverInfo.version ?? ''].join(' ').trim(), 60));
	}

	const protocol = summary.protocolVersion ?? meta.protocolVersion;
	if (protocol !== undefined) {
		server.push(`protocol ${code(protocol, 30)}${eraNote(summary.era)}`);
	}

	const runtime = readRuntime(meta.command, context.snapshot.stderrTail(200));
	for (const fact of runtime) {
		server.push(`${fact.name} ${code(fact.version, 60)} (from ${fact.from})`);
	}

	const counts = listCounts(summary);

	if (counts.length > 0) {
		server.push(counts.join(', '));
	}

	if (summary.serverInfo === undefined) {
		server.unshift('no initialize result');
	}

	lines.push(`- server: ${server.join(' · ')}`);
	// A probe's client is mcp-wire (the first line says so); a tap's is the real one.
	const client = meta.mode === 'probe' ? undefined : connectedClient(summary);
	if (client !== undefined) lines.push(`- client: ${code(client, 60)} (clientInfo of its \`initialize\`)`);

	const streams = (['stdin', 'stdout', 'stderr'] as const satisfies readonly StreamName[]).map((stream) => {
		const totals = summary.streams[stream];
		const unit = stream === 'stderr' ? 'line' : 'frame';
		return `${STREAM_LABEL[stream]} ${stream} ${groupDigits(totals.bytes)} B in ${plural(totals.frames, unit)}`;
	});
	lines.push(
		`- wire: ${streams.join(' · ')} · ${ms(summary.durationMs)} ms · ${exitText(summary.exit ?? context.snapshot.exit)}`,
	);
	// A tap capture whose end record has `stalls`: the tap paused its source for the capture.
	if (summary.stalls !== undefined) lines.push(`- capture: ${prose(stallsNote(summary.stalls))}`);
	return lines;
}

/**
 * Claude Code starts a project server (one from `.mcp.json`) only after the user approved it; until
 * then `claude mcp list` shows it as "⏸ Pending approval" and never connects (docs/protocol.md "Measured: Claude Code's claude mcp list", measured
 * on 2.1.197). The approval lives in the settings keys `enabledMcpjsonServers`,
 * `disabledMcpjsonServers` and `enableAllProjectMcpServers`, in `~/.claude/settings.json`,
 * `<project>/.claude/settings.json`, `<project>/.claude/settings.local.json`, and (older versions) in
 * `~/.claude.json` → `projects[<project>]`; the two project files count only once the folder is trusted
 * (`projects[<project>].hasTrustDialogAccepted`). Measured: `enabledMcpjsonServers` in
 * `settings.local.json` left the server pending until the folder was trusted. Read-only; an
 * approximation of Claude Code's rule, used for a note, never for a verdict.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';

/** `approved`: Claude Code starts it; `disabled`: the user rejected it; `pending`: not decided yet. */
export type ProjectApproval = 'approved' | 'disabled' | 'pending';

function readJson(file: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
		return value !== null && typeof value === 'object' && !Array.isArray(value)
			? (value as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}

const names = (value: unknown): string[] =>
	Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/**
 * Whether Claude Code would start project server `name` in project `cwd`. `env` is read for
 * `CLAUDE_CONFIG_DIR` (which moves `~/.claude` and `~/.claude.json`). A rejection in any source wins
 * over an approval; unreadable files count as absent.
 */
export function projectApproval(
	name: string,
	options: {readonly home: string; readonly cwd: string; readonly env: Readonly<Record<string, string | undefined>>},
): ProjectApproval {
	const configDir = options.env['CLAUDE_CONFIG_DIR'];
	const hasConfigDir = configDir !== undefined && configDir !== '';
	const userDir = hasConfigDir ? configDir : path.join(options.home, '.claude');
	const claudeJson = readJson(path.join(hasConfigDir ? configDir : options.home, '.claude.json'));
	const projects = claudeJson?.['projects'];
	const project =
		projects !== null && typeof projects === 'object' ? (projects as Record<string, unknown>)[options.cwd] : undefined;
	const legacy = project !== null && typeof project === 'object' ? (project as Record<string, unknown>) : undefined;
	const trusted = legacy?.['hasTrustDialogAccepted'] === true;
	const sources = [
		readJson(path.join(userDir, 'settings.json')),
		trusted ? readJson(path.join(options.cwd, '.claude', 'settings.json')) : undefined,
		trusted ? readJson(path.join(options.cwd, '.claude', 'settings.local.json')) : undefined,
		legacy,
	].filter((source): source is Record<string, unknown> => source !== undefined);
	if (sources.some((source) => names(source['disabledMcpjsonServers']).includes(name))) return 'disabled';
	if (
		sources.some(
			(source) =>
				source['enableAllProjectMcpServers'] === true || names(source['enabledMcpjsonServers']).includes(name),
		)
	)
		return 'approved';
	return 'pending';
}

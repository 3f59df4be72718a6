import {describe, expect, it} from 'vitest';
import {OUTCOME_CLIENTS} from '../../../src/core/clients/outcome.js';
import {HOST_IDS, NOT_ESTABLISHED, SDK_IDS, isEstablished} from '../../../src/core/clients/profile.js';
import {CLIENTS, HOSTS, SDKS, clientProfile, findClient} from '../../../src/core/clients/registry.js';
import {CLIENT_MESSAGES} from '../../../src/core/findings/support/pasted.js';

describe('client registry', () => {
	it('holds one module per host and SDK family, in the documented order', () => {
		expect(HOSTS.map((profile) => profile.id)).toEqual([...HOST_IDS]);
		expect(SDKS.map((profile) => profile.id)).toEqual([...SDK_IDS]);
		expect(new Set(CLIENTS.map((profile) => profile.id)).size).toBe(16);
		expect(HOSTS.every((profile) => profile.kind === 'host')).toBe(true);
		expect(SDKS.every((profile) => profile.kind === 'sdk' && profile.configs.length === 0)).toBe(true);
	});

	it('looks clients up by the name --client takes', () => {
		expect(findClient('gemini-cli')?.displayName).toBe('Gemini CLI');
		expect(findClient('codex')?.family.value).toBe('rmcp');
		expect(findClient('gemini')).toBeUndefined();
		expect(() => clientProfile('nope' as 'codex')).toThrow('no client profile for nope');
	});

	it('maps each host to a reaction family of the outcome table, or says it is not established', () => {
		const families = Object.fromEntries(HOSTS.map((profile) => [profile.id, profile.family.value]));
		expect(families).toEqual({
			'claude-desktop': 'ts-sdk-v1',
			'claude-code': 'ts-sdk-v1',
			cursor: 'cursor',
			vscode: 'vscode',
			'gemini-cli': 'ts-sdk-v1',
			codex: 'rmcp',
			windsurf: NOT_ESTABLISHED,
			cline: NOT_ESTABLISHED,
			zed: NOT_ESTABLISHED,
			continue: NOT_ESTABLISHED,
			goose: NOT_ESTABLISHED,
			'lm-studio': NOT_ESTABLISHED,
		});
		for (const profile of CLIENTS) {
			if (isEstablished(profile.family.value)) expect(OUTCOME_CLIENTS).toContain(profile.family.value);
		}
		for (const sdk of SDKS) expect(sdk.family.value).toBe(sdk.id);
	});

	it('a host no source describes claims nothing about the wire', () => {
		for (const id of ['windsurf', 'cline', 'zed', 'continue', 'goose', 'lm-studio'] as const) {
			const profile = clientProfile(id);
			expect(profile.opening.protocolVersion).toBe(NOT_ESTABLISHED);
			expect(profile.opening.order).toBe(NOT_ESTABLISHED);
			expect(profile.limits.startupMs.value).toBe(NOT_ESTABLISHED);
			expect(profile.limits.requestMs.value).toBe(NOT_ESTABLISHED);
			expect(profile.stderr.value).toBe(NOT_ESTABLISHED);
			expect(profile.launch.environment.value).toBe(NOT_ESTABLISHED);
			expect(profile.errorTexts).toEqual([]);
			expect(profile.configs.length).toBeGreaterThan(0);
		}
	});

	it('records the measured openings and limits of Codex and Gemini CLI', () => {
		const codex = clientProfile('codex');
		expect(codex.opening).toMatchObject({
			protocolVersion: '2025-06-18',
			capabilities: {elicitation: {form: {}, url: {}}},
			clientInfo: {name: 'codex-mcp-client'},
			ids: {kind: 'integer', first: 0},
			order: ['initialize', 'notifications/initialized', 'tools/list'],
		});
		expect([codex.limits.startupMs.value, codex.limits.requestMs.value, codex.limits.knob]).toEqual([
			30_000,
			30_000,
			'startup_timeout_sec',
		]);
		expect(codex.launch.environment.value).toEqual({
			mode: 'allowlist',
			variables: ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ'],
		});
		const gemini = clientProfile('gemini-cli');
		expect(gemini.opening.protocolVersion).toBe('2025-06-18');
		expect(gemini.opening.supportedVersions).not.toContain('2025-11-25');
		expect([gemini.limits.startupMs.value, gemini.limits.knob, gemini.stderr.value]).toEqual([
			5_000,
			'timeout',
			'piped-unread',
		]);
		expect(clientProfile('vscode').opening.order).toEqual([
			'initialize',
			'logging/setLevel',
			'notifications/initialized',
			'tools/list',
		]);
	});

	it('the config files of Codex and Gemini CLI are the documented ones', () => {
		const codex = clientProfile('codex').configs;
		expect(codex.map((c) => [c.scope, c.base, c.segments.join('/'), c.envOverride, c.format, c.servers.path])).toEqual([
			['user', 'home', '.codex/config.toml', 'CODEX_HOME', 'toml', ['mcp_servers']],
		]);
		expect(codex[0]?.servers.keys).toEqual({
			command: 'command',
			args: 'args',
			env: 'env',
			startupTimeout: 'startup_timeout_sec',
			timeout: 'tool_timeout_sec',
		});
		const gemini = clientProfile('gemini-cli').configs;
		expect(gemini.map((c) => [c.scope, c.base, c.segments.join('/'), c.format])).toEqual([
			['user', 'home', '.gemini/settings.json', 'jsonc'],
			['project', 'cwd', '.gemini/settings.json', 'jsonc'],
		]);
	});

	it('every error text has its own id and a valid pattern that matches its own example', () => {
		let count = 0;
		const ids = new Set<string>();
		for (const profile of CLIENTS) {
			for (const text of profile.errorTexts) {
				count++;
				expect(text.id.startsWith(`${profile.id}/`), text.id).toBe(true);
				expect(ids.has(text.id), text.id).toBe(false);
				ids.add(text.id);
				expect(new RegExp(text.pattern, 'i').test(text.example), `${profile.id}: ${text.pattern}`).toBe(true);
				expect(text.source).not.toBe('');
				// A text marked as explained by the rules is one their client message reads.
				if (text.explainedBy !== undefined) expect(CLIENT_MESSAGES[text.explainedBy].read(text.example)).toBeDefined();
			}
		}
		expect(count).toBe(20);
	});

	it('the four error texts users paste are each a client’s', () => {
		const owner = (pasted: string): string[] =>
			CLIENTS.filter((profile) => profile.errorTexts.some((t) => new RegExp(t.pattern, 'i').test(pasted))).map(
				(profile) => profile.id,
			);
		expect(owner('Client closed')).toEqual(['cursor']);
		expect(owner('Connection state: Error Process exited with code 1')).toEqual(['vscode']);
		expect(owner("Error connecting to MCP server 'fs': Connection failed")).toEqual(['gemini-cli']);
		expect(owner('MCP client for `x` failed to start: handshaking with MCP server failed')).toEqual(['codex']);
	});

	it('every fact names its source', () => {
		for (const profile of CLIENTS) {
			const facts = [
				profile.family,
				profile.sdk,
				profile.launch.environment,
				profile.launch.command,
				profile.limits.startupMs,
				profile.limits.requestMs,
				profile.limits.progressResets,
				profile.stderr,
			];
			for (const fact of facts) expect(fact.source.length, profile.id).toBeGreaterThan(10);
			expect(profile.opening.source.length).toBeGreaterThan(10);
			expect(profile.sources.length).toBeGreaterThan(0);
			for (const config of profile.configs) expect(config.source.length).toBeGreaterThan(10);
		}
	});
});

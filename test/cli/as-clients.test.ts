import {describe, expect, it} from 'vitest';
import {formatMatrix} from '../../src/cli/as-clients.js';
import type {ClientRun} from '../../src/core/clients/client-run.js';

describe('formatMatrix', () => {
	it('a degraded row says why in its last column', () => {
		const row: ClientRun = {
			client: 'claude-code',
			displayName: 'Claude Code',
			outcome: 'degraded',
			connects: true,
			toolsListed: true,
			tools: 1,
			note: 'connects and lists tools (1 tool); but `claude mcp list` shows "tools fetch failed"',
			startMs: 399,
			startupLimitMs: 30_000,
		};
		expect(formatMatrix([row], 12_600, 1)).toEqual([
			'client       outcome     connects  tools  start / limit      first failure',
			'Claude Code  ▲ degraded  yes       1      399 ms / 30000 ms  connects and lists tools (1 tool); but `claude mcp list` shows "tools fetch failed"',
			'1 client(s), 1 distinct opening(s), 12.6 s',
		]);
	});
});

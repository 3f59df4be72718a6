import {describe, expect, it} from 'vitest';
import {startProbeServer} from '../../src/probe/probe-start.js';
import {nodeStarter, type ProcessStarter} from '../../src/process/spawn.js';
import {testEnv} from '../helpers/servers.js';

// A Ctrl-C that comes while the server is being forked: the probe must already listen for it, or the
// signal's default action ends the probe and leaves the server's new process group running.
describe.skipIf(process.platform === 'win32')('startProbeServer and the ending signals', () => {
	it('listens for SIGINT, SIGTERM and SIGHUP before it starts the server, not after', async () => {
		const before = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => process.listenerCount(signal));
		let atSpawn: number[] | undefined;
		const starter: ProcessStarter = (...args) => {
			atSpawn = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => process.listenerCount(signal));
			return nodeStarter(...args);
		};
		const {server} = startProbeServer({command: [process.execPath, '-e', ''], env: testEnv()}, starter);
		expect(atSpawn).toEqual(before.map((count) => count + 1));
		await server.exited;
	});
});

import {PassThrough, Readable, Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {createClock} from '../../src/process/clock.js';
import {runTap, WarningLine} from '../../src/tap/pass-through.js';

/** A writable that keeps what it was given as text. */
function sink(): {stream: Writable; text: () => string} {
	let text = '';
	const stream = new Writable({
		write(chunk: Buffer, _encoding, callback) {
			text += chunk.toString('latin1');
			callback();
		},
	});
	return {stream, text: () => text};
}

describe('WarningLine (our warnings on the server stderr we forward)', () => {
	it('puts a warning on a line of its own when the server stderr stopped mid-line, and writes nothing once closed', () => {
		const err = sink();
		const line = new WarningLine(err.stream);
		line.warn('first');
		err.stream.write('server: half');
		line.lastByte = 0x66;
		line.warn('second');
		line.isOpen = false;
		line.warn('third');
		expect(err.text()).toBe('mcp-wire: warning: first\nserver: half\nmcp-wire: warning: second\n');
	});
});

describe('runTap without a server', () => {
	it('an empty command: one stderr line, exit 126, nothing on stdout, no bytes', async () => {
		const out = sink();
		const err = sink();
		const result = await runTap({
			command: [],
			env: {},
			io: {stdin: Readable.from([]), stdout: out.stream, stderr: err.stream},
			clock: createClock(),
			forwardSignals: false,
		});
		expect(result).toEqual({
			exit: undefined,
			spawnError: {
				code: 'EINVAL',
				file: '',
				reason: 'the command is empty (EINVAL)',
				message: 'cannot start: the command is empty (EINVAL)',
			},
			exitCode: 126,
			bytes: {stdin: 0, stdout: 0, stderr: 0},
		});
		expect(err.text()).toBe('mcp-wire: cannot start: the command is empty (EINVAL)\n');
		expect(out.text()).toBe('');
	});

	it('a command not found: exit 127 and the spawn error, the client stdin left unread', async () => {
		const err = sink();
		const stdin = new PassThrough();
		const result = await runTap({
			command: ['/nonexistent/mcp-wire-no-such-server'],
			env: {PATH: '/usr/bin:/bin'},
			io: {stdin, stdout: sink().stream, stderr: err.stream},
			clock: createClock(),
			forwardSignals: false,
		});
		expect([result.exitCode, result.spawnError?.code]).toEqual([127, 'ENOENT']);
		expect(err.text()).toBe(`mcp-wire: ${result.spawnError?.message}\n`);
		expect(stdin.listenerCount('data')).toBe(0);
	});
});

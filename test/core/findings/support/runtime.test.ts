import {describe, expect, it} from 'vitest';
import {runtimeOfCommand} from '../../../../src/core/findings/support/runtime.js';

describe('runtimeOfCommand', () => {
	it('reads the runtime from the command words', () => {
		expect(runtimeOfCommand(['python3', 'server.py'])).toEqual({runtime: 'python', from: 'the command `python3`'});
		expect(runtimeOfCommand(['npx', '-y', 'some-server'])).toEqual({runtime: 'node', from: 'the command `npx`'});
		expect(runtimeOfCommand(['./server'])).toBeUndefined();
	});

	it("reads past a wrapped entry's `mcp-wire tap --` to the server it runs (was: Node.js, the tap's)", () => {
		const wrapped = ['/usr/bin/node', '/opt/mcp-wire/bin/mcp-wire.js', 'tap', '--name', 'weather', '--'];
		expect(runtimeOfCommand([...wrapped, 'python3', 'server.py'])).toEqual({
			runtime: 'python',
			from: 'the command `python3`',
		});
		expect(runtimeOfCommand(['mcp-wire', 'tap', '--', 'uvx', 'weather-mcp'])).toEqual({
			runtime: 'python',
			from: 'the command `uvx`',
		});
		expect(runtimeOfCommand([...wrapped, './server'])).toBeUndefined();
		// Not a tap: the words are read as they are.
		expect(runtimeOfCommand(['node', 'mcp-wire.js', 'view', '--', 'python3'])).toEqual({
			runtime: 'node',
			from: 'the command `node`',
		});
	});
});

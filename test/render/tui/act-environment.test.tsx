import {Text, renderToString} from 'ink';
import {afterEach, describe, expect, it, vi} from 'vitest';

// ink renders outside React's act(); with the act environment on, React logs a warning on every render
// (test/setup.ts turns it off, and fails a test that logs one).
describe('the TUI tests run without React act() warnings', () => {
	afterEach(() => {
		vi.restoreAllMocks();
	});

	it('renders with renderToString and logs nothing', () => {
		const error = vi.spyOn(console, 'error');
		expect(renderToString(<Text>ok</Text>, {columns: 20})).toBe('ok');
		expect(error.mock.calls.map((call) => String(call[0]).split('\n')[0])).toEqual([]);
	});
});

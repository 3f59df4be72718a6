import {describe, expect, it} from 'vitest';
import {renderReport} from '../../../src/render/report/markdown.js';
import {chunk, goldenMeta, sessionFrom, type Step} from './golden.js';

describe('renderReport on unbounded input (docs/performance.md#replay)', () => {
	it('renders a capture of 200,000 gap records without overflowing the stack', () => {
		const steps: Step[] = [chunk('stdout', 0, '{"jsonrpc":"2.0","method":"x"}\n')];
		for (let k = 0; k < 200_000; k++) {
			steps.push({
				tMs: 1 + k / 1000,
				mark: {type: 'gap', stream: 'stdout', offset: 31 + k, length: 1, reason: 'lag', tMs: 1 + k / 1000},
			});
		}

		const text = renderReport(sessionFrom(goldenMeta(), steps).getSnapshot(), {toolVersion: '0.1.0', redact: false});
		expect(text.split('\n')[0]).toContain(
			'the capture is incomplete: 200,000 bytes crossed the wire but were not captured (200,000 gaps;',
		);
	}, 60_000);
});

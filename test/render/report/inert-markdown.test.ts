import {describe, expect, it} from 'vitest';
import {renderReport} from '../../../src/render/report/markdown.js';
import {prose} from '../../../src/render/report/md.js';
import {chunk, goldenMeta, sessionFrom} from './golden.js';

const HOSTILE =
	'[Click here for the fix](https://evil.example/fix) ![pixel](https://evil.example/p.gif) @octocat <img src=x> www.evil.example';
const INITIALIZE =
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n';

/** The report's text outside code spans and fences: where Markdown is live. */
function liveText(report: string): string {
	const out: string[] = [];
	let fence: string | undefined;
	for (const line of report.split('\n')) {
		const opens = /^(`{3,})/.exec(line)?.[1];
		if (fence !== undefined) {
			if (line === fence) fence = undefined;
			continue;
		}

		if (opens !== undefined) {
			fence = opens;
			continue;
		}

		out.push(line.replaceAll(/(`+)(?:[^`]|[^`][\s\S]*?[^`])\1(?!`)/g, ''));
	}

	return out.join('\n');
}

/** What GitHub would make live in text: a link or image, a mention, an autolink, raw HTML, a heading. */
function liveMarkdown(text: string): string[] {
	const found: string[] = [];
	for (const re of [
		/(?<!\\)\[[^\]]*(?<!\\)\]\(/g,
		/(?<![\w`])@[A-Za-z0-9]/g,
		/https?:\/\//g,
		/\bwww\./g,
		/<(?!\/?(?:details|summary)>)[a-z]/gi,
	]) {
		for (const match of text.matchAll(re)) found.push(match[0]);
	}

	for (const line of text.split('\n'))
		if (/^#{1,6} /.test(line) && !/^#{1,6} (?:Findings|\d)/.test(line)) found.push(line);
	return found;
}

describe('reports are inert Markdown (docs/cli.md#report)', () => {
	it('a protocolVersion with a link, an image, a mention and HTML stays text', () => {
		const session = sessionFrom(goldenMeta(), [
			chunk('stdin', 0, INITIALIZE),
			chunk(
				'stdout',
				5,
				`${JSON.stringify({jsonrpc: '2.0', id: 0, result: {protocolVersion: HOSTILE, capabilities: {}, serverInfo: {name: '@octocat [x](https://evil.example)', version: '1'}}})}\n`,
			),
			chunk('stderr', 6, `# Heading\n${HOSTILE}\n`),
			{tMs: 7, mark: {type: 'timeout', id: 1, method: HOSTILE, timeoutMs: 10, tMs: 7}},
			{tMs: 8, exit: {code: 0, signal: HOSTILE}},
		]);
		const report = renderReport(session.getSnapshot(), {toolVersion: '0.1.0', redact: false});
		expect(report).toContain('evil.example');
		expect(liveMarkdown(liveText(report))).toEqual([]);
	});

	it('a crafted capture header (tool version, platform, node, start) stays text', () => {
		const session = sessionFrom(
			goldenMeta({
				tool: {name: 'mcp-wire', version: HOSTILE},
				platform: '# linux [x](https://evil.example)',
				node: '@octocat',
				startedAt: '<img src=x>',
			}),
			[chunk('stdout', 0, '{"jsonrpc":"2.0","method":"x"}\n')],
		);
		const report = renderReport(session.getSnapshot(), {toolVersion: '0.1.0', redact: false});
		expect(liveMarkdown(liveText(report))).toEqual([]);
	});

	it.each([
		['[a](https://x.example)', String.raw`\[a\](` + '`https://x.example`)'],
		['ask @octocat, or mail a@b.example.', 'ask `@octocat`, or mail `a@b.example`.'],
		['# not a heading', String.raw`\# not a heading`],
		['1. not a list', String.raw`1\. not a list`],
		['<b>x</b> & y', '&lt;b&gt;x&lt;/b&gt; &amp; y'],
		['keep `code [x](y)` as is', 'keep `code [x](y)` as is'],
		[String.raw`a \[ b`, String.raw`a \\\[ b`],
	])('prose(%j) is %j', (input, expected) => {
		expect(prose(input)).toBe(expected);
	});
});

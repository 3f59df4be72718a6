import {afterEach, describe, expect, it} from 'vitest';
import {Session} from '../../../src/core/session/session.js';
import {statusSegments, waitingText} from '../../../src/render/tui/components/status-bar.js';
import {pendingHandshake, statusModel} from '../../../src/render/tui/state/selectors.js';
import {TuiRoot} from '../../../src/render/tui/start-tui.js';
import {COLOR_THEME} from '../../../src/render/tui/theme.js';
import {renderTui, type RenderedTui} from '../../helpers/render-tui.js';
import {BANNER, INITIALIZE, INITIALIZE_REPLY, META} from './exchange.js';

// No green OK before the handshake completed; the status says what the probe waits for.

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (segments: readonly {text: string}[]): string => segments.map((segment) => segment.text).join('');

function waitingSession(startedAt = META.startedAt): Session {
	const session = new Session({...META, startedAt});
	session.pushChunk('stdin', 1, encode(INITIALIZE));
	return session;
}

describe('pendingHandshake', () => {
	it('names the initialize request while no reply answers it', () => {
		expect(pendingHandshake(waitingSession().getSnapshot())).toEqual({method: 'initialize', tMs: 1});
	});

	it('is undefined once the reply came, once the client gave up (timeout mark), and for an ended session', () => {
		const answered = waitingSession();
		answered.pushChunk('stdout', 5, encode(INITIALIZE_REPLY));
		expect(pendingHandshake(answered.getSnapshot())).toBeUndefined();
		const gaveUp = waitingSession();
		gaveUp.mark({type: 'timeout', id: 1, method: 'initialize', timeoutMs: 30_000, tMs: 30_001});
		expect(pendingHandshake(gaveUp.getSnapshot())).toBeUndefined();
		const ended = waitingSession();
		ended.finish(10);
		expect(pendingHandshake(ended.getSnapshot())).toBeUndefined();
	});
});

describe('status bar while the handshake is outstanding', () => {
	it('says WAIT and counts the seconds against the limit, never OK', () => {
		const model = statusModel(waitingSession().getSnapshot());
		expect(model.verdict).toBe('ok');
		const line = text(statusSegments(model, 100, {method: 'initialize', elapsedMs: 3_400, limitMs: 30_000}));
		expect(line.startsWith(' WAIT ')).toBe(true);
		expect(line).not.toContain(' OK ');
		expect(line.endsWith('● waiting for initialize 3 s / 30 s')).toBe(true);
		expect(waitingText({method: 'server/discover', elapsedMs: -5})).toBe('waiting for server/discover 0 s');
		expect(waitingText({elapsedMs: 0})).toBe('waiting for the first message');
	});

	it('keeps a verdict made on evidence (a banner before the reply) and still says what it waits for', () => {
		const session = waitingSession();
		session.pushChunk('stdout', 3, encode(BANNER));
		const model = statusModel(session.getSnapshot());
		expect(model.verdict).not.toBe('ok');
		const line = text(statusSegments(model, 100, {method: 'initialize', elapsedMs: 1_000}));
		expect(line.startsWith(` ${model.verdict.toUpperCase()} `)).toBe(true);
		expect(line.endsWith('● waiting for initialize 1 s')).toBe(true);
	});
});

let tui: RenderedTui | undefined;
afterEach(() => {
	tui?.unmount();
	tui = undefined;
});

describe('TUI: waiting for initialize', () => {
	it('says WAIT before anything crossed the wire (the server is starting), not OK', async () => {
		const session = new Session({...META, startedAt: new Date().toISOString()});
		tui = renderTui(<TuiRoot initialStore={session} theme={COLOR_THEME} waitLimitMs={30_000} />, {
			columns: 100,
			rows: 20,
		});
		await tui.waitForFrame((frame) => frame.includes('waiting for the first message'));
		expect(tui.lastFrame().split('\n')[0]!.startsWith(' WAIT ')).toBe(true);
	});

	it('shows WAIT with the elapsed seconds and the limit, then OK once the reply arrives', async () => {
		const session = waitingSession(new Date(Date.now() - 2_500).toISOString());
		tui = renderTui(<TuiRoot initialStore={session} theme={COLOR_THEME} waitLimitMs={30_000} />, {
			columns: 100,
			rows: 20,
		});
		await tui.waitForFrame((frame) => frame.includes('initialize #1'));
		const status = tui.lastFrame().split('\n')[0]!;
		expect(status.startsWith(' WAIT ')).toBe(true);
		expect(status).toMatch(/● waiting for initialize [2-9] s \/ 30 s$/);
		session.pushChunk('stdout', 2_600, encode(INITIALIZE_REPLY.replace('\r\n', '\n')));
		await tui.waitForFrame((frame) => frame.split('\n')[0]!.startsWith(' OK '));
		expect(tui.lastFrame().split('\n')[0]).toMatch(/● live$/);
	});
});

import type {FindingDraft} from '../../types.js';
import {detailString, row, UNKNOWN} from '../support/meta.js';
import type {Rule} from '../engine.js';
import {frameDraft} from '../support/frame-draft.js';

const isReply = (d: FindingDraft): boolean => detailString(d, 'awaitedMethod') !== undefined;

/**
 * `invalid-json` (R1, J1): a line meant to be a message that does not parse, from the framer's
 * `unparsed-message` content fact: a line that opens like a message (`{` with a `"jsonrpc"` member)
 * or holds the id of a request the peer still awaits, when `JSON.parse` fails: a raw control character
 * inside a string (F37: a legacy-code-page byte `0x15`), a bad escape, a cut. Such a line is never
 * `stray-output`, and the fix is never "move it to stderr": it is the message itself, broken.
 *
 * `offset` is the byte where the parser stopped (not the line start); `byteLength` 1 (0 when the line is
 * cut). `detail`: `looksLike` (`reply to tools/list, id 1`), `clientError` (what `JSON.parse` says, as a
 * TS SDK client logs it), `position` (the error's byte in the JSON text), `byte` (its value), `id` (the raw
 * id token), `awaitedMethod` (the request it answers) or `method`, `objectLiteral` (the message printed as
 * a Python dict or a Node object, not as JSON).
 */
export const invalidJson: Rule = {
	code: 'invalid-json',
	meta: {
		severity: 'error',
		title: 'a message that is not valid JSON',
		message: (d) => {
			const looks = detailString(d, 'looksLike') ?? 'a JSON-RPC message';
			const error = detailString(d, 'clientError') ?? 'a JSON syntax error';
			const method = detailString(d, 'awaitedMethod');
			const id = detailString(d, 'id');
			const consequence =
				method === undefined
					? 'clients drop the line'
					: `clients drop the line, so ${method}${id === undefined ? '' : ` (id ${id})`} is never answered for them`;
			return `a line meant as a message (${looks}) is not valid JSON: ${error}; ${consequence}`;
		},
		hint: (d) => {
			if (d.detail?.['objectLiteral'] === true)
				return 'This is the message printed as an object (single-quoted or bare keys: Python `print(message)` of a dict, `str(message)`, or Node `console.log` of the object), not serialized as JSON: write `json.dumps(message)` / `JSON.stringify(message)`, one line per message. Moving it to stderr would lose the reply.';
			const byte = d.detail?.['byte'];
			if (typeof byte === 'number' && byte < 0x20) {
				return `Escape control characters inside JSON strings (byte 0x${byte.toString(16).padStart(2, '0').toUpperCase()} must be written \\u${byte.toString(16).padStart(4, '0')}): serialize with a JSON library, and decode text from its real code page before putting it in a message.`;
			}
			return 'Serialize every message with a JSON library (`JSON.stringify`, `json.dumps`), never by string concatenation, and write each one whole.';
		},
		rules: ['R1', 'J1'],
		doc: {
			what: 'A line that is meant to be a message (it opens like one, or it holds the id of a request the client is waiting for) but is not valid JSON: a raw control character inside a string, a bad escape, a cut. The client drops the line; a reply in it never arrives.',
			recognised:
				'A line starting with `{` that does not parse, with a `"jsonrpc"` member or the id of an outstanding request. Reported at the byte where the parser stopped, with what the line looks like (`reply to tools/list, id 1`) and the parser\'s own error text. Never `stray-output`.',
			example: {
				steps: [
					{
						stream: 'stdout',
						bytes:
							'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"see \x15 here"}}\n',
					},
				],
				note: 'Byte `15` is a raw control character inside a string: `Bad control character in string literal in JSON at position 85`.',
			},
		},
		impact: (d) =>
			row({
				'ts-sdk-v1': isReply(d)
					? ['hang', 'logs the parse error and drops the line; the request times out']
					: ['skip-log', 'logs the parse error and drops the line'],
				'ts-sdk-v2': isReply(d)
					? ['hang', 'skips the line silently; the request times out']
					: ['skip', 'skips the line silently'],
				'python-sdk': isReply(d)
					? ['hang', 'logs a parse error and drops the line; the request waits']
					: ['skip-log', 'logs a parse error and drops the line'],
				vscode: isReply(d)
					? ['hang', 'logs `Failed to parse message`; the request waits']
					: ['skip-log', 'logs `Failed to parse message`'],
				rmcp: isReply(d)
					? ['hang', 'skips the unparseable line; the request waits']
					: ['skip', 'skips the unparseable line'],
				cursor: UNKNOWN,
			})(),
	},
	create: ({report}) => ({
		onFrameFacts(frame, {content}, frameIndex) {
			if (content?.kind !== 'unparsed-message') return;
			const detail: Record<string, unknown> = {
				looksLike: content.looksLike,
				clientError: content.clientError,
				position: content.position,
			};
			if (content.byte !== undefined) detail['byte'] = content.byte;
			if (content.id !== undefined) detail['id'] = content.id;
			if (content.awaitedMethod !== undefined) detail['awaitedMethod'] = content.awaitedMethod;
			if (content.objectLiteral === true) detail['objectLiteral'] = true;
			else if (content.method !== undefined) detail['method'] = content.method;
			report(frameDraft('invalid-json', frame, content.at, content.length, frameIndex, detail));
		},
	}),
};

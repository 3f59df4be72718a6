import type {Rule} from './engine.js';
import {blankLine} from './rules/blank-line.js';
import {crlf} from './rules/crlf.js';
import {multilineJson} from './rules/multiline-json.js';
import {concatenatedJson} from './rules/concatenated-json.js';
import {missingNewline} from './rules/missing-newline.js';
import {bom} from './rules/bom.js';
import {ansiEscape} from './rules/ansi-escape.js';
import {invalidUtf8} from './rules/invalid-utf8.js';
import {earlyExit} from './rules/early-exit.js';
import {spawnFailed} from './rules/spawn-failed.js';
import {shutdownTimeout} from './rules/shutdown-timeout.js';
import {invalidJsonrpc} from './rules/invalid-jsonrpc.js';
import {unknownId} from './rules/unknown-id.js';
import {duplicateResponse} from './rules/duplicate-response.js';
import {responseToNotification} from './rules/response-to-notification.js';
import {contentLengthFraming} from './rules/content-length-framing.js';
import {invalidInitialize} from './rules/invalid-initialize.js';
import {invalidJson} from './rules/invalid-json.js';
import {nonPortableJson} from './rules/non-portable-json.js';
import {invalidResult} from './rules/invalid-result.js';
import {invalidToolName} from './rules/invalid-tool-name.js';
import {duplicateToolName} from './rules/duplicate-tool-name.js';
import {invalidToolSchema} from './rules/invalid-tool-schema.js';
import {unknownProgressToken} from './rules/unknown-progress-token.js';
import {invalidStructuredContent} from './rules/invalid-structured-content.js';
import {toolError} from './rules/tool-error.js';
import {messageBeforeInitialize} from './rules/message-before-initialize.js';
import {messageOnStderr} from './rules/message-on-stderr.js';
import {oversizeFrame} from './rules/oversize-frame.js';
import {pingError} from './rules/ping-error.js';
import {protocolVersion} from './rules/protocol-version.js';
import {noResponse} from './rules/no-response.js';
import {orphanedProcess} from './rules/orphaned-process.js';
import {slowResponse} from './rules/slow-response.js';
import {stderrMerged} from './rules/stderr-merged.js';
import {strayOutput} from './rules/stray-output.js';
import {unansweredRequest} from './rules/unanswered-request.js';
import {stringIdUnanswered} from './rules/string-id-unanswered.js';
import {preInitializedRequestRejected} from './rules/pre-initialized-request-rejected.js';
import {undeclaredCapability} from './rules/undeclared-capability.js';
import {stdinInherited} from './rules/stdin-inherited.js';
import {unflushedOutput} from './rules/unflushed-output.js';

/**
 * Every finding code's rule (`rules/<code>.ts`: meta + detector; its tests in
 * `test/core/findings/rules/<code>.test.ts`), in the order their listeners run. Nothing else lives here.
 * A rule whose finding the framer or the correlator still reports has a detector with no listeners.
 *
 * Order matters where one rule reads another's findings at the end of the session: `message-on-stderr`
 * runs before `unanswered-request` and `ping-error`, which name it as the cause (cause first), and so does
 * `string-id-unanswered`, whose requests they skip.
 */
export const RULES: readonly Rule[] = [
	blankLine,
	multilineJson,
	concatenatedJson,
	// Before early-exit: a server that dies on a request sent before `initialized` is named by its cause first.
	preInitializedRequestRejected,
	earlyExit,
	spawnFailed,
	shutdownTimeout,
	invalidJsonrpc,
	unknownId,
	duplicateResponse,
	responseToNotification,
	contentLengthFraming,
	stderrMerged,
	strayOutput,
	invalidJson,
	// The byte-level rules of one frame report in this order (after the frame's content rule above).
	nonPortableJson,
	bom,
	ansiEscape,
	invalidUtf8,
	crlf,
	oversizeFrame,
	missingNewline,
	invalidInitialize,
	protocolVersion,
	invalidResult,
	invalidToolName,
	duplicateToolName,
	invalidToolSchema,
	unknownProgressToken,
	invalidStructuredContent,
	toolError,
	messageBeforeInitialize,
	undeclaredCapability,
	messageOnStderr,
	// string-id-unanswered before unanswered-request and ping-error: they leave it the requests it reports.
	stringIdUnanswered,
	unansweredRequest,
	pingError,
	// unflushed-output before slow-response: a reply it explains is not also slow.
	unflushedOutput,
	slowResponse,
	noResponse,
	stdinInherited,
	orphanedProcess,
];

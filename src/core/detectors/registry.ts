import {contentLengthFraming} from './content-length-framing.js';
import {invalidInitialize} from './invalid-initialize.js';
import {invalidJson} from './invalid-json.js';
import {nonPortableJson} from './non-portable-json.js';
import {invalidResult} from './invalid-result.js';
import {messageBeforeInitialize} from './message-before-initialize.js';
import {messageOnStderr} from './message-on-stderr.js';
import {oversizeFrame} from './oversize-frame.js';
import {pingError} from './ping-error.js';
import {protocolVersion} from './protocol-version.js';
import {noResponse} from './no-response.js';
import {orphanedProcess} from './orphaned-process.js';
import type {Rule} from './rule.js';
import {slowResponse} from './slow-response.js';
import {stderrMerged} from './stderr-merged.js';
import {strayOutput} from './stray-output.js';
import {unansweredRequest} from './unanswered-request.js';
import {undeclaredCapability} from './undeclared-capability.js';
import {stdinInherited} from './stdin-inherited.js';
import {unflushedOutput} from './unflushed-output.js';

/**
 * Every finding code that has its own module (`<code>.ts`: meta + detector + tests beside it in
 * `test/core/detectors/`), in the order their listeners run. Codes not listed here still keep their
 * entry inline in `catalog.ts` and their logic in the framer or the session; move them here as they are
 * touched. A module whose finding the framer reports (a byte-level fact) has a detector with no listeners.
 *
 * Order matters where one rule reads another's findings at the end of the session: `message-on-stderr`
 * runs before `unanswered-request` and `ping-error`, which name it as the cause (cause first).
 */
export const RULES: readonly Rule[] = [
	contentLengthFraming,
	oversizeFrame,
	stderrMerged,
	strayOutput,
	invalidJson,
	nonPortableJson,
	invalidInitialize,
	protocolVersion,
	invalidResult,
	messageBeforeInitialize,
	undeclaredCapability,
	messageOnStderr,
	unansweredRequest,
	pingError,
	// unflushed-output before slow-response: a reply it explains is not also slow.
	unflushedOutput,
	slowResponse,
	noResponse,
	stdinInherited,
	orphanedProcess,
];

import {contentLengthFraming} from './content-length-framing.js';
import {oversizeFrame} from './oversize-frame.js';
import type {Rule} from './rule.js';
import {stderrMerged} from './stderr-merged.js';

/**
 * Every finding code that has its own module (`<code>.ts`: meta + detector + tests beside it in
 * `test/core/detectors/`), in the order their listeners run. Codes not listed here still keep their
 * entry inline in `catalog.ts` and their logic in the framer or the session; move them here as they are
 * touched. A module whose finding the framer reports (a byte-level fact) has a detector with no listeners.
 */
export const RULES: readonly Rule[] = [contentLengthFraming, oversizeFrame, stderrMerged];

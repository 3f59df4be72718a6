// Shared test set-up: deterministic colour handling for ink components (style.md §1.7).
process.env['FORCE_COLOR'] = '1';
delete process.env['NO_COLOR'];
(globalThis as {IS_REACT_ACT_ENVIRONMENT?: boolean}).IS_REACT_ACT_ENVIRONMENT = true;
// The TS SDK's schema checks are injected into Sessions (SessionOptions.schemas); the production paths
// pass them explicitly. Installing them as the default here keeps tests that build a Session or replay
// a capture directly on the real SDK verdicts.
import '../src/core/jsonrpc/sdk-schemas.js';

// Shared test set-up: deterministic colour handling for ink components (style.md §1.7).
process.env['FORCE_COLOR'] = '1';
delete process.env['NO_COLOR'];
(globalThis as {IS_REACT_ACT_ENVIRONMENT?: boolean}).IS_REACT_ACT_ENVIRONMENT = true;

import type {SdkVerdict} from './problem.js';

/**
 * The checks that run the TS SDK's own zod schemas (`@modelcontextprotocol/sdk/types.js` 1.32.2, C1),
 * injected into a Session so that loading zod (~100 modules) stays off the paths that do not need it yet:
 * `probe` loads them by `import()` while the server starts (docs/performance.md#probe-start-up). The implementation is
 * `SDK_SCHEMAS` in `./sdk-schemas.ts`; importing that module also installs it as the default.
 */
export interface SdkSchemas {
	/** What a TS SDK client does with one parsed line (`JSONRPCMessageSchema.safeParse`); undefined: not checked. */
	readonly message: (message: unknown) => SdkVerdict | undefined;
	/**
	 * `InitializeResultSchema.safeParse(result)`: undefined when accepted (or not checked), else the first
	 * issue's dotted `path` inside the result ('' for the result itself) and zod's `message`.
	 */
	readonly initializeResult: (result: unknown) => {readonly path: string; readonly message: string} | undefined;
	/**
	 * The result of a request other than `initialize`, checked as the TS SDK client checks it: the method's
	 * result schema (`ListToolsResultSchema` for `tools/list`, …) for a revision the SDK supports. Input:
	 * the request's `method`, the negotiated `protocolVersion` (undefined when none was), the response's
	 * `result`. Output: undefined when accepted or not checked (a method or revision without a schema);
	 * else the issues the SDK client rejects the whole result with, each its dotted `path` inside the result
	 * ('' for the result itself) and the validator's `message`, in the validator's order (`invalid-result`).
	 */
	readonly result: (
		method: string,
		protocolVersion: string | undefined,
		result: unknown,
	) => readonly SchemaIssue[] | undefined;
	/** False for {@link UNCHECKED_SDK_SCHEMAS}: the TS SDK's verdicts are then reported as not established. */
	readonly loaded: boolean;
}

/** One issue a schema validator found: where (dotted path inside the checked value, '' for the value itself) and its message. */
export interface SchemaIssue {
	readonly path: string;
	readonly message: string;
}

/** No schemas loaded: nothing is checked, and the TS SDK client's reaction is reported as `unknown`. */
export const UNCHECKED_SDK_SCHEMAS: SdkSchemas = Object.freeze({
	message: () => undefined,
	initializeResult: () => undefined,
	result: () => undefined,
	loaded: false,
});

let installed: SdkSchemas = UNCHECKED_SDK_SCHEMAS;

/** Make `schemas` the default of every Session built without `schemas` (done by importing `./sdk-schemas.js`). */
export function installSdkSchemas(schemas: SdkSchemas): void {
	installed = schemas;
}

/** The default schemas: the installed ones, else {@link UNCHECKED_SDK_SCHEMAS}. */
export function installedSdkSchemas(): SdkSchemas {
	return installed;
}

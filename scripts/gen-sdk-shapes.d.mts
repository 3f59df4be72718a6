// Types of scripts/gen-sdk-shapes.mjs, for the test that imports it (test/core/jsonrpc/sdk-fast.test.ts).
import type {ShapeNode, ShapeRoots} from '../src/core/jsonrpc/sdk-fast.js';

/** The SDK export each root of the shapes comes from (`message` → `JSONRPCMessageSchema`, …). */
export const ROOT_SCHEMAS: Readonly<Record<keyof ShapeRoots, string>>;
/** The generated module: src/core/jsonrpc/sdk-shapes.ts. */
export const SHAPES_FILE: string;
/** The nodes and roots derived from the SDK's types module (`import * as types from '@modelcontextprotocol/sdk/types.js'`). */
export function deriveSdkShapes(types: unknown): {nodes: ShapeNode[]; roots: ShapeRoots};
/** The text of src/core/jsonrpc/sdk-shapes.ts for `shapes`. */
export function sdkShapesModule(
	shapes: {nodes: ShapeNode[]; roots: ShapeRoots},
	supportedVersions: readonly string[],
	versions: {sdk: string; zod: string},
): string;
/** The installed SDK's and zod's versions, from the package root `root`. */
export function installedVersions(root: string): {sdk: string; zod: string};

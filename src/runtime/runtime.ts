// The one seam between Synapse and the JavaScript runtime it runs on (Bun for the shipped binary,
// Deno as well): everything here differs between the two; what both do alike through node: APIs
// or web standards is used directly elsewhere. Picked once, when this module loads.

import { bunRuntime } from "./bun-runtime.ts";
import { denoRuntime } from "./deno-runtime.ts";
import type { Runtime } from "./runtime-types.ts";

export type { ChildProcess, Runtime, SpawnOptions, StdioMode, StdioSink } from "./runtime-types.ts";

export const runtime: Runtime = "Deno" in globalThis ? denoRuntime() : bunRuntime();

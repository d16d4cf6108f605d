// The interactive session's first line: which synapse this is, and where to start.

import { VERSION } from "../../protocol/version.ts";

export function welcomeLine(): string {
  return `synapse ${VERSION} · /help for commands · Shift+Tab cycles the permission mode`;
}

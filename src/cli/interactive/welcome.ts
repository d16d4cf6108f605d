// The interactive session's first line: which synapse this is, and where to start.

import { VERSION } from "../../protocol/version.ts";

/** `keys: false` (TERM=dumb: the terminal's own line editing reads the prompt): no Shift+Tab to name. */
export function welcomeLine(keys = true): string {
  return `synapse ${VERSION} · /help for commands${keys ? " · Shift+Tab cycles the permission mode" : ""}`;
}

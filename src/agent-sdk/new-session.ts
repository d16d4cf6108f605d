// `--session-id` and `--fork-session` (Claude Code's flags): what they ask of the process's first
// session. A later one (`/clear`, `/resume`) opens as usual: the id named only the first.

import type { SdkSessionFlags } from "./types.ts";

/** Undefined: nothing asked (a fresh id, a resume in place). */
export function firstSession(
  flags: Pick<SdkSessionFlags, "sessionId" | "forkSession">,
): { id?: string; fork: boolean } | undefined {
  if (flags.sessionId === undefined && !flags.forkSession) return undefined;
  return { ...(flags.sessionId ? { id: flags.sessionId } : {}), fork: flags.forkSession };
}

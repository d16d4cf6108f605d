// The status line under the prompt: model, context used, session id, working directory. Pure.

import { fitWidth } from "./text-width.ts";
import type { Theme } from "./theme.ts";

export interface StatusFacts {
  model: string;
  contextPercent: number;
  sessionId: string;
  cwd: string;
  /** A short notice (condensed, model changed) shown at the end for a while. */
  notice?: string;
}

export function statusLine(f: StatusFacts, width: number, t: Theme, home?: string): string {
  const cwd = home && f.cwd.startsWith(home) ? `~${f.cwd.slice(home.length)}` : f.cwd;
  const ctx = `${f.contextPercent}% context`;
  const parts = width < 60 ? [f.model.replace(/^[a-z]+\//, ""), ctx] : [f.model, ctx, f.sessionId, cwd];
  if (f.notice) parts.push(f.notice);
  return t.dim(fitWidth(parts.join(" · "), width));
}

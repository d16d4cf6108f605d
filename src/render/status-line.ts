// The status line under the prompt: model, context used, the session's spend so far, what guards
// the session (permission mode, sandbox: always shown), session id, working directory. Pure.

import { fitWidth, textWidth } from "./text-width.ts";
import type { Theme } from "./theme.ts";

/** One of the safety facts: `danger` shows it in red, upper case and marked ⚠ (readable without colour). */
export interface SafetyPart {
  text: string;
  danger?: boolean;
  /** Not red, but worth a look (yellow): e.g. no sandbox, so the policy asks more. */
  caution?: boolean;
}

export interface StatusFacts {
  model: string;
  /** Undefined while the session opens (nothing sent yet, no window known). */
  contextPercent?: number;
  /** The session's spend so far, already worded ("$0.0123", "12.3k tokens"); empty: not shown. */
  spend?: string;
  sessionId: string;
  cwd: string;
  /** A short notice (condensed, model changed) shown at the end for a while. */
  notice?: string;
  /** Permission mode and sandbox state: right after the context figure, before what may be cut. */
  safety?: SafetyPart[];
}

type Part = { text: string; paint: (t: string) => string };

export function statusLine(f: StatusFacts, width: number, t: Theme, home?: string): string {
  const cwd = home && f.cwd.startsWith(home) ? `~${f.cwd.slice(home.length)}` : f.cwd;
  const ctx = f.contextPercent === undefined ? "" : `${f.contextPercent}% context`;
  const spend = f.spend ?? "";
  const plain = (text: string): Part => ({ text, paint: t.dim });
  const safety = (f.safety ?? []).map(
    (p): Part =>
      p.danger
        ? { text: `⚠ ${p.text.toUpperCase()}`, paint: (x) => t.bold(t.red(x)) }
        : { text: p.text, paint: p.caution ? t.yellow : t.dim },
  );
  const shortModel = f.model.replace(/^[a-z]+\//, "");
  // A notice lasts seconds: at the end of the line, 80 or 100 columns cut it unseen. Wide, it takes
  // the model's place meanwhile (the guards stay); narrow, it follows the guards.
  const notice = f.notice ? [plain(f.notice)] : [];
  const head = f.notice ? plain(f.notice) : plain(f.model);
  // Narrow: the context figure, what guards you (a ⚠ BYPASS is never cut for a dollar figure), the
  // spend, then the model; wide: everything.
  const parts =
    width < 60
      ? safety.length
        ? [plain(ctx), ...safety, ...notice, plain(spend), plain(shortModel)]
        : [plain(shortModel), plain(ctx), ...notice, plain(spend)]
      : [head, plain(ctx), plain(spend), ...safety, plain(f.sessionId), plain(cwd)];
  const out: string[] = [];
  let used = 0;
  for (const p of parts.filter((x) => x.text)) {
    const sep = out.length === 0 ? "" : " · ";
    const room = width - used - sep.length;
    if (room < 2) break;
    const text = textWidth(p.text) <= room ? p.text : fitWidth(p.text, room);
    out.push(t.dim(sep) + p.paint(text));
    used += sep.length + textWidth(text);
    if (text !== p.text) break;
  }
  return out.join("");
}

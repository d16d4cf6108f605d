// Calling the user back to the terminal when a question waits or a long turn ends: the bell, or a
// desktop notification where the terminal turns OSC 9 (iTerm2, WezTerm, kitty, Windows Terminal)
// or OSC 777 (VTE terminals, foot, Ghostty) into one. SYNAPSE_NOTIFY picks which; "off" for none.

import type { NotifyKind } from "../../config/config.ts";
import { assertNever } from "../../protocol/assert-never.ts";

/** The bytes that notify, `message` made safe to sit inside an OSC string. */
export function notification(kind: NotifyKind, message: string): string {
  const text = message.replace(/[\x00-\x1f\x7f-\x9f;]/g, " ");
  switch (kind) {
    case "bell":
      return "\x07";
    case "osc9":
      return `\x1b]9;${text}\x07`;
    case "osc777":
      return `\x1b]777;notify;synapse;${text}\x07`;
    case "off":
      return "";
    default:
      return assertNever(kind, "notification kind");
  }
}

/** Whether a turn that ran `ms` is long enough to call the user back for (0 s: every turn). */
export function longTurn(ms: number, afterSeconds: number): boolean {
  return ms >= afterSeconds * 1000;
}

// `/theme [name]`: the session's colours, a matter of this terminal only (the executor never sees
// it). Which theme a typed line asks for, and what the transcript says about it.

import { THEME_NAMES, type ThemeName } from "../../config/config.ts";
import { inertLine } from "../../render/inert.ts";

export type ThemeReply =
  /** Not a `/theme` line: the executor's business. */
  | { kind: "other" }
  | { kind: "unknown"; line: string }
  /** `name` is the theme now in force (the same one when none was named). */
  | { kind: "theme"; name: ThemeName; changed: boolean; line: string };

const isThemeName = (name: string): name is ThemeName => (THEME_NAMES as readonly string[]).includes(name);

export function themeCommand(text: string, current: ThemeName): ThemeReply {
  const match = /^\s*\/theme(?:\s+(\S*))?\s*$/.exec(text);
  if (!match) return { kind: "other" };
  const asked = match[1] || undefined;
  if (asked !== undefined && !isThemeName(asked)) {
    return { kind: "unknown", line: `unknown theme ${inertLine(asked)}: one of ${THEME_NAMES.join(", ")}` };
  }
  const name = asked ?? current;
  const line = `  theme: ${name} (${THEME_NAMES.join(", ")}; SYNAPSE_THEME sets it for every session)`;
  return { kind: "theme", name, changed: asked !== undefined, line };
}

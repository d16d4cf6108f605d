// How the session looks and calls the user back: colour (NO_COLOR, --no-color, TERM=dumb), plain
// lines on a dumb terminal, the notification kind and delay, the colour theme.

import type { ConfigFlags, Env, NotifyKind, ThemeName } from "./config-types.ts";
import { NOTIFY_KINDS, THEME_NAMES } from "./config-types.ts";
import { int, oneOf } from "./env-values.ts";

/** The theme a terminal's COLORFGBG ("fg;bg", bg 7 or 15 a light one) suggests; dark when unknown. */
export function themeFromColorFgBg(value: string | undefined): ThemeName {
  const bg = Number(value?.split(";").at(-1));
  return bg === 7 || bg === 15 ? "light" : "dark";
}

export interface TerminalSettings {
  color: boolean;
  dumbTerminal: boolean;
  notify: { kind: NotifyKind; afterSeconds: number };
  theme: ThemeName;
}

export function terminalSettings(flags: ConfigFlags, env: Env): TerminalSettings {
  const noColor = flags.noColor || (env.NO_COLOR !== undefined && env.NO_COLOR !== "") || env.TERM === "dumb";
  return {
    color: !noColor,
    dumbTerminal: env.TERM === "dumb",
    notify: {
      kind: env.SYNAPSE_NOTIFY ? oneOf("SYNAPSE_NOTIFY", env.SYNAPSE_NOTIFY, NOTIFY_KINDS) : "bell",
      afterSeconds: int(env, "SYNAPSE_NOTIFY_AFTER", 30, 0, 86_400),
    },
    theme: env.SYNAPSE_THEME
      ? oneOf("SYNAPSE_THEME", env.SYNAPSE_THEME, THEME_NAMES)
      : themeFromColorFgBg(env.COLORFGBG),
  };
}

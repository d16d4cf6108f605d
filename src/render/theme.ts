// The interactive session's colours as plain SGR sequences (no library needed for sixteen
// colours); every function is the identity when colour is off (NO_COLOR, --no-color, TERM=dumb).

import type { ThemeName } from "../config/config.ts";

export interface Theme {
  bold(t: string): string;
  dim(t: string): string;
  italic(t: string): string;
  underline(t: string): string;
  inverse(t: string): string;
  red(t: string): string;
  green(t: string): string;
  yellow(t: string): string;
  blue(t: string): string;
  magenta(t: string): string;
  cyan(t: string): string;
  gray(t: string): string;
  enabled: boolean;
}

const sgr = (open: number | string, close: number) => (t: string) => (t ? `\x1b[${open}m${t}\x1b[${close}m` : t);
const same = (t: string) => t;
const c256 = (n: number) => sgr(`38;5;${n}`, 39);

/**
 * The colours that differ by theme. Dark: the terminal's own sixteen. Light: darker shades from
 * the 256-colour cube, readable on a white background (cyan, yellow and green of the sixteen are
 * not). Colour-blind: success blue and failure orange instead of green and red.
 */
const PALETTES: Record<ThemeName, Pick<Theme, "red" | "green" | "yellow" | "blue" | "magenta" | "cyan" | "gray">> = {
  dark: {
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    blue: sgr(34, 39),
    magenta: sgr(35, 39),
    cyan: sgr(36, 39),
    gray: sgr(90, 39),
  },
  light: {
    red: c256(124),
    green: c256(28),
    yellow: c256(130),
    blue: c256(25),
    magenta: c256(90),
    cyan: c256(30),
    gray: c256(242),
  },
  "colour-blind": {
    red: c256(208),
    green: c256(33),
    yellow: c256(220),
    blue: c256(39),
    magenta: c256(170),
    cyan: c256(45),
    gray: sgr(90, 39),
  },
};

export function makeTheme(enabled: boolean, name: ThemeName = "dark"): Theme {
  if (!enabled) {
    return {
      bold: same,
      dim: same,
      italic: same,
      underline: same,
      inverse: same,
      red: same,
      green: same,
      yellow: same,
      blue: same,
      magenta: same,
      cyan: same,
      gray: same,
      enabled,
    };
  }
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    italic: sgr(3, 23),
    underline: sgr(4, 24),
    inverse: sgr(7, 27),
    ...PALETTES[name],
    enabled,
  };
}

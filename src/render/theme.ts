// The interactive session's colours as plain SGR sequences (no library needed for sixteen
// colours); every function is the identity when colour is off (NO_COLOR, --no-color, TERM=dumb).

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

const sgr = (open: number, close: number) => (t: string) => (t ? `\x1b[${open}m${t}\x1b[${close}m` : t);
const same = (t: string) => t;

export function makeTheme(enabled: boolean): Theme {
  if (!enabled) {
    return { bold: same, dim: same, italic: same, underline: same, inverse: same, red: same, green: same, yellow: same, blue: same, magenta: same, cyan: same, gray: same, enabled };
  }
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    italic: sgr(3, 23),
    underline: sgr(4, 24),
    inverse: sgr(7, 27),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    blue: sgr(34, 39),
    magenta: sgr(35, 39),
    cyan: sgr(36, 39),
    gray: sgr(90, 39),
    enabled,
  };
}

// Colour functions for stderr: chalk on a terminal, plain text otherwise. chalk is loaded only
// when colour is on (its terminal detection costs ~10 ms at startup).

export interface Colors {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
}

const plain = (text: string) => text;
export const PLAIN: Colors = { red: plain, green: plain, yellow: plain, cyan: plain, dim: plain };

export async function loadColors(enabled: boolean): Promise<Colors> {
  if (!enabled) return PLAIN;
  const { Chalk } = await import("chalk");
  const c = new Chalk({ level: 1 });
  return {
    red: (t) => c.red(t),
    green: (t) => c.green(t),
    yellow: (t) => c.yellow(t),
    cyan: (t) => c.cyan(t),
    dim: (t) => c.dim(t),
  };
}

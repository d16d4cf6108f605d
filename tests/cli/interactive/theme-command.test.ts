// `/theme [name]` in the interactive session (theme-command.ts): which lines it takes, what it sets
// and what the transcript says, an unknown name made inert.

import { expect, test } from "bun:test";
import { themeCommand } from "../../../src/cli/interactive/theme-command.ts";

const NOTE = "(dark, light, colour-blind; SYNAPSE_THEME sets it for every session)";

test.each([
  ["hello", { kind: "other" }],
  ["/themes", { kind: "other" }],
  ["/theme light extra", { kind: "other" }],
  ["/theme", { kind: "theme", name: "dark", changed: false, line: `  theme: dark ${NOTE}` }],
  ["  /theme  ", { kind: "theme", name: "dark", changed: false, line: `  theme: dark ${NOTE}` }],
  ["/theme light", { kind: "theme", name: "light", changed: true, line: `  theme: light ${NOTE}` }],
  [
    "/theme colour-blind",
    { kind: "theme", name: "colour-blind", changed: true, line: `  theme: colour-blind ${NOTE}` },
  ],
  ["/theme neon", { kind: "unknown", line: "unknown theme neon: one of dark, light, colour-blind" }],
  ["/theme \x1b[2Jx", { kind: "unknown", line: "unknown theme ␛[2Jx: one of dark, light, colour-blind" }],
] as const)("%j → %j", (text, want) => {
  expect(themeCommand(text, "dark")).toEqual(want);
});

// Themes: dark (the terminal's sixteen colours), light (darker shades readable on white),
// colour-blind (blue and orange for success and failure); picked by SYNAPSE_THEME or COLORFGBG.

import { expect, test } from "bun:test";
import { themeFromColorFgBg } from "../../src/config/config.ts";
import { makeTheme } from "../../src/render/theme.ts";
import { runBinary, tempHome } from "../support/binary.ts";

test("each theme has its own colours; off is off whatever the theme", () => {
  expect(makeTheme(true).cyan("x")).toBe("\x1b[36mx\x1b[39m");
  expect(makeTheme(true, "light").cyan("x")).toBe("\x1b[38;5;30mx\x1b[39m");
  expect(makeTheme(true, "light").yellow("x")).not.toContain("[33m");
  expect(makeTheme(true, "colour-blind").green("x")).toBe("\x1b[38;5;33mx\x1b[39m");
  expect(makeTheme(true, "colour-blind").red("x")).toBe("\x1b[38;5;208mx\x1b[39m");
  expect(makeTheme(false, "light").cyan("x")).toBe("x");
});

test("COLORFGBG with a light background (7 or 15) picks light; anything else dark", () => {
  const table: [string | undefined, string][] = [
    ["0;15", "light"],
    ["0;7", "light"],
    ["0;default;15", "light"],
    ["15;0", "dark"],
    ["", "dark"],
    [undefined, "dark"],
  ];
  for (const [value, want] of table) expect([value, themeFromColorFgBg(value)]).toEqual([value, want as any]);
});

test("an unknown SYNAPSE_THEME is a usage error naming the themes", async () => {
  const home = tempHome();
  const run = await runBinary({ args: ["hi"], env: { ...home.env, SYNAPSE_THEME: "purple" } });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('SYNAPSE_THEME must be one of dark, light, colour-blind (got "purple")');
});

// routeConsole: a library's console writes go to the caller once each, until undone.
import { expect, test } from "bun:test";
import { routeConsole } from "../../src/runtime/console-route.ts";

test("each distinct message once, formatted as console.log would; the undo puts console back", () => {
  const original = console.warn;
  const shown: string[] = [];
  const undo = routeConsole((text) => shown.push(text));
  try {
    console.warn("model %s is deprecated", "claude-x");
    console.warn("model %s is deprecated", "claude-x");
    console.log({ a: 1 });
    console.error("another");
  } finally {
    undo();
  }
  expect(shown).toEqual(["model claude-x is deprecated", "{ a: 1 }", "another"]);
  expect(console.warn).toBe(original);
  undo();
  expect(console.warn).toBe(original);
});

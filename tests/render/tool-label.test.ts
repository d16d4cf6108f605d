// Tool activity labels.
import { expect, test } from "bun:test";
import { toolLabel, truncateOneLine } from "../../src/render/tool-label.ts";

test.each([
  ["Bash", { command: "npm test" }, 40, "Bash(npm test)"],
  ["Read", { path: "src/a.ts", offset: 3 }, 40, "Read(src/a.ts)"],
  ["Bash", { command: "echo a\necho b" }, 40, "Bash(echo a ⏎ echo b)"],
  ["Bash", { command: "x".repeat(50) }, 10, `Bash(${"x".repeat(9)}…)`],
  ["Mystery", { a: 1 }, 40, 'Mystery({"a":1})'],
  ["Mystery", null, 40, "Mystery()"],
])("%s %j", (name, input, limit, expected) => {
  expect(toolLabel(name, input, limit)).toBe(expected);
});

test("truncateOneLine keeps short text", () => {
  expect(truncateOneLine("short", 10)).toBe("short");
});

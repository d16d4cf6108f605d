// A tool call's input with secret values redacted from every string in it (keys and nested values too).
import { expect, test } from "bun:test";
import { redactInput } from "../../src/agent/redact-input.ts";

const SECRET = "sk-live-0123456789";

test.each([
  [`cat ${SECRET}`, "cat [redacted]"],
  [{ command: `curl -H 'x: ${SECRET}'` }, { command: "curl -H 'x: [redacted]'" }],
  [{ edits: [{ old: SECRET, n: 3 }] }, { edits: [{ old: "[redacted]", n: 3 }] }],
  [{ [SECRET]: true }, { "[redacted]": true }],
  [42, 42],
  [null, null],
] as const)("%j", (input, expected) => {
  expect(redactInput(input, [SECRET])).toEqual(expected);
});

test("no secrets: the input itself", () => {
  const input = { path: "a" };
  expect(redactInput(input, [])).toBe(input);
});

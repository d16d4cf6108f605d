// JSON output for a terminal: the same value for any parser, with no raw character a terminal acts on.

import { expect, test } from "bun:test";
import { inertJson } from "../../src/render/inert.ts";

const RAW = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

test.each([
  ["C1 CSI and OSC", "a\u009b2Jb\u009d0;title\u009c"],
  ["DEL and C0", "x\u007f\u001b]52;c;eA==\u0007"],
  ["bidi overrides and line separators", "file\u202egnp.exe\u2066x\u2069\u2028\u2029"],
  ["plain text and emoji", 'héllo 😀 \\ " /'],
])("%s", (_name, text) => {
  const value = { type: "result", result: text, nested: [{ text }] };
  const out = inertJson(value);
  expect(out).not.toMatch(RAW);
  expect(JSON.parse(out)).toEqual(value);
});

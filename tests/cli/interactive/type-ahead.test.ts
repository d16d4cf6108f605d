// Keys typed into a draft when an approval prompt appears keep going to the draft until a pause,
// so a word being typed ("yes, and…", "also…") cannot answer a question the user has not read.

import { expect, test } from "bun:test";
import { TypeAhead } from "../../../src/cli/interactive/type-ahead.ts";

test("keys still arriving in a typing burst belong to the draft; after a pause they answer the prompt", () => {
  const g = new TypeAhead(400);
  expect(g.continues(1000, false)).toBe(false); // nothing typed yet
  g.typed(1000);
  expect(g.continues(1200, false)).toBe(true);
  g.typed(1200);
  expect(g.continues(1550, false)).toBe(true); // 350 ms after the last key: same burst
  expect(g.continues(1600, false)).toBe(false); // a 400 ms pause: the user is answering
  expect(g.continues(1300, true)).toBe(false); // an empty draft has nothing to continue
});

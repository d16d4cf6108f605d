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

test("routeKey: keys the question has no use for go into the draft; Esc and Ctrl-C always reach it", async () => {
  const { routeKey } = await import("../../../src/cli/interactive/type-ahead.ts");
  const base = { stopKey: false, questionTakes: true, continuesDraft: false };
  const table: [Partial<typeof base>, string][] = [
    [{}, "question"], // "y" after a pause answers
    [{ questionTakes: false }, "draft"], // "e", "x": kept for the draft, not dropped
    [{ continuesDraft: true }, "session"], // a typing burst goes on as if no question were there
    [{ stopKey: true, continuesDraft: true }, "question"],
  ];
  for (const [change, want] of table) expect(routeKey({ ...base, ...change }) as string).toBe(want);
});

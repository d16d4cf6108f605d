import { expect, test } from "bun:test";
import { groupToolCalls } from "../../src/agent/tool-batch.ts";

const cases: Array<[string, string]> = [
  ["", ""],
  ["R", "R"],
  ["T", "[T]"],
  ["RTTTW", "R [TTT] W"],
  ["TTRT", "[TT] R [T]"],
  ["RRW", "R R W"],
  ["TTTTTTT", "[TTTTTTT]"],
  ["TRTRT", "[T] R [T] R [T]"],
];

for (const [calls, expected] of cases) {
  test(`groups ${calls || "(none)"} as ${expected || "(none)"}`, () => {
    const groups = groupToolCalls([...calls], (c) => c === "T");
    const shown = groups.map((g) => (g.kind === "single" ? g.call : `[${g.calls.join("")}]`)).join(" ");
    expect(shown).toBe(expected);
  });
}

test("calls keep their order inside and across groups", () => {
  const calls = ["r1", "t1", "t2", "w1", "t3"];
  const flat = groupToolCalls(calls, (c) => c.startsWith("t")).flatMap((g) =>
    g.kind === "single" ? [g.call] : g.calls,
  );
  expect(flat).toEqual(calls);
});

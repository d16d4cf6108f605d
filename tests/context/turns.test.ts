// Turn grouping never separates a tool call from its result; tailStart cuts between whole turns.
import { describe, expect, test } from "bun:test";
import { groupTurns, tailStart } from "../../src/context/turns.ts";
import type { ContentBlock, Message } from "../../src/protocol/message.ts";

let n = 0;
const msg = (role: "user" | "assistant", ...content: ContentBlock[]): Message => ({
  id: `t${++n}`,
  role,
  content,
  ts: n,
});
const text = (t: string): ContentBlock => ({ type: "text", text: t });
const use = (id: string): ContentBlock => ({ type: "tool_use", id, name: "Read", input: {} });
const result = (id: string): ContentBlock => ({ type: "tool_result", tool_use_id: id, content: "r" });

const P = () => msg("user", text("q"));
const A = () => msg("assistant", text("a"));
const C = (id: string) => msg("assistant", text("c"), use(id));
const R = (id: string) => msg("user", result(id));

describe("groupTurns", () => {
  const cases: Array<[string, Message[], Array<[number, number]>]> = [
    ["empty", [], []],
    [
      "prompt and answer",
      [P(), A()],
      [
        [0, 1],
        [1, 2],
      ],
    ],
    [
      "a call with its result is one turn",
      [P(), C("x"), R("x"), A()],
      [
        [0, 1],
        [1, 3],
        [3, 4],
      ],
    ],
    [
      "a call whose result is missing stands alone",
      [P(), C("x"), P()],
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
    ],
    [
      "a stray result stands alone",
      [R("gone"), C("y"), R("y")],
      [
        [0, 1],
        [1, 3],
      ],
    ],
  ];
  for (const [name, messages, spans] of cases) {
    test(name, () => expect(groupTurns(messages).map((t) => [t.start, t.end])).toEqual(spans));
  }
});

describe("tailStart", () => {
  const w = [P(), C("a"), R("a"), C("b"), R("b"), A()];
  const cases: Array<[number, number]> = [
    [0, 6],
    [1, 5],
    [2, 3],
    [3, 1],
    [4, 0],
    [10, 0],
  ];
  for (const [keep, start] of cases) {
    test(`keep ${keep} → starts at ${start}`, () => expect(tailStart(w, keep)).toBe(start));
  }
  test("never starts on a tool result", () => {
    for (let keep = 0; keep < 6; keep++) expect(w[tailStart(w, keep)]?.content[0]?.type).not.toBe("tool_result");
  });
});

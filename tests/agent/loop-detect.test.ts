// Runaway loop detection: table-driven over call sequences and texts.
import { describe, expect, test } from "bun:test";
import { LoopDetector, TEXT_LOOP_MIN_CHARS, noteLoops, repeatedTailPeriod } from "../../src/agent/loop-detect.ts";
import { canonicalJson } from "../../src/text/canonical-json.ts";
import type { ToolUseBlock } from "../../src/protocol/message.ts";

let n = 0;
const call = (name: string, input: unknown): ToolUseBlock => ({ type: "tool_use", id: `c${++n}`, name, input });
const A = () => call("Bash", { command: "ls" });
const B = () => call("Bash", { command: "pwd" });

describe("identical calls in a row", () => {
  // Each letter is one call (one per turn); the verdicts in order.
  const cases: Array<[string, number, string]> = [
    ["AAAA", 5, "ok ok ok ok"],
    ["AAAAA", 5, "ok ok ok ok warn"],
    ["AAAAAA", 5, "ok ok ok ok warn stop"],
    ["AAAAABAAAAA", 5, "ok ok ok ok warn ok ok ok ok ok warn"],
    ["ABABABABABAB", 5, "ok ok ok ok ok ok ok ok ok ok ok ok"],
    ["AAA", 2, "ok warn stop"],
    ["AAAAAAAAAA", 0, "ok ok ok ok ok ok ok ok ok ok"],
    ["AA", 1, "warn stop"],
  ];
  for (const [seq, limit, expected] of cases) {
    test(`${seq} with limit ${limit}: ${expected}`, () => {
      const d = new LoopDetector(limit);
      const got = [...seq].map((c) => d.call(c === "A" ? A() : B()).kind);
      expect(got.join(" ")).toBe(expected);
    });
  }

  test("key order does not make inputs different", () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }] })).toBe(canonicalJson({ a: [{ x: 1, y: 2 }], b: 1 }));
    const d = new LoopDetector(2);
    d.call(call("Read", { path: "a", limit: 5 }));
    expect(d.call(call("Read", { limit: 5, path: "a" })).kind).toBe("warn");
  });

  test("calls of one turn count in order; a stop names the call", () => {
    const d = new LoopDetector(3);
    const first = d.turn("", [A(), A(), A()]);
    expect(first.stop).toBeUndefined();
    expect(first.notes.size).toBe(1);
    const second = d.turn("", [A()]);
    expect(second.stop).toBe('the same Bash {"command":"ls"} call 4 times in a row');
  });
});

describe("repeated text", () => {
  const loop = (piece: string, times: number) => `Some start. ${piece.repeat(times)}`;
  const cases: Array<[string, string, number]> = [
    ["a short piece repeated past the minimum", loop("ha ", 300), 3],
    ["a sentence repeated", loop("I will now run the tests again. ", 20), 32],
    ["the repeat then white space", `${loop("again and again ", 40)}\n\n  `, 16],
    ["a rule of dashes too short to be a loop", `Title\n${"-".repeat(80)}\n`, 0],
    [
      "ordinary prose",
      "The quick brown fox jumps over the lazy dog. ".replace(/./g, (c, i) => c + (i % 7)).repeat(1),
      0,
    ],
    ["indentation only", `code:${" ".repeat(TEXT_LOOP_MIN_CHARS * 2)}`, 0],
    ["nine copies only", loop("x".repeat(60), 9).replace(/x{60}$/, "y".repeat(60)), 0],
    ["a repeat in the middle, then other text", `${"ha ".repeat(300)} and then something else entirely.`, 0],
  ];
  for (const [name, text, period] of cases) {
    test(`${name}: period ${period}`, () => {
      expect(repeatedTailPeriod(text)).toBe(period);
    });
  }

  test("warned once, then stopped; only for turns that also call tools", () => {
    const d = new LoopDetector(5);
    const text = loop("ha ", 300);
    expect(d.turn(text, []).notes.size).toBe(0);
    const first = d.turn(text, [B()]);
    expect(first.stop).toBeUndefined();
    expect([...first.notes.values()][0]).toContain("Loop warning");
    expect(d.turn(text, [A()]).stop).toStartWith("the answer repeated the same text over and over");
  });
});

test("noteLoops adds the note to its call's result only", () => {
  const results = [
    { type: "tool_result" as const, tool_use_id: "x", content: "out" },
    { type: "tool_result" as const, tool_use_id: "y", content: "out" },
  ];
  const noted = noteLoops(results, new Map([["y", "[note]"]]));
  expect(noted.map((b) => (b as { content: string }).content)).toEqual(["out", "out\n\n[note]"]);
});

// Pruning keeps the newest tool outputs (by tokens), replaces older large ones with a one-line note
// naming the call, and leaves small outputs and everything else alone.
import { describe, expect, test } from "bun:test";
import { pruneGap, prunedSavings, selectPrune } from "../../src/context/prune.ts";
import type { ContentBlock, Message } from "../../src/protocol/message.ts";

let n = 0;
const msg = (role: "user" | "assistant", ...content: ContentBlock[]): Message => ({
  id: `p${++n}`,
  role,
  content,
  ts: n,
});
const call = (id: string, command: string): Message =>
  msg("assistant", { type: "tool_use", id, name: "Bash", input: { command } });
const out = (id: string, chars: number): Message =>
  msg("user", { type: "tool_result", tool_use_id: id, content: "o".repeat(chars) });

function history(sizes: number[]): Message[] {
  const h: Message[] = [msg("user", { type: "text", text: "task" })];
  sizes.forEach((size, i) => h.push(call(`c${i}`, `cat file${i}`), out(`c${i}`, size)));
  return h;
}

const prunedIndexes = (h: Message[], keep: number) => {
  const map = selectPrune(h, keep);
  return h.flatMap((m, i) => (map.has(m.id) ? [i] : []));
};

describe("selectPrune", () => {
  // Each output of 4,000 chars is 1,000 tokens.
  const cases: Array<[string, number[], number, number[]]> = [
    ["everything fits: nothing pruned", [4000, 4000], 5000, []],
    ["older than the budget are pruned", [4000, 4000, 4000, 4000], 2500, [2, 4]],
    ["a small old output stays while a larger one goes", [100, 4000, 4000], 1000, [4]],
    ["a budget of 0 prunes every large output but the newest, which the model has not read", [4000, 4000], 0, [2]],
    ["the newest output stays even when larger than the budget", [4000, 12000], 1000, [2]],
  ];
  for (const [name, sizes, keep, indexes] of cases) {
    test(name, () => expect(prunedIndexes(history(sizes), keep)).toEqual(indexes));
  }

  test("the note names the call and the size; ids, order and pairing stay", () => {
    const h = history([4000, 4000]);
    const map = selectPrune(h, 1000);
    const copy = map.get(h[2]!.id)!;
    expect(copy.id).toBe(h[2]!.id);
    const block = copy.content[0]!;
    expect(block).toMatchObject({ type: "tool_result", tool_use_id: "c0" });
    expect((block as any).content).toBe(
      '[output of Bash "cat file0" cleared from the context to save space (4000 characters); the session archive keeps it]',
    );
    expect(prunedSavings(h, map)).toBeGreaterThan(900);
    // A pruned note is never pruned again.
    const again = h.map((m) => map.get(m.id) ?? m);
    expect(selectPrune(again, 0).has(h[2]!.id)).toBe(false);
  });
});

describe("pruneGap: how far the context grows before the next prune pays", () => {
  const anthropic = { write: 1.25, read: 0.1 };
  // gap = sqrt(2 (write - read) rewrite growth / read)
  const cases: Array<[string, number, number, { write: number; read: number }, number]> = [
    ["Anthropic, 8k re-written, 5k a turn", 8_000, 5_000, anthropic, Math.sqrt((2 * 1.15 * 8_000 * 5_000) / 0.1)],
    ["a larger re-write waits longer", 32_000, 5_000, anthropic, 2 * Math.sqrt((2 * 1.15 * 8_000 * 5_000) / 0.1)],
    [
      "OpenAI-like (no write premium, reads at half): prunes sooner",
      8_000,
      5_000,
      { write: 1, read: 0.5 },
      Math.sqrt((2 * 0.5 * 8_000 * 5_000) / 0.5),
    ],
    ["no growth: never", 8_000, 0, anthropic, Number.POSITIVE_INFINITY],
    ["no cache discount: never", 8_000, 5_000, { write: 1, read: 0 }, Number.POSITIVE_INFINITY],
  ];
  for (const [name, rewrite, growth, rates, gap] of cases)
    test(name, () => expect(pruneGap(rewrite, growth, rates)).toBeCloseTo(gap, 6));

  test("at the gap the bill per turn is least", () => {
    const perTurn = (gap: number) => (1.15 * 8_000 * 5_000) / gap + (0.1 * gap) / 2;
    const best = pruneGap(8_000, 5_000, anthropic);
    expect(perTurn(best)).toBeLessThan(perTurn(best * 0.8));
    expect(perTurn(best)).toBeLessThan(perTurn(best * 1.25));
  });
});

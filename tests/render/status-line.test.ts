// The status line's spend: how it is worded (spendLabel) and where it sits (statusLine), pure.
import { describe, expect, test } from "bun:test";
import { spendLabel } from "../../src/llm/pricing.ts";
import { statusLine } from "../../src/render/status-line.ts";
import { makeTheme } from "../../src/render/theme.ts";

const plain = makeTheme(false);
const usage = (input_tokens: number, output_tokens: number) => ({ input_tokens, output_tokens });

describe("spendLabel", () => {
  const cases: Array<[string, ReturnType<typeof usage>, number | undefined, string]> = [
    ["a priced model before any request", usage(0, 0), 0, "$0.0000"],
    ["a priced model: dollars, not tokens", usage(5000, 10), 0.0123, "$0.0123"],
    ["a dollar and more: cents", usage(1, 1), 12.345, "$12.35"],
    ["no price and nothing spent: nothing", usage(0, 0), undefined, ""],
    ["no price: tokens in and out", usage(900, 34), undefined, "934 tokens"],
    ["thousands", usage(12_000, 345), undefined, "12.3k tokens"],
    ["millions", usage(1_500_000, 20_000), undefined, "1.5M tokens"],
  ];
  for (const [name, u, usd, want] of cases) test(name, () => expect(spendLabel(u, usd)).toBe(want));
});

describe("statusLine with a spend", () => {
  const facts = {
    model: "anthropic/claude-sonnet-4-5",
    contextPercent: 3,
    sessionId: "20260101-000000-abcdef",
    cwd: "/work",
    safety: [{ text: "default" }, { text: "sandboxed" }],
  };
  test("wide: right after the context figure", () => {
    expect(statusLine({ ...facts, spend: "$0.0123" }, 120, plain)).toBe(
      "anthropic/claude-sonnet-4-5 · 3% context · $0.0123 · default · sandboxed · 20260101-000000-abcdef · /work",
    );
  });
  test("narrow: still shown, after the safety facts (which a narrow line must keep)", () => {
    expect(statusLine({ ...facts, spend: "$0.0123" }, 50, plain)).toBe(
      "3% context · default · sandboxed · $0.0123 · clau…",
    );
    const bypass = { ...facts, spend: "$0.0123", safety: [{ text: "bypass", danger: true }, { text: "sandboxed" }] };
    expect(statusLine(bypass, 24, plain)).toBe("3% context · ⚠ BYPASS");
  });
  test("no spend: no empty part", () => {
    expect(statusLine({ ...facts, spend: "" }, 120, plain)).toBe(
      "anthropic/claude-sonnet-4-5 · 3% context · default · sandboxed · 20260101-000000-abcdef · /work",
    );
  });
});

describe("statusLine with a notice", () => {
  const facts = {
    model: "anthropic/claude-sonnet-4-5",
    contextPercent: 3,
    spend: "$0.0123",
    sessionId: "20260101-000000-abcdef",
    cwd: "/work/some/project",
    safety: [{ text: "default" }, { text: "sandboxed" }],
    notice: "condensed 120k → 30k",
  };
  // The session id and directory never change; a notice lasts seconds: it must not be the part cut.
  test("wide: the notice takes the model's place while it lasts, the guards stay", () => {
    expect(statusLine(facts, 80, plain)).toBe(
      "condensed 120k → 30k · 3% context · $0.0123 · default · sandboxed · 20260101-00…",
    );
    expect(statusLine({ ...facts, notice: undefined }, 80, plain)).toBe(
      "anthropic/claude-sonnet-4-5 · 3% context · $0.0123 · default · sandboxed · 2026…",
    );
  });
  test("narrow: after the safety facts, before the spend", () => {
    expect(statusLine(facts, 50, plain)).toBe("3% context · default · sandboxed · condensed 120k…");
  });
});

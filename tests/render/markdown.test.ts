// Markdown to terminal rows, diffs, the status line.

import { describe, expect, test } from "bun:test";
import { diffRows } from "../../src/render/diff-view.ts";
import { lineDiff } from "../../src/tools/line-diff.ts";
import { renderMarkdown } from "../../src/render/markdown.ts";
import { statusLine } from "../../src/render/status-line.ts";
import { stripAnsi, textWidth } from "../../src/render/text-width.ts";
import { makeTheme } from "../../src/render/theme.ts";

const plain = makeTheme(false);
const colour = makeTheme(true);

describe("renderMarkdown", () => {
  test("headings, lists, code, quotes, tables, inline marks", () => {
    const rows = renderMarkdown(
      "# Title\n\nSome **bold** and `code` [link](http://x.y).\n\n1. one\n2. two\n\n- a\n  - nested\n\n> quoted\n\n```ts\nconst x = 1;\n```\n\n| a | bb |\n|---|---|\n| 1 | 2 |\n",
      60,
      plain,
    );
    expect(rows).toContain("Title");
    expect(rows).toContain("Some bold and code link (http://x.y).");
    expect(rows).toContain("1. one");
    expect(rows).toContain("• a");
    expect(rows.some((r) => r.includes("• nested"))).toBe(true);
    expect(rows).toContain("▌ quoted");
    // No gutter: copying the code from the terminal copies the code alone.
    expect(rows).toContain("const x = 1;");
    expect(rows.some((r) => r.startsWith("a │ bb"))).toBe(true);
  });
  test("a table wider than the terminal shrinks its columns and wraps cells inside them", () => {
    const md =
      "| name | description | default |\n|---|---|---|\n| SYNAPSE_MAX_PARALLEL_TASKS | sub-agents running at once; more wait for a free slot | 5 |\n| SYNAPSE_TASK_TIMEOUT_MS | a sub-agent running longer is stopped | 600000 |\n";
    for (const width of [44, 60]) {
      const rows = renderMarkdown(md, width, colour).map(stripAnsi);
      for (const r of rows) expect(textWidth(r)).toBeLessThanOrEqual(width);
      // Every row has its column separators at the same places.
      const bars = (r: string) => [...r].flatMap((c, i) => (c === "│" || c === "┼" ? [i] : []));
      const first = bars(rows[0]!);
      expect(first).toHaveLength(2);
      for (const r of rows.filter((r) => r.trim())) expect(bars(r)).toEqual(first);
      // No word of any cell lost.
      const text = rows.join(" ");
      for (const word of ["SYNAPSE_MAX_PARALLEL_TASKS", "sub-agents", "slot", "600000", "stopped", "default"])
        expect(text.replace(/\s+│\s+/g, " ")).toContain(word.slice(0, 5));
    }
  });
  test("a table too wide even for narrow columns is listed row by row", () => {
    const rows = renderMarkdown(
      "| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n| one | two | three | four | five | six |\n",
      12,
      plain,
    );
    for (const r of rows) expect(textWidth(r)).toBeLessThanOrEqual(12);
    expect(rows).toContain("a: one");
    expect(rows).toContain("f: six");
  });
  test("colours code and keeps rows within the width", () => {
    const rows = renderMarkdown(`${"word ".repeat(40)}\n\n\`\`\`js\nconst s = "str"; // note\n\`\`\``, 30, colour);
    for (const r of rows) expect(textWidth(r)).toBeLessThanOrEqual(30);
    const code = rows.find((r) => stripAnsi(r).includes("const s"))!;
    expect(code).toContain("\x1b[35mconst");
    expect(code).toContain('\x1b[32m"str"');
  });
  test("escape sequences in the model's text are made visible, not obeyed", () => {
    const rows = renderMarkdown("evil \x1b]52;c;aGk=\x07 text", 60, plain);
    expect(rows.join("")).not.toContain("\x1b");
  });
});

describe("diffRows", () => {
  const diff = (before: string, after: string) => ({
    kind: "diff" as const,
    path: "f",
    created: false,
    ...lineDiff(before, after),
  });
  test("two separated changes are two hunks with context, not everything between them replaced", () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n");
    const after = before.replace("l3", "THREE").replace("l17", "SEVENTEEN");
    const rows = diffRows(diff(before, after), 80, plain);
    expect(rows).toEqual([
      "     1   l1",
      "     2   l2",
      "     3 - l3",
      "     3 + THREE",
      "     4   l4",
      "     5   l5",
      "     6   l6",
      "       ⋮",
      "    14   l14",
      "    15   l15",
      "    16   l16",
      "    17 - l17",
      "    17 + SEVENTEEN",
      "    18   l18",
      "    19   l19",
      "    20   l20",
    ]);
  });
  test("a long change is capped with a count", () => {
    const rows = diffRows(
      { ...diff("", Array.from({ length: 30 }, (_, i) => `l${i}`).join("\n")), created: true },
      80,
      plain,
    );
    expect(rows[0]).toBe("     1 + l0");
    expect(rows.at(-1)).toContain("14 more lines (0 removed, 30 added in all)");
  });
});

describe("statusLine", () => {
  test("model, context, session, cwd; narrow terminals keep model and context", () => {
    const f = {
      model: "anthropic/claude-sonnet-5-5",
      contextPercent: 12,
      sessionId: "20260101-000000-abcdef",
      cwd: "/home/u/project",
    };
    expect(statusLine(f, 100, plain, "/home/u")).toBe(
      "anthropic/claude-sonnet-5-5 · 12% context · 20260101-000000-abcdef · ~/project",
    );
    expect(statusLine(f, 38, plain)).toBe("claude-sonnet-5-5 · 12% context");
  });
});

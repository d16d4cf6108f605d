// Status rows for sub-agents: what one row shows, how it is cut, and how the block is redrawn.
import { describe, expect, test } from "bun:test";
import { TaskRowsDisplay, TaskRowsLog, type TaskRow, fitRows, renderTaskRow } from "../../src/render/task-rows.ts";

const tag = {
  green: (s: string) => `<g>${s}</g>`,
  red: (s: string) => `<r>${s}</r>`,
  dim: (s: string) => `<d>${s}</d>`,
};
const plain = { green: (s: string) => s, red: (s: string) => s, dim: (s: string) => s };
const row = (over: Partial<TaskRow> = {}): TaskRow => ({
  id: "t1",
  kind: "task:explore",
  label: "find the parser",
  state: "running",
  toolCalls: 0,
  ...over,
});
const style = (over = {}) => ({ colors: plain, labelLimit: 80, columns: 100, frame: 0, ...over });

describe("renderTaskRow", () => {
  test.each([
    [row(), 0, "◐ task:explore find the parser"],
    [row(), 1, "◓ task:explore find the parser"],
    [row({ toolCalls: 3 }), 2, "◑ task:explore find the parser · 3 tool calls"],
    [
      row({ toolCalls: 2, tool: { name: "Read", input: { path: "src/x.ts" } } }),
      0,
      "◐ task:explore find the parser · Read(src/x.ts) · 2 tool calls",
    ],
    [
      row({ toolCalls: 1, tool: { name: "Bash", input: { command: "npm test" } } }),
      0,
      "◐ task:explore find the parser · Bash(npm test) · 1 tool call",
    ],
    // Only a running row names its current call; the finished row gives the count alone.
    [
      row({ state: "done", durationMs: 500, toolCalls: 1, tool: { name: "Bash", input: { command: "ls" } } }),
      0,
      "✓ task:explore find the parser · 0.5s · 1 tool call",
    ],
    [row({ state: "queued" }), 0, "○ task:explore find the parser (queued)"],
    [row({ state: "done", durationMs: 1234, toolCalls: 1 }), 0, "✓ task:explore find the parser · 1.2s · 1 tool call"],
    [
      row({ state: "failed", durationMs: 61_000, toolCalls: 0 }),
      0,
      "✗ task:explore find the parser · 61s · 0 tool calls",
    ],
  ] as const)("%j frame %d", (r, frame, expected) => {
    expect(renderTaskRow(r, style({ frame })).text).toBe(expected);
  });

  test("colours: green tick, red cross, dim details", () => {
    expect(renderTaskRow(row({ state: "done", durationMs: 500 }), style({ colors: tag })).text).toBe(
      "<g>✓</g> task:explore find the parser<d> · 0.5s · 0 tool calls</d>",
    );
    expect(renderTaskRow(row({ state: "failed", durationMs: 500 }), style({ colors: tag })).text).toStartWith(
      "<r>✗</r> ",
    );
  });

  test("the label is cut to TOOL_RESULT_SUMMARY_LIMIT and to the terminal width", () => {
    const long = row({ label: "x".repeat(200) });
    expect(renderTaskRow(long, style({ labelLimit: 20 })).text).toBe(`◐ task:explore ${"x".repeat(19)}…`);
    const narrow = renderTaskRow(long, style({ columns: 40 }));
    expect(narrow.width).toBe(39);
    expect([...narrow.text]).toHaveLength(39);
    // Even the fixed parts are cut on a very narrow terminal: a row never wraps.
    const tiny = renderTaskRow(row({ state: "done", durationMs: 5, toolCalls: 12 }), style({ columns: 20 }));
    expect([...tiny.text].length).toBeLessThanOrEqual(19);
  });

  test("model-controlled text is made inert and kept on one line; emoji are not split", () => {
    const r = renderTaskRow(row({ label: "evil\x1b]52;c;Zm9v\x07\nnext line" }), style()).text;
    expect(r).not.toContain("\x1b");
    expect(r).not.toContain("\n");
    expect(r).toContain("␛]52;c;Zm9v^G next line");
    const emoji = renderTaskRow(row({ label: "😀".repeat(30) }), style({ labelLimit: 10 })).text;
    expect(emoji.isWellFormed()).toBe(true);
    expect(emoji).toEndWith(`${"😀".repeat(9)}…`);
    // The current call's input is the sub-agent model's too: inert, one line, cut.
    const call = renderTaskRow(
      row({ tool: { name: "Bash", input: { command: `a\x1b[2J\nb${"z".repeat(100)}` } } }),
      style(),
    ).text;
    expect(call).not.toContain("\x1b");
    expect(call).toContain("Bash(a␛[2J ⏎ bzz");
    expect(call).toMatch(/z…\) · 0 tool calls$/);
  });
});

describe("TaskRowsLog (off a terminal)", () => {
  test("none while queued, one when it leaves the queue, none while running, one at the end", () => {
    const log = new TaskRowsLog(80);
    // Queued is not started (issue 17 item 9): a task waiting for a slot prints nothing yet.
    expect(log.line({ type: "task_start", id: "a", kind: "task:general", description: "fix it" })).toBeUndefined();
    expect(log.line({ type: "task_progress", id: "a", state: "running", tool_calls: 0 })).toBe(
      "task:general fix it: started",
    );
    expect(log.line({ type: "task_progress", id: "a", state: "running", tool_calls: 2 })).toBeUndefined();
    expect(
      log.line({ type: "task_end", id: "a", is_error: false, duration_ms: 2500, tool_calls: 2, summary: "" }),
    ).toBe("✓ task:general fix it (2.5s, 2 tool calls)");
  });

  test("a task that ends while still queued never says started", () => {
    const log = new TaskRowsLog(80);
    expect(log.line({ type: "task_start", id: "q", kind: "task:explore", description: "look" })).toBeUndefined();
    const end = log.line({
      type: "task_end",
      id: "q",
      is_error: true,
      duration_ms: 0,
      tool_calls: 0,
      summary: "interrupted",
    });
    expect(end).toBe("✗ task:explore look (ended while queued, never started)");
  });
});

describe("TaskRowsDisplay", () => {
  function display(columns = 80) {
    const writes: string[] = [];
    let cols = columns;
    const d = new TaskRowsDisplay(
      (s) => writes.push(s),
      () => cols,
      plain,
      80,
      60_000,
    );
    return { d, writes, resize: (n: number) => (cols = n) };
  }
  const start = (id: string, description = id) => ({
    type: "task_start" as const,
    id,
    kind: "task:explore",
    description,
  });
  const end = (id: string, is_error = false) => ({
    type: "task_end" as const,
    id,
    is_error,
    duration_ms: 1000,
    tool_calls: 1,
    summary: "",
  });

  test("redraws the block in place, never clearing from the top-left, and leaves the final rows on screen", () => {
    const { d, writes } = display();
    d.handle(start("a"));
    expect(writes.at(-1)).toBe("○ task:explore a (queued)\x1b[K\n\x1b[J");
    d.handle(start("b"));
    // Up over the one row drawn, then both rows written over it, each clearing its line's rest.
    expect(writes.at(-1)).toBe("\x1b[1A\r○ task:explore a (queued)\x1b[K\n○ task:explore b (queued)\x1b[K\n\x1b[J");
    d.handle({ type: "task_progress", id: "a", state: "running", tool_calls: 0 });
    d.handle(end("a"));
    expect(d.active).toBe(true);
    d.handle(end("b", true));
    expect(writes.at(-1)).toBe(
      "\x1b[2A\r✓ task:explore a · 1.0s · 1 tool call\x1b[K\n✗ task:explore b · 1.0s · 1 tool call\x1b[K\n\x1b[J",
    );
    expect(d.active).toBe(false);
    // Later output goes below the rows, untouched.
    d.above("after\n");
    expect(writes.at(-1)).toBe("after\n");
  });

  test("other output is written above the rows, which are drawn again below it", () => {
    const { d, writes } = display();
    d.handle(start("a"));
    d.above("warning: x\n");
    expect(writes.at(-1)).toBe("\x1b[1A\rwarning: x\x1b[K\n○ task:explore a (queued)\x1b[K\n\x1b[J");
  });

  test("after the terminal narrows, the erase covers the lines the old rows now take", () => {
    const { d, writes, resize } = display(80);
    d.handle(start("a", "y".repeat(60)));
    resize(30);
    d.above("z\n");
    // The 74-column row now takes three lines of 30.
    expect(writes.at(-1)).toStartWith("\x1b[3A\rz\x1b[K\n");
    expect(writes.at(-1)!.split("\n")[1]!.replace("\x1b[K", "").length).toBeLessThan(30);
    expect(writes.at(-1)).toEndWith("\x1b[J");
  });
});

describe("fitRows (a batch taller than the screen)", () => {
  const rows = (states: string) =>
    [...states].map(
      (c, i): TaskRow =>
        row({
          id: `t${i}`,
          label: `t${i}`,
          state: ({ r: "running", q: "queued", d: "done", f: "failed" } as const)[c as "r"],
        }),
    );

  test("all rows when they fit", () => {
    expect(fitRows(rows("rrqd"), new Map(), 4)).toEqual({ shown: rows("rrqd"), hidden: 0 });
  });

  test("running first, then queued, then the latest finished, in start order, and a count of the rest", () => {
    const all = rows("dfrrqqd");
    // t6 finished last, then t1, then t0.
    const fit = fitRows(
      all,
      new Map([
        ["t0", 1],
        ["t1", 2],
        ["t6", 3],
      ]),
      5,
    );
    expect(fit.shown.map((r) => r.id)).toEqual(["t2", "t3", "t4", "t5"]);
    expect(fit.summary).toBe("… 3 more tasks: 2 done, 1 failed");
    const wider = fitRows(
      all,
      new Map([
        ["t0", 1],
        ["t1", 2],
        ["t6", 3],
      ]),
      6,
    );
    expect(wider.shown.map((r) => r.id)).toEqual(["t2", "t3", "t4", "t5", "t6"]);
    expect(wider.summary).toBe("… 2 more tasks: 1 done, 1 failed");
  });
});

test("TaskRowsDisplay keeps a tall batch within the screen and prints every row once at the end", () => {
  const writes: string[] = [];
  const d = new TaskRowsDisplay(
    (s) => writes.push(s),
    () => 80,
    plain,
    80,
    60_000,
    () => 4,
  );
  for (let i = 0; i < 6; i++) d.handle({ type: "task_start", id: `t${i}`, kind: "task:explore", description: `t${i}` });
  const visible = (w: string) => w.split("\n").filter((l) => l.replace(/\x1b\[[0-9]*[A-Za-z]/g, "").trim()).length;
  // Three lines: the summary and two rows, so the block never scrolls and can be redrawn in place.
  expect(visible(writes.at(-1)!)).toBe(3);
  expect(writes.at(-1)).toContain("… 4 more tasks: 4 queued");
  for (let i = 0; i < 6; i++)
    d.handle({ type: "task_end", id: `t${i}`, is_error: false, duration_ms: 10, tool_calls: 0, summary: "" });
  const last = writes.at(-1)!;
  expect(visible(last)).toBe(6);
  for (let i = 0; i < 6; i++) expect(last.split(`✓ task:explore t${i} `)).toHaveLength(2);
  expect(last).not.toContain("more tasks");
});

// The status rows' cursor arithmetic across a resize: rows painted at one width, the terminal now
// another, and the frame that goes back over them.
import { describe, expect, test } from "bun:test";
import { blockFrame, wrappedLineCount } from "../../src/render/row-block.ts";
import { TaskRowsDisplay } from "../../src/render/task-rows.ts";

const plain = { green: (s: string) => s, red: (s: string) => s, dim: (s: string) => s };

describe("wrappedLineCount (lines drawn, as the terminal re-wraps them)", () => {
  test.each([
    // widths, terminal columns now, screen lines they take
    [[84, 84], 100, 2],
    [[84, 84], 60, 4],
    [[84, 84], 30, 6],
    [[59, 59], 100, 2],
    // Exactly the width is one line; one more is two.
    [[60], 60, 1],
    [[61], 60, 2],
    [[121], 60, 3],
    // An empty line still takes one.
    [[0, 0], 60, 2],
    // A width of nothing is taken as one column, never a division by zero.
    [[3], 0, 3],
  ])("%p at %p columns: %p lines", (widths, columns, lines) => {
    expect(wrappedLineCount(widths, columns)).toBe(lines);
  });
});

describe("blockFrame", () => {
  const rows = [
    { text: "a", width: 1 },
    { text: "b", width: 1 },
  ];

  test.each([
    // previous widths, columns now, the cursor movement that starts the frame
    [[], 100, ""],
    [[84, 84], 100, "\x1b[2A\r"],
    [[84, 84], 60, "\x1b[4A\r"],
    [[84, 84, 84], 30, "\x1b[9A\r"],
  ])("rows of %p, terminal now %p wide: starts with %p", (previous, columns, up) => {
    expect(blockFrame(previous, columns, rows)).toBe(`${up}a\x1b[K\nb\x1b[K\n\x1b[J`);
  });

  test("other output goes first, each of its lines clearing what the old rows left on it", () => {
    expect(blockFrame([5], 80, rows, "note\nmore\n")).toBe("\x1b[1A\rnote\x1b[K\nmore\x1b[K\na\x1b[K\nb\x1b[K\n\x1b[J");
  });
});

describe("TaskRowsDisplay: the terminal resized while a frame is being built", () => {
  /**
   * Two rows drawn at `from` columns; the next frame's first width read still sees `from`, every
   * later read `to` (the resize lands between reading the width and writing the frame).
   */
  function resizedMidFrame(from: number, to: number) {
    const writes: string[] = [];
    let reads = 0;
    let armed = false;
    const columns = () => (armed && reads++ >= 1 ? to : from);
    const d = new TaskRowsDisplay((s) => writes.push(s), columns, plain, 80, 60_000);
    for (const id of ["a", "b"])
      d.handle({ type: "task_start", id, kind: "task:explore", description: `${id} ${"y".repeat(58)}` });
    armed = true;
    d.handle({ type: "task_progress", id: "a", state: "running", tool_calls: 0 });
    return writes.at(-1)!;
  }

  test.each([
    // from, to, the lines the two rows take at `to` (each is 84 columns wide at 100, 59 at 60)
    [100, 100, 2],
    [100, 60, 4],
    [100, 30, 6],
    [60, 100, 2],
  ])("drawn at %p, written at %p: up %p lines, every row laid out for the new width", (from, to, up) => {
    const frame = resizedMidFrame(from, to);
    expect(frame).toStartWith(`\x1b[${up}A\r`);
    const drawn = frame
      .slice(frame.indexOf("\r") + 1)
      .split("\n")
      .slice(0, -1);
    expect(drawn).toHaveLength(2);
    for (const line of drawn) expect([...line.replace("\x1b[K", "")].length).toBeLessThan(to);
  });

  test("a terminal whose width changes at every read still gets one whole frame", () => {
    const writes: string[] = [];
    let n = 0;
    const d = new TaskRowsDisplay(
      (s) => writes.push(s),
      () => (n++ % 2 ? 40 : 90),
      plain,
      80,
      60_000,
    );
    d.handle({ type: "task_start", id: "a", kind: "task:explore", description: "x".repeat(70) });
    d.handle({ type: "task_start", id: "b", kind: "task:explore", description: "x".repeat(70) });
    expect(writes).toHaveLength(2);
    expect(writes.at(-1)).toMatch(/^\x1b\[\dA\r[^\x1b]*\x1b\[K\n[^\x1b]*\x1b\[K\n\x1b\[J$/);
  });
});

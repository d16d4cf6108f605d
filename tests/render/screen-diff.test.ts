// The differential renderer, checked by replaying its output on a tiny terminal emulator.

import { describe, expect, test } from "bun:test";
import { ScreenDiff } from "../../src/render/screen-diff.ts";
import { textWidth, wrapLine, fitWidth } from "../../src/render/text-width.ts";

/** Enough of a VT100 for what ScreenDiff writes: CR, LF (scrolling), CUU/CUD, CHA, EL 2, ED 0, SGR. */
class Emulator {
  lines: string[] = [""];
  row = 0;
  col = 0;
  scrolled: string[] = [];
  writes = 0;
  bytes = 0;
  /** width: past the last column a printed character wraps to the next row, as a terminal's autowrap. */
  constructor(
    readonly height: number,
    readonly width = Number.POSITIVE_INFINITY,
  ) {}
  write = (s: string) => {
    this.writes++;
    this.bytes += s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (c === "\x1b") {
        const m = /^\x1b\[([0-9;?]*)([A-Za-z])/.exec(s.slice(i));
        if (!m) throw new Error(`unknown escape at ${JSON.stringify(s.slice(i, i + 8))}`);
        const n = Number(m[1] || "1");
        if (m[2] === "A") this.row = Math.max(0, this.row - n);
        else if (m[2] === "B") {
          this.row = Math.min(this.height - 1, this.row + n);
          while (this.lines.length <= this.row) this.lines.push("");
        } else if (m[2] === "G") this.col = n - 1;
        else if (m[2] === "K") this.lines[this.row] = "";
        else if (m[2] === "H") {
          this.row = 0;
          this.col = 0;
        } else if (m[2] === "J" && m[1] === "3") {
          this.scrolled = [];
        } else if (m[2] === "J" && m[1] === "2") {
          this.lines = this.lines.map(() => "");
        } else if (m[2] === "J") {
          this.lines[this.row] = this.lines[this.row]!.slice(0, this.col);
          this.lines.length = this.row + 1;
        }
        i += m[0].length - 1;
      } else if (c === "\r") this.col = 0;
      else if (c === "\n") {
        this.row++;
        if (this.row >= this.lines.length) this.lines.push("");
        while (this.lines.length > this.height) {
          this.scrolled.push(this.lines.shift()!);
          this.row--;
        }
      } else {
        if (this.col >= this.width) {
          this.write("\r\n");
          this.col = 0;
        }
        const line = this.lines[this.row]!.padEnd(this.col, " ");
        this.lines[this.row] = line.slice(0, this.col) + c + line.slice(this.col + 1);
        this.col++;
      }
    }
  };
  /** The screen's lines, blank rows at the bottom left out (a cleared row is blank, not gone). */
  shown(): string[] {
    const l = [...this.lines];
    while (l.length && l[l.length - 1] === "") l.pop();
    return l;
  }
  all(): string[] {
    return [...this.scrolled, ...this.lines];
  }
}

describe("ScreenDiff", () => {
  test("renders, rewrites only what changed, and shrinks cleanly", () => {
    const term = new Emulator(20);
    const screen = new ScreenDiff(term.write, 40);
    screen.render({ rows: ["a", "b", "> x", "status"], cursor: { row: 2, col: 3 } });
    expect(term.shown()).toEqual(["a", "b", "> x", "status"]);
    expect([term.row, term.col]).toEqual([2, 3]);
    const before = term.bytes;
    screen.render({ rows: ["a", "b", "> xy", "status"], cursor: { row: 2, col: 4 } });
    expect(term.shown()).toEqual(["a", "b", "> xy", "status"]);
    // Only from the changed row down: far less than the whole frame again (28 bytes open and close the update).
    expect(term.bytes - before).toBeLessThan(30 + 28);
    screen.render({ rows: ["> ", "status"], cursor: { row: 0, col: 2 } });
    expect(term.shown()).toEqual(["> ", "status"]);
  });

  test("commits lines above the live region, which is redrawn under them", () => {
    const term = new Emulator(6);
    const screen = new ScreenDiff(term.write, 40);
    screen.render({ rows: ["spinner", "> ", "status"], cursor: { row: 1, col: 2 } });
    for (let i = 0; i < 10; i++)
      screen.commit([`line ${i}`], { rows: ["spinner", "> ", "status"], cursor: { row: 1, col: 2 } });
    const all = term.all();
    expect(all.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i}`));
    expect(all.slice(10)).toEqual(["spinner", "> ", "status"]);
    screen.commit(["done"], { rows: ["> ", "status"], cursor: { row: 0, col: 2 } });
    expect(term.all().slice(-3)).toEqual(["done", "> ", "status"]);
  });

  test("growing past the old region adds rows below without overwriting", () => {
    const term = new Emulator(10);
    const screen = new ScreenDiff(term.write, 40);
    screen.render({ rows: ["> a", "s"], cursor: { row: 0, col: 3 } });
    screen.render({ rows: ["> a", "s", "more", "and more"], cursor: { row: 3, col: 0 } });
    expect(term.shown()).toEqual(["> a", "s", "more", "and more"]);
  });
});

describe("ScreenDiff commit", () => {
  test("a commit that shrinks the live region leaves no old rows behind", () => {
    const term = new Emulator(20);
    const screen = new ScreenDiff(term.write, 40);
    screen.render({ rows: ["tool 1", "tail a", "tail b", "spinner", "> ", "status"], cursor: { row: 4, col: 2 } });
    screen.commit(["● tool 1", "  ⎿ done"], { rows: ["> ", "status"], cursor: { row: 0, col: 2 } });
    expect(term.shown()).toEqual(["● tool 1", "  ⎿ done", "> ", "status"]);
    expect([term.row, term.col]).toEqual([2, 2]);
  });

  test("the first commit at the top of the screen clears row by row, never the whole screen at once", () => {
    const writes: string[] = [];
    const term = new Emulator(10);
    const screen = new ScreenDiff((s) => {
      writes.push(s);
      term.write(s);
    }, 40);
    screen.render({ rows: ["─", "> x", "status"], cursor: { row: 1, col: 3 } });
    screen.commit(["› x", "answer"], { rows: ["─", "> ", "status"], cursor: { row: 1, col: 2 } });
    expect(term.shown()).toEqual(["› x", "answer", "─", "> ", "status"]);
    expect(writes.join("")).not.toMatch(/\x1b\[[02]?J/);
  });
});

describe("ScreenDiff long committed lines", () => {
  test("a committed line wider than the terminal leaves no part of the old live rows on its rows", () => {
    const term = new Emulator(8, 20);
    const screen = new ScreenDiff(term.write, 20);
    const live = { rows: ["─".repeat(19), "> draft here", "status line"], cursor: { row: 1, col: 12 } };
    screen.render(live);
    screen.commit(["retrying (attempt 1) bb"], live);
    screen.commit(["retrying (attempt 2) cc"], live);
    expect(
      term
        .all()
        .filter((l) => l !== "")
        .map((l) => l.trimEnd()),
    ).toEqual(["retrying (attempt", "1) bb", "retrying (attempt", "2) cc", ...live.rows]);
  });
});

describe("ScreenDiff tabs", () => {
  test("a tab in a committed line is drawn as spaces, so the line wraps where it is counted to", () => {
    const term = new Emulator(8, 20);
    const screen = new ScreenDiff(term.write, 20);
    const live = { rows: ["─".repeat(19), "> draft here", "status line"], cursor: { row: 1, col: 12 } };
    screen.render(live);
    screen.commit(["a\tb\tc\td\te f"], live);
    const all = term.all().filter((l) => l !== "");
    expect(all.join("")).not.toContain("\t");
    expect(all.slice(-3)).toEqual(live.rows);
    expect(all.slice(0, -3).map((l) => l.trimEnd())).toEqual(["a    b    c    d", "e f"]);
  });
});

describe("ScreenDiff resize", () => {
  const live = (w: number) => ({ rows: ["─".repeat(w - 1), "> draft", "status"], cursor: { row: 1, col: 7 } });
  /** A 20-column screen on a 6-row emulator, its writes kept. */
  const recorded = () => {
    const term = new Emulator(6);
    const writes: string[] = [];
    const screen = new ScreenDiff((s) => {
      writes.push(s);
      term.write(s);
    }, 20);
    return { term, writes, screen };
  };

  test("a new width clears screen and scrollback and writes the transcript again: every line once", () => {
    const term = new Emulator(6);
    const screen = new ScreenDiff(term.write, 20);
    for (let i = 0; i < 8; i++) screen.commit([`committed line ${i}`], live(20));
    screen.resize(10, 6, live(10));
    const words = Array.from({ length: 8 }, (_, i) => ["committed", `line ${i}`]).flat();
    expect(term.all().filter((l) => l !== "")).toEqual([...words, ...live(10).rows]);
    expect([term.row, term.col]).toEqual([4, 7]);
    // Twice more, as a burst of resize events does: still nothing doubled in the scrollback.
    screen.resize(14, 6, live(14));
    screen.resize(10, 6, live(10));
    expect(term.all().filter((l) => l !== "")).toEqual([...words, ...live(10).rows]);
  });

  test("lines finished with the resize join the transcript: one write, every line once", () => {
    for (const [to, wipes] of [
      [10, true],
      [20, false],
    ] as const) {
      const { term, writes, screen } = recorded();
      screen.commit(["one"], live(20));
      writes.length = 0;
      screen.resize(to, 6, live(to), ["two"]);
      expect(writes).toHaveLength(1);
      expect(writes[0]!.includes("\x1b[3J")).toBe(wipes);
      expect(term.all().filter((l) => l !== "")).toEqual(["one", "two", ...live(to).rows]);
    }
  });

  test("a new height alone redraws the live region in place, the scrollback untouched", () => {
    const { term, writes, screen } = recorded();
    for (let i = 0; i < 8; i++) screen.commit([`line ${i}`], live(20));
    screen.resize(20, 6, { ...live(20), rows: ["─".repeat(19), "> draft", "status 2"] });
    expect(term.all().filter((l) => l !== "")).toEqual([
      ...Array.from({ length: 8 }, (_, i) => `line ${i}`),
      "─".repeat(19),
      "> draft",
      "status 2",
    ]);
    expect(writes.join("")).not.toContain("\x1b[3J");
  });
});

describe("ScreenDiff clearScreen (Ctrl-L, /clear)", () => {
  test("scrolls what is above the live region into the scrollback once; the old live rows are not copied", () => {
    const term = new Emulator(8);
    const screen = new ScreenDiff(term.write, 20);
    const frame = { rows: ["─".repeat(19), "> x", "status"], cursor: { row: 1, col: 3 } };
    screen.commit(["one", "two"], frame);
    screen.clearScreen(8, frame);
    expect(term.scrolled).toEqual(["one", "two"]);
    expect(term.shown()).toEqual(frame.rows);
    expect([term.row, term.col]).toEqual([1, 3]);
    screen.commit(["three"], frame);
    expect(term.all().filter((l) => l !== "")).toEqual(["one", "two", "three", ...frame.rows]);
  });
});

describe("ScreenDiff updates", () => {
  test("every write is one synchronized update with the cursor hidden while it moves", () => {
    const writes: string[] = [];
    const screen = new ScreenDiff((s) => writes.push(s), 20);
    const frame = { rows: ["> x", "status"], cursor: { row: 0, col: 3 } };
    screen.render(frame);
    screen.commit(["line"], frame);
    screen.render({ ...frame, cursor: { row: 0, col: 2 } });
    screen.resize(12, 6, frame);
    screen.clearScreen(6, frame);
    expect(writes.length).toBe(5);
    for (const w of writes) {
      expect(w.startsWith("\x1b[?2026h\x1b[?25l")).toBe(true);
      expect(w.endsWith("\x1b[?25h\x1b[?2026l")).toBe(true);
    }
  });
});

describe("text width and wrapping", () => {
  test("wide characters count two columns, escapes none", () => {
    expect(textWidth("\x1b[31mab\x1b[39m")).toBe(2);
    expect(textWidth("日本")).toBe(4);
  });
  test("wraps at spaces, carries colour across the break", () => {
    expect(wrapLine("the quick brown fox", 10)).toEqual(["the quick ", "brown fox"]);
    const rows = wrapLine("\x1b[32maaaa bbbb cccc\x1b[39m", 5);
    expect(rows.map((r) => textWidth(r))).toEqual([5, 5, 4]);
    expect(rows[1]!.startsWith("\x1b[32m")).toBe(true);
    expect(wrapLine("x".repeat(12), 5)).toEqual(["xxxxx", "xxxxx", "xx"]);
  });
  test("fitWidth cuts with an ellipsis", () => {
    expect(fitWidth("abcdefgh", 5)).toBe("abcd…");
    expect(fitWidth("abc", 5)).toBe("abc");
  });
});

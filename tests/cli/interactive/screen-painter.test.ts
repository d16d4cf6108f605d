// The painter's side of a resize: what the view finished since the last paint is not painted at
// the old width first (the tmux resize test caught that frame between two writes).

import { expect, test } from "bun:test";
import { ScreenPainter } from "../../../src/cli/interactive/screen-painter.ts";
import type { SessionView } from "../../../src/cli/interactive/session-view.ts";

test("a resize is one write that starts by wiping the screen, with the pending lines in its transcript", () => {
  const writes: string[] = [];
  let columns = 40;
  let pending = ["a finished line"];
  const view = {
    takeCommitted: () => {
      const lines = pending;
      pending = [];
      return lines;
    },
  } as unknown as SessionView;
  const painter = new ScreenPainter({
    out: (s) => writes.push(s),
    columns: () => columns,
    rows: () => 10,
    view,
    draws: () => true,
    frame: () => ({ rows: ["─".repeat(columns - 1), "› draft"], cursor: { row: 1, col: 7 } }),
    paused: () => false,
  });
  painter.paint();
  pending = ["finished while the window was dragged"];
  writes.length = 0;
  columns = 25;
  painter.resized();
  expect(writes).toHaveLength(1);
  const [write] = writes;
  expect(write!.indexOf("\x1b[3J")).toBeLessThan(write!.indexOf("a finished line"));
  expect(write!.indexOf("a finished line")).toBeLessThan(write!.indexOf("finished while"));
  expect(write!.indexOf("finished while")).toBeLessThan(write!.indexOf("─".repeat(24)));
  painter.finish();
});

// A key or a spinner step can be painted after the terminal narrowed but before the settled resize
// (SIGWINCH waits RESIZE_SETTLE_MS): a diff laid out for the old width over rows the terminal has
// rewrapped left a ghost separator on screen (tmux caught it under load).
test("a paint after the width changed, before the resize is heard, is the resize's one write", () => {
  const writes: string[] = [];
  let columns = 40;
  let draft = "› d";
  const view = { takeCommitted: () => [] } as unknown as SessionView;
  const painter = new ScreenPainter({
    out: (s) => writes.push(s),
    columns: () => columns,
    rows: () => 10,
    view,
    draws: () => true,
    frame: () => ({ rows: ["─".repeat(columns - 1), draft], cursor: { row: 1, col: draft.length } }),
    paused: () => false,
  });
  painter.paint();
  writes.length = 0;
  columns = 25;
  draft = "› dd";
  painter.paint();
  expect(writes).toHaveLength(1);
  expect(writes[0]).toContain("\x1b[3J");
  expect(writes[0]!.indexOf("\x1b[3J")).toBeLessThan(writes[0]!.indexOf("─".repeat(24)));
  // The settled resize that follows finds nothing left to redraw: no second frame.
  writes.length = 0;
  painter.resized();
  expect(writes.join("")).not.toContain("─");
  painter.finish();
});

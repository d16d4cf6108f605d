// The painter's side of a resize: what the view finished since the last paint is not painted at
// the old width first (the tmux resize test caught that frame between two writes).

import { expect, test } from "bun:test";
import { ScreenPainter } from "../../../src/cli/interactive/screen-painter.ts";
import type { SessionView } from "../../../src/cli/interactive/session-view.ts";

/** A painter whose terminal is `size.columns` wide and whose live region is a separator and `size.draft`. */
function painterOn(size: { columns: number; draft: string }, view: SessionView, writes: string[]) {
  return new ScreenPainter({
    out: (s) => writes.push(s),
    columns: () => size.columns,
    rows: () => 10,
    view,
    draws: () => true,
    frame: () => ({ rows: ["─".repeat(size.columns - 1), size.draft], cursor: { row: 1, col: size.draft.length } }),
    paused: () => false,
  });
}

test("a resize is one write that starts by wiping the screen, with the pending lines in its transcript", () => {
  const writes: string[] = [];
  const size = { columns: 40, draft: "› draft" };
  let pending = ["a finished line"];
  const view = {
    takeCommitted: () => {
      const lines = pending;
      pending = [];
      return lines;
    },
  } as unknown as SessionView;
  const painter = painterOn(size, view, writes);
  painter.paint();
  pending = ["finished while the window was dragged"];
  writes.length = 0;
  size.columns = 25;
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
  const size = { columns: 40, draft: "› d" };
  const painter = painterOn(size, { takeCommitted: () => [] } as unknown as SessionView, writes);
  painter.paint();
  writes.length = 0;
  size.columns = 25;
  size.draft = "› dd";
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

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

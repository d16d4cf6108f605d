// A key that acts on its second press inside a window (double-press.ts), on a clock the test moves.

import { expect, test } from "bun:test";
import { DoublePress, isSecondPress } from "../../../src/cli/interactive/double-press.ts";

test.each([
  [undefined, "c", 100, false],
  [{ key: "c", at: 0 }, "c", 1999, true],
  [{ key: "c", at: 0 }, "c", 2000, false], // the window has closed
  [{ key: "c", at: 0 }, "d", 10, false], // another key is a first press
  [{ key: "d", at: 500 }, "d", 600, true],
] as const)("armed %j, %s at %d → second press %p", (armed, key, now, want) => {
  expect(isSecondPress(armed, key, now, 2000)).toBe(want);
});

test("arm shows the hint, the window closing takes it away and calls back; disarm ends it at once", async () => {
  let now = 1000;
  let expired = 0;
  const p = new DoublePress(
    () => expired++,
    30,
    () => now,
  );
  expect([p.armedKey(), p.hint()]).toEqual([undefined, undefined]);
  p.arm("d");
  expect([p.armedKey(), p.hint()]).toEqual(["d", "press Ctrl-D again to exit"]);
  now += 10;
  p.arm("c"); // arming another key replaces the first
  expect(p.armedKey()).toBe("c");
  now += 31;
  expect(p.armedKey()).toBeUndefined(); // past the window, even before its timer ran
  await Bun.sleep(60);
  expect([p.hint(), expired]).toEqual([undefined, 1]);
  p.arm("c");
  p.disarm();
  await Bun.sleep(60);
  expect([p.hint(), expired]).toEqual([undefined, 1]); // a disarmed window calls nobody back
});

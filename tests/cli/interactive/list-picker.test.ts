// The picker /model and /resume open: filtering, moving, choosing, cancelling, and its rows.
import { describe, expect, test } from "bun:test";
import type { Choices } from "../../../src/executor/slash-command.ts";
import {
  PICKER_ROWS,
  type PickerState,
  openPicker,
  pickerKey,
  pickerRows,
  visibleItems,
} from "../../../src/cli/interactive/list-picker.ts";
import type { Key } from "../../../src/cli/interactive/key-decoder.ts";

const choices = (n = 3, current = 1): Choices => ({
  command: "model",
  title: "Models (anthropic)",
  items: Array.from({ length: n }, (_, i) => ({
    value: `anthropic/m${i}`,
    label: `m${i}${i === 2 ? " sonnet" : ""}`,
    current: i === current,
  })),
});

/** Runs keys; the state while open, else the outcome. */
function press(state: PickerState, ...keys: Key[]) {
  let s = state;
  for (const key of keys) {
    const out = pickerKey(s, key);
    if (out.kind !== "open") return out;
    s = out.state;
  }
  return { kind: "open" as const, state: s };
}
const down: Key = { kind: "move", to: "down" };
const up: Key = { kind: "move", to: "up" };

describe("pickerKey", () => {
  test("opens on the current item, else on the list's start (/rewind: the newest), else the first", () => {
    const table: Array<[number, string | undefined, number]> = [
      [1, undefined, 1],
      [1, "anthropic/m2", 1],
      [-1, "anthropic/m2", 2],
      [-1, "anthropic/gone", 0],
      [-1, undefined, 0],
    ];
    for (const [current, start, pick] of table)
      expect([current, start, openPicker({ ...choices(3, current), start }).pick]).toEqual([current, start, pick]);
  });

  test("opens on the current item; ↓ and ↑ move and wrap; Enter chooses", () => {
    const s = openPicker(choices());
    expect(s.pick).toBe(1);
    expect(press(s, { kind: "enter" })).toEqual({ kind: "chosen", value: "anthropic/m1" });
    expect(press(s, down, { kind: "enter" })).toEqual({ kind: "chosen", value: "anthropic/m2" });
    expect(press(s, down, down, { kind: "enter" })).toEqual({ kind: "chosen", value: "anthropic/m0" });
    expect(press(s, up, up, { kind: "enter" })).toEqual({ kind: "chosen", value: "anthropic/m2" });
  });

  test.each([[{ kind: "esc" }], [{ kind: "ctrl", name: "c" }], [{ kind: "ctrl", name: "g" }]] as [Key][])(
    "%j cancels",
    (key) => {
      expect(press(openPicker(choices()), key)).toEqual({ kind: "cancelled" });
    },
  );

  test("typing filters by every word in any case, and picks the first match; Backspace widens again", () => {
    const s = openPicker(choices());
    const typed = press(s, { kind: "text", text: "SON" });
    expect(typed.kind === "open" && visibleItems(typed.state).map((i) => i.value)).toEqual(["anthropic/m2"]);
    expect(press(s, { kind: "text", text: "SON" }, { kind: "enter" })).toEqual({
      kind: "chosen",
      value: "anthropic/m2",
    });
    const back = press(s, { kind: "text", text: "so" }, { kind: "backspace" }, { kind: "backspace" });
    expect(back.kind === "open" && visibleItems(back.state)).toHaveLength(3);
  });

  test("Enter with nothing matching chooses nothing and keeps the picker open", () => {
    const out = press(openPicker(choices()), { kind: "text", text: "zzz" }, { kind: "enter" });
    expect(out.kind).toBe("open");
  });
});

describe("pickerRows", () => {
  test("a title with the filter, the pick marked ❯ and the current item *", () => {
    expect(pickerRows(openPicker(choices()))).toEqual([
      "Models (anthropic) · type to filter · ↑/↓ Enter · Esc cancels",
      "    m0",
      "❯ * m1",
      "    m2 sonnet",
    ]);
    const s = press(openPicker(choices()), { kind: "text", text: "zz" });
    expect(s.kind === "open" && pickerRows(s.state)).toEqual([
      "Models (anthropic) · type to filter: zz · ↑/↓ Enter · Esc cancels",
      "  (nothing matches)",
    ]);
  });

  test("a long list shows a window that keeps the pick in view, and counts the rest", () => {
    const s = openPicker(choices(20, 15));
    const rows = pickerRows(s);
    expect(rows).toHaveLength(1 + PICKER_ROWS + 1);
    expect(rows.filter((r) => r.startsWith("❯"))).toEqual(["❯ * m15"]);
    expect(rows.at(-1)).toBe(`  … ${20 - PICKER_ROWS} more`);
  });

  test("labels (model names, session titles) are made inert", () => {
    const c = choices(1, 0);
    c.items[0]!.label = "evil\x1b[2Jtitle";
    expect(pickerRows(openPicker(c)).join("\n")).not.toContain("\x1b");
  });
});

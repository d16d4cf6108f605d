// The picker `/model` and `/resume` open with no argument: the choices filtered by what is typed
// (every word must appear, in any case), ↑/↓ move the pick, Enter takes it, Esc cancels. Pure
// state and rows: the session routes keys here while it is open and draws the rows.

import type { Choices } from "../../executor/slash-command.ts";
import { inertLine } from "../../render/inert.ts";
import type { Key } from "./key-decoder.ts";

export const PICKER_ROWS = 8;

export interface PickerState {
  choices: Choices;
  filter: string;
  /** Index into the filtered items. */
  pick: number;
}

/** Opens on the current item, if the list marks one, else on the list's start, else the first. */
export function openPicker(choices: Choices): PickerState {
  const current = choices.items.findIndex((i) => i.current);
  const start = choices.items.findIndex((i) => i.value === choices.start);
  return { choices, filter: "", pick: Math.max(0, current >= 0 ? current : start) };
}

export function visibleItems(state: PickerState): Choices["items"] {
  const words = state.filter.toLowerCase().split(/\s+/).filter(Boolean);
  return state.choices.items.filter((i) => words.every((w) => `${i.value} ${i.label}`.toLowerCase().includes(w)));
}

export type PickerOutcome =
  | { kind: "open"; state: PickerState }
  | { kind: "chosen"; value: string }
  | { kind: "cancelled" };

/** One key: the next state, the value chosen, or cancelled. Keys the picker does not use change nothing. */
export function pickerKey(state: PickerState, key: Key): PickerOutcome {
  const items = visibleItems(state);
  const open = (next: Partial<PickerState>): PickerOutcome => ({ kind: "open", state: { ...state, ...next } });
  const cancel = key.kind === "esc" || (key.kind === "ctrl" && (key.name === "c" || key.name === "g"));
  if (cancel) return { kind: "cancelled" };
  if (key.kind === "enter") {
    const item = items[Math.min(state.pick, items.length - 1)];
    // Enter on an empty filtered list chooses nothing; the picker stays for another filter.
    return item ? { kind: "chosen", value: item.value } : open({});
  }
  if (key.kind === "move" && (key.to === "up" || key.to === "down") && items.length) {
    const at = Math.min(state.pick, items.length - 1);
    return open({ pick: (at + (key.to === "up" ? items.length - 1 : 1)) % items.length });
  }
  if (key.kind === "text" || key.kind === "paste") {
    return open({ filter: state.filter + key.text.replace(/\s+/g, " "), pick: 0 });
  }
  if (key.kind === "backspace") return open({ filter: Array.from(state.filter).slice(0, -1).join(""), pick: 0 });
  return open({});
}

/**
 * The rows to draw: a title with the filter, then a window of at most PICKER_ROWS items that keeps
 * the pick in view (`❯` marks it, `*` the current one), then a count of the items out of view.
 */
export function pickerRows(state: PickerState): string[] {
  const items = visibleItems(state);
  const filter = state.filter ? `: ${inertLine(state.filter)}` : "";
  const title = `${state.choices.title} · type to filter${filter} · ↑/↓ Enter · Esc cancels`;
  if (!items.length) return [title, "  (nothing matches)"];
  const pick = Math.min(state.pick, items.length - 1);
  const start = Math.min(Math.max(0, pick - PICKER_ROWS + 1), Math.max(0, items.length - PICKER_ROWS));
  const shown = items.slice(start, start + PICKER_ROWS).map((item, i) => {
    const mark = start + i === pick ? "❯" : " ";
    // Model names and session titles are others' text: inert, so they cannot move the cursor.
    return `${mark} ${item.current ? "* " : "  "}${inertLine(item.label)}`;
  });
  const rest = items.length - shown.length;
  return [title, ...shown, ...(rest ? [`  … ${rest} more`] : [])];
}

// What sits in the prompt's place besides the draft: a picker or Ctrl-R's search while open, the
// command list under a `/name` being typed (and its picked row), and Tab's completion candidates.

import type { HistorySearch } from "./history-search.ts";
import { INTERACTIVE_COMMANDS } from "./interactive-commands.ts";
import { type PickerState, pickerRows } from "./list-picker.ts";
import type { PromptEditor } from "./prompt-editor.ts";
import { type MenuCommand, menuRows, slashMenu } from "./slash-menu.ts";

export class PromptArea {
  /** `/model` or `/resume` with no argument: the list to choose from, while it is open. */
  picker: PickerState | undefined;
  /** The echo of the `/name` that opened the picker: the transcript gets it only if a choice is made. */
  pickerEcho: string[] = [];
  search: HistorySearch | undefined;
  candidates: string[] = [];
  /** The command list's picked row. */
  menuPick = 0;

  constructor(readonly editor: PromptEditor) {}

  /** The command list while a `/name` is typed and nothing else holds the prompt's place. */
  menu(questionOpen: boolean): MenuCommand[] {
    return questionOpen || this.search || this.picker ? [] : slashMenu(this.editor.text, INTERACTIVE_COMMANDS);
  }

  /** The picked command, its row kept inside the list. */
  picked(items: readonly MenuCommand[]): MenuCommand | undefined {
    return items[Math.min(this.menuPick, items.length - 1)];
  }

  /** ↑/↓ on the command list, round at either end. */
  movePick(items: readonly MenuCommand[], by: -1 | 1): void {
    const at = Math.min(this.menuPick, items.length - 1);
    this.menuPick = (at + (by < 0 ? items.length - 1 : 1)) % items.length;
  }

  /** The rows under the prompt: the picker's, or the command list's, or none. */
  rows(questionOpen: boolean): string[] | undefined {
    if (this.picker) return pickerRows(this.picker);
    const items = this.menu(questionOpen);
    return items.length ? menuRows(items, Math.min(this.menuPick, items.length - 1)) : undefined;
  }

  /** The text of the prompt becomes `text`, the caret at its end. */
  setDraft(text: string): void {
    this.editor.text = text;
    this.editor.cursor = text.length;
  }
}

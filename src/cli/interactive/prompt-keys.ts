// The keys that only edit the prompt's draft (typing, deleting, moving, the Emacs-style controls),
// apart from the keys that act on the session (Enter, Esc, Tab, Ctrl-C/D/L/Z).

import { assertNever } from "../../protocol/assert-never.ts";
import type { Key } from "./key-decoder.ts";
import type { PromptEditor } from "./prompt-editor.ts";

type Edit = (editor: PromptEditor) => void;
type MoveTo = Extract<Key, { kind: "move" }>["to"];

const MOVES: Record<MoveTo, Edit> = {
  up: (e) => e.up(),
  down: (e) => e.down(),
  left: (e) => e.left(),
  right: (e) => e.right(),
  home: (e) => e.lineStart(),
  end: (e) => e.lineEnd(),
  "word-left": (e) => e.wordLeft(),
  "word-right": (e) => e.wordRight(),
};

const CONTROLS: Record<string, Edit | undefined> = {
  a: (e) => e.lineStart(),
  e: (e) => e.lineEnd(),
  b: (e) => e.left(),
  f: (e) => e.right(),
  k: (e) => e.killToEnd(),
  u: (e) => e.killToStart(),
  w: (e) => e.deleteWordBack(),
  y: (e) => e.yank(),
  p: (e) => e.up(),
  n: (e) => e.down(),
};

/** The edit an editing key makes to the draft; undefined for a key that is not one, left to the session. */
export function promptEdit(key: Key): Edit | undefined {
  switch (key.kind) {
    case "text":
      return (e) => e.insert(key.text);
    case "paste":
      return (e) => e.paste(key.text, key.continues);
    case "newline":
      return (e) => e.insert("\n");
    case "backspace":
      return (e) => e.backspace();
    case "delete":
      return (e) => e.deleteForward();
    case "delete-word-back":
      return (e) => e.deleteWordBack();
    case "delete-word-forward":
      return (e) => e.deleteWordForward();
    case "move":
      return MOVES[key.to];
    case "ctrl":
      return Object.hasOwn(CONTROLS, key.name) ? CONTROLS[key.name] : undefined;
    case "enter":
    case "esc":
    case "tab":
    case "back-tab":
    case "page":
      return undefined;
    default:
      return assertNever(key, "key");
  }
}

/** Applies an editing key to the draft; false for a key that is not one, left to the session. */
export function editPrompt(editor: PromptEditor, key: Key): boolean {
  const edit = promptEdit(key);
  edit?.(editor);
  return edit !== undefined;
}

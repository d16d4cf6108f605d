// The keys that only edit the prompt's draft (typing, deleting, moving, the Emacs-style controls),
// apart from the keys that act on the session (Enter, Esc, Tab, Ctrl-C/D/L/Z).

import type { Key } from "./key-decoder.ts";
import type { PromptEditor } from "./prompt-editor.ts";

/** Applies an editing key to the draft; false for a key that is not one, left to the session. */
export function editPrompt(editor: PromptEditor, key: Key): boolean {
  switch (key.kind) {
    case "text":
      editor.insert(key.text);
      return true;
    case "paste":
      editor.paste(key.text, key.continues);
      return true;
    case "newline":
      editor.insert("\n");
      return true;
    case "backspace":
      editor.backspace();
      return true;
    case "delete":
      editor.deleteForward();
      return true;
    case "delete-word-back":
      editor.deleteWordBack();
      return true;
    case "delete-word-forward":
      editor.deleteWordForward();
      return true;
    case "move":
      ({
        up: () => editor.up(),
        down: () => editor.down(),
        left: () => editor.left(),
        right: () => editor.right(),
        home: () => editor.lineStart(),
        end: () => editor.lineEnd(),
        "word-left": () => editor.wordLeft(),
        "word-right": () => editor.wordRight(),
      })[key.to]();
      return true;
    case "ctrl":
      switch (key.name) {
        case "a":
          editor.lineStart();
          return true;
        case "e":
          editor.lineEnd();
          return true;
        case "b":
          editor.left();
          return true;
        case "f":
          editor.right();
          return true;
        case "k":
          editor.killToEnd();
          return true;
        case "u":
          editor.killToStart();
          return true;
        case "w":
          editor.deleteWordBack();
          return true;
        case "y":
          editor.yank();
          return true;
        case "p":
          editor.up();
          return true;
        case "n":
          editor.down();
          return true;
      }
      return false;
  }
  return false;
}

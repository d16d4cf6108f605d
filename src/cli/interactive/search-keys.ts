// Ctrl-R's search takes the keys that shape it (typing, Backspace, Ctrl-R for an older match);
// Enter, Esc, Ctrl-G and Ctrl-C end it, and any other key takes the match into the prompt and then
// acts as usual.

import type { HistorySearch } from "./history-search.ts";
import type { Key } from "./key-decoder.ts";
import type { PromptEditor } from "./prompt-editor.ts";

/** searching: still open; ended: the key was the search's; passed: ended, the key goes on to the session. */
export type SearchOutcome = "searching" | "ended" | "passed";

export function searchKey(s: HistorySearch, key: Key, editor: PromptEditor): SearchOutcome {
  const end = (text: string, outcome: SearchOutcome): SearchOutcome => {
    editor.text = text;
    editor.cursor = text.length;
    return outcome;
  };
  if (key.kind === "text" || key.kind === "paste") s.type(key.text.replace(/\n/g, " "));
  else if (key.kind === "backspace") s.backspace();
  else if (key.kind === "ctrl" && key.name === "r") s.older();
  else if (key.kind === "esc" || (key.kind === "ctrl" && (key.name === "g" || key.name === "c")))
    return end(s.draft, "ended");
  else if (key.kind === "enter") return end(s.match() ?? s.draft, "ended");
  else return end(s.match() ?? s.draft, "passed");
  // The prompt shows the match as it stands (the draft when nothing matches).
  const match = s.match();
  editor.text = match ?? s.draft;
  editor.cursor = match === undefined ? editor.text.length : s.matchIndex();
  return "searching";
}

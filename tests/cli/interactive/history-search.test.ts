// Ctrl-R reverse search, the kill ring (Ctrl-K/U/W, Alt-D, Ctrl-Y), and history per project.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HistoryFile } from "../../../src/cli/interactive/history-file.ts";
import { HistorySearch } from "../../../src/cli/interactive/history-search.ts";
import { KeyDecoder } from "../../../src/cli/interactive/key-decoder.ts";
import { PromptEditor } from "../../../src/cli/interactive/prompt-editor.ts";
import { editPrompt } from "../../../src/cli/interactive/prompt-keys.ts";

describe("HistorySearch", () => {
  const entries = ["git status", "make test", "git push origin", "ls"];
  test("each key narrows to the newest match; Ctrl-R goes older; a miss says so and keeps the match", () => {
    const s = new HistorySearch(entries, "draft");
    expect(s.match()).toBeUndefined();
    s.type("g");
    expect(s.match()).toBe("git push origin");
    s.type("it");
    expect(s.match()).toBe("git push origin");
    s.older();
    expect(s.match()).toBe("git status");
    s.older(); // nothing older: stays, marked
    expect(s.match()).toBe("git status");
    expect(s.failed).toBe(true);
    s.type("zz");
    expect(s.failed).toBe(true);
    expect(s.label()).toContain("(no match)");
    s.backspace();
    s.backspace();
    expect(s.failed).toBe(false);
    expect(s.match()).toBe("git push origin");
    expect(s.matchIndex()).toBe(0);
    expect(s.draft).toBe("draft");
  });
});

describe("kill ring", () => {
  const run = (text: string, cursor: number, input: string) => {
    const e = new PromptEditor();
    e.text = text;
    e.cursor = cursor;
    for (const key of new KeyDecoder().feed(input)) editPrompt(e, key);
    return [e.text, e.cursor];
  };
  test("Alt-D deletes the next word; Ctrl-Y puts back what Ctrl-K, Ctrl-U, Ctrl-W or Alt-D cut", () => {
    expect(run("one two three", 4, "\x1bd")).toEqual(["one  three", 4]);
    expect(run("one two three", 4, "\x1bd\x05\x19")).toEqual(["one  threetwo", 13]);
    expect(run("one two", 3, "\x0b\x01\x19")).toEqual([" twoone", 4]);
    expect(run("one two", 7, "\x17\x01\x19")).toEqual(["twoone ", 3]);
    expect(run("one two", 7, "\x15\x19\x19")).toEqual(["one twoone two", 14]);
    expect(run("abc", 1, "\x19")).toEqual(["abc", 1]); // nothing cut yet: nothing put back
  });
});

describe("history per project", () => {
  test("↑ gets this directory's prompts, Ctrl-R every directory's; older bare-string files still load", () => {
    const home = mkdtempSync(join(tmpdir(), "synapse-history-"));
    writeFileSync(join(home, "history"), `${JSON.stringify("from an old file")}\n`);
    const h = new HistoryFile(home);
    h.append("in a", "/p/a");
    h.append("in b", "/p/b");
    h.append("again in a", "/p/a");
    expect(h.load("/p/a")).toEqual(["in a", "again in a"]);
    expect(h.load("/p/b")).toEqual(["in b"]);
    expect(h.load()).toEqual(["from an old file", "in a", "in b", "again in a"]);
    expect(readFileSync(join(home, "history"), "utf8").split("\n")[1]).toBe(
      JSON.stringify({ text: "in a", cwd: "/p/a" }),
    );
  });
});

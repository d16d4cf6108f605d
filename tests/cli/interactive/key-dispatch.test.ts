// Which key does what in which state (key-dispatch.ts): who gets a key, and what a session key
// does given the command list, the draft, a running turn and an armed double press. Table-driven.

import { describe, expect, test } from "bun:test";
import {
  type SessionAction,
  type SessionKeyContext,
  keyTarget,
  sessionKey,
} from "../../../src/cli/interactive/key-dispatch.ts";
import type { Key } from "../../../src/cli/interactive/key-decoder.ts";

describe("keyTarget", () => {
  const none = { question: undefined, picker: false, search: false };
  test.each([
    [{}, "session"],
    [{ question: "question" }, "question"],
    [{ question: "draft" }, "draft"],
    // A typing burst goes on as if the question were not there: to the picker, the search or the session.
    [{ question: "session" }, "session"],
    [{ question: "session", picker: true }, "picker"],
    [{ question: "question", picker: true }, "question"],
    [{ picker: true, search: true }, "picker"],
    [{ search: true }, "search"],
  ] as const)("%j → %s", (change, want) => {
    expect(keyTarget({ ...none, ...change })).toBe(want);
  });
});

describe("sessionKey", () => {
  const idle: SessionKeyContext = {
    menuOpen: false,
    editorEmpty: true,
    running: false,
    armed: undefined,
    lineContinues: false,
  };
  const ctrl = (name: string): Key => ({ kind: "ctrl", name });
  const k = (kind: string): Key => ({ kind }) as Key;
  const TABLE: [string, Key, Partial<SessionKeyContext>, SessionAction][] = [
    // Ctrl-C: a draft is cleared, else a running turn stops, else the first press arms, the second exits.
    ["Ctrl-C with a draft", ctrl("c"), { editorEmpty: false, running: true }, { kind: "clear-draft" }],
    ["Ctrl-C while a turn runs", ctrl("c"), { running: true }, { kind: "interrupt" }],
    ["Ctrl-C idle", ctrl("c"), {}, { kind: "arm", key: "c" }],
    ["Ctrl-C armed", ctrl("c"), { armed: "c" }, { kind: "exit" }],
    ["Ctrl-C with Ctrl-D armed", ctrl("c"), { armed: "d" }, { kind: "arm", key: "c" }],
    // Ctrl-D: deletes in a draft, leaves an idle session at once, asks twice while a turn runs.
    ["Ctrl-D with a draft", ctrl("d"), { editorEmpty: false }, { kind: "delete-forward" }],
    ["Ctrl-D idle", ctrl("d"), {}, { kind: "exit" }],
    ["Ctrl-D while a turn runs", ctrl("d"), { running: true }, { kind: "arm", key: "d" }],
    ["Ctrl-D armed while a turn runs", ctrl("d"), { running: true, armed: "d" }, { kind: "exit" }],
    ["Ctrl-D with Ctrl-C armed", ctrl("d"), { running: true, armed: "c" }, { kind: "arm", key: "d" }],
    ["Esc while a turn runs", k("esc"), { running: true }, { kind: "interrupt" }],
    // Esc on an empty idle prompt: the first press arms, the second opens /rewind.
    ["Esc idle", k("esc"), {}, { kind: "arm", key: "esc" }],
    ["Esc idle, armed", k("esc"), { armed: "esc" }, { kind: "rewind" }],
    // Esc on a draft, idle: the first press arms, the second clears the draft (Claude Code's Esc Esc).
    ["Esc idle with a draft", k("esc"), { editorEmpty: false }, { kind: "arm", key: "esc-draft" }],
    ["Esc with a draft, armed", k("esc"), { editorEmpty: false, armed: "esc-draft" }, { kind: "clear-draft" }],
    ["Esc with a draft while a turn runs", k("esc"), { editorEmpty: false, running: true }, { kind: "interrupt" }],
    ["Enter", k("enter"), { editorEmpty: false }, { kind: "send" }],
    ["Enter after a backslash", k("enter"), { editorEmpty: false, lineContinues: true }, { kind: "new-line" }],
    ["Tab", k("tab"), {}, { kind: "complete" }],
    ["Shift+Tab", k("back-tab"), {}, { kind: "cycle-mode" }],
    ["Ctrl-O", ctrl("o"), {}, { kind: "expand" }],
    ["Ctrl-R", ctrl("r"), {}, { kind: "search" }],
    ["Ctrl-L", ctrl("l"), {}, { kind: "redraw" }],
    ["Ctrl-Z", ctrl("z"), {}, { kind: "suspend" }],
    ["Ctrl-X (nothing)", ctrl("x"), {}, { kind: "none" }],
    ["PgUp (a question's key)", { kind: "page", to: "up" }, {}, { kind: "none" }],
    // Editing keys only edit, whatever else is going on.
    ["a letter", { kind: "text", text: "a" }, { running: true }, { kind: "edit" }],
    ["Ctrl-A", ctrl("a"), {}, { kind: "edit" }],
    ["Backspace", k("backspace"), {}, { kind: "edit" }],
    ["↑ without the command list", { kind: "move", to: "up" }, {}, { kind: "edit" }],
    // The command list under `/name` takes ↑/↓, Tab and Enter; other keys edit the draft as usual.
    ["↑ on the command list", { kind: "move", to: "up" }, { menuOpen: true }, { kind: "menu-move", by: -1 }],
    ["↓ on the command list", { kind: "move", to: "down" }, { menuOpen: true }, { kind: "menu-move", by: 1 }],
    ["Tab on the command list", k("tab"), { menuOpen: true }, { kind: "menu-take" }],
    ["Enter on the command list", k("enter"), { menuOpen: true }, { kind: "menu-run" }],
    ["← on the command list", { kind: "move", to: "left" }, { menuOpen: true }, { kind: "edit" }],
  ];
  test.each(TABLE)("%s", (_, key, change, want) => {
    expect(sessionKey(key, { ...idle, ...change }).action).toEqual(want);
  });

  test("Esc keeps only its own armed press: between two Ctrl-Ds it ends their window", () => {
    expect(sessionKey(k("esc"), { ...idle, armed: "esc" }).disarm).toBe(false);
    expect(sessionKey(k("esc"), { ...idle, editorEmpty: false, armed: "esc-draft" }).disarm).toBe(false);
    expect(sessionKey(k("esc"), { ...idle, running: true, armed: "d" }).disarm).toBe(true);
    expect(sessionKey(k("esc"), idle).disarm).toBe(true);
  });

  test("only Ctrl-C and Ctrl-D keep an armed press; only Tab keeps the completion candidates", () => {
    const keys: Key[] = [ctrl("c"), ctrl("d"), ctrl("r"), k("tab"), k("enter"), { kind: "text", text: "x" }];
    const plans = keys.map((key) => sessionKey(key, idle));
    expect(plans.map((p) => p.disarm)).toEqual([false, false, true, true, true, true]);
    expect(plans.map((p) => p.keepCandidates)).toEqual([false, false, false, true, false, false]);
  });
});

// Which key does what, in which state of the session: pure decisions, carried out by key-actions.ts.
// First who gets the key (a waiting question, the draft behind it, an open picker, Ctrl-R's search,
// or the session), then what a session key does given the prompt, the running turn and an armed
// double press.

import { assertNever } from "../../protocol/assert-never.ts";
import type { PressKey } from "./double-press.ts";
import type { Key } from "./key-decoder.ts";
import { promptEdit } from "./prompt-keys.ts";

export type KeyTarget = "question" | "draft" | "picker" | "search" | "session";

/**
 * `question`: where type-ahead routes the key while a question waits (routeKey), undefined when
 * none does. A typing burst goes on to whatever else is open, as if no question were there.
 */
export function keyTarget(s: {
  question: "question" | "draft" | "session" | undefined;
  picker: boolean;
  search: boolean;
}): KeyTarget {
  if (s.question === "question" || s.question === "draft") return s.question;
  if (s.picker) return "picker";
  if (s.search) return "search";
  return "session";
}

export interface SessionKeyContext {
  /** The command list under a `/name` being typed is showing. */
  menuOpen: boolean;
  editorEmpty: boolean;
  /** A turn is running. */
  running: boolean;
  /** The double-press key armed and still in its window. */
  armed: PressKey | undefined;
  /** The draft before the caret ends in `\`: Enter continues the prompt on a new line. */
  lineContinues: boolean;
}

export type SessionAction =
  | { kind: "menu-move"; by: -1 | 1 }
  /** Tab on the command list: the picked command into the prompt, to add its arguments. */
  | { kind: "menu-take" }
  /** Enter on the command list: the picked command is sent. */
  | { kind: "menu-run" }
  | { kind: "edit" }
  | { kind: "new-line" }
  | { kind: "send" }
  | { kind: "interrupt" }
  | { kind: "complete" }
  | { kind: "cycle-mode" }
  | { kind: "clear-draft" }
  | { kind: "delete-forward" }
  | { kind: "arm"; key: PressKey }
  | { kind: "exit" }
  | { kind: "expand" }
  | { kind: "search" }
  | { kind: "redraw" }
  | { kind: "suspend" }
  /** Esc twice on an empty prompt: `/rewind`'s list of prompts (twice on a draft: clear-draft). */
  | { kind: "rewind" }
  | { kind: "none" };

export interface KeyPlan {
  action: SessionAction;
  /** Any other key ends an armed window: all but Ctrl-C and Ctrl-D, and Esc unless an Esc is armed. */
  disarm: boolean;
  /** Only Tab keeps the completion candidates shown. */
  keepCandidates: boolean;
}

export function sessionKey(key: Key, ctx: SessionKeyContext): KeyPlan {
  // Ctrl-C and Ctrl-D decide for themselves (their actions arm, disarm or replace); an Esc that is
  // no second press (a turn to stop, say) ends a Ctrl-C/Ctrl-D window as any key does.
  const keeps =
    (key.kind === "ctrl" && (key.name === "c" || key.name === "d")) ||
    (key.kind === "esc" && (ctx.armed === "esc" || ctx.armed === "esc-draft"));
  return { action: sessionAction(key, ctx), disarm: !keeps, keepCandidates: key.kind === "tab" };
}

function sessionAction(key: Key, ctx: SessionKeyContext): SessionAction {
  if (ctx.menuOpen) {
    if (key.kind === "move" && (key.to === "up" || key.to === "down"))
      return { kind: "menu-move", by: key.to === "up" ? -1 : 1 };
    if (key.kind === "tab") return { kind: "menu-take" };
    if (key.kind === "enter") return { kind: "menu-run" };
  }
  if (promptEdit(key)) return { kind: "edit" };
  switch (key.kind) {
    case "enter":
      return { kind: ctx.lineContinues ? "new-line" : "send" };
    case "esc":
      if (ctx.running) return { kind: "interrupt" };
      if (!ctx.editorEmpty)
        return ctx.armed === "esc-draft" ? { kind: "clear-draft" } : { kind: "arm", key: "esc-draft" };
      return ctx.armed === "esc" ? { kind: "rewind" } : { kind: "arm", key: "esc" };
    case "tab":
      return { kind: "complete" };
    case "back-tab":
      return { kind: "cycle-mode" };
    case "ctrl":
      return controlAction(key.name, ctx);
    case "page":
    case "text":
    case "paste":
    case "newline":
    case "backspace":
    case "delete":
    case "move":
    case "delete-word-back":
    case "delete-word-forward":
      return { kind: "none" };
    default:
      return assertNever(key, "key");
  }
}

function controlAction(name: string, ctx: SessionKeyContext): SessionAction {
  switch (name) {
    case "c":
      // A draft is cleared first; then a running turn is stopped; idle, a second press exits.
      if (!ctx.editorEmpty) return { kind: "clear-draft" };
      if (ctx.running) return { kind: "interrupt" };
      return ctx.armed === "c" ? { kind: "exit" } : { kind: "arm", key: "c" };
    case "d":
      // On an empty prompt Ctrl-D leaves; while a turn runs it asks for a second press first.
      if (!ctx.editorEmpty) return { kind: "delete-forward" };
      return !ctx.running || ctx.armed === "d" ? { kind: "exit" } : { kind: "arm", key: "d" };
    case "o":
      return { kind: "expand" };
    case "r":
      return { kind: "search" };
    case "l":
      return { kind: "redraw" };
    case "z":
      return { kind: "suspend" };
    default:
      return { kind: "none" };
  }
}

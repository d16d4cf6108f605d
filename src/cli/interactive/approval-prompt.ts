// The approval prompt of an interactive session: shows the whole command (or the whole diff a
// Write or Edit would make), wrapped, never cut, and scrolled with PgUp/PgDn (a page) or
// Shift+↑/↓ (a row) when it is taller than the screen; takes "yes", "yes, and don't ask again"
// (offered only for a rule that covers exactly this call, named in its label), or "no, and tell
// the model why". Esc or Ctrl-C rejects the call and stops the turn. A pure state machine
// (`ApprovalPrompt`); the interactive session draws it in the prompt's place (session-frame.ts)
// and feeds it keys until the user answers.

import type { Colors } from "../../render/colors.ts";
import { PLAIN } from "../../render/colors.ts";
import { inert, inertLine } from "../../render/inert.ts";
import { charWidth, fitWidth, wrapHanging, wrapLine } from "../../render/text-width.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../tools/types.ts";
import type { Key } from "./key-decoder.ts";

/** What the call would do, as whole lines: the command, or a diff. Model-controlled text made inert. */
export function previewLines(request: ApprovalRequest): string[] {
  const input = (request.input ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  // A final newline ends the last line; it is not one more, empty line.
  const lines = (v: unknown) => (str(v) === "" ? [] : inert(str(v)).replace(/\n$/, "").split("\n"));
  switch (request.tool) {
    case "Bash": {
      const rows = inert(str(input.command))
        .split("\n")
        .map((l) => `  $ ${l}`);
      if (input.cwd) rows.push(`  (in ${inertLine(str(input.cwd))})`);
      return rows;
    }
    case "Write":
      return [`  ${inertLine(str(input.path))} (whole file)`, ...lines(input.content).map((l) => `  + ${l}`)];
    case "Edit":
      return [
        `  ${inertLine(str(input.path))}${input.replace_all ? " (every occurrence)" : ""}`,
        ...lines(input.old_string).map((l) => `  - ${l}`),
        ...lines(input.new_string).map((l) => `  + ${l}`),
      ];
    default:
      return [`  ${inertLine(str(input.path) || JSON.stringify(input))}`];
  }
}

/**
 * Splits one preview line into rows of at most `width` columns, character by character: no
 * character is dropped or moved (a space at a break stays visible as the row's last column), so
 * what the rows show is exactly the command. Rows after the first are indented like the text.
 */
export function wrapPreviewLine(line: string, width: number): string[] {
  const indent = /^ {2}(?:[$+-] )?/.exec(line)?.[0].length ?? 0;
  const pad = " ".repeat(indent);
  const rows: string[] = [];
  let row = line.slice(0, indent);
  let col = indent;
  for (const ch of line.slice(indent)) {
    const w = charWidth(ch.codePointAt(0) ?? 0);
    if (col + w > width && col > indent) {
      rows.push(row);
      row = pad;
      col = indent;
    }
    row += ch;
    col += w;
  }
  rows.push(row);
  return rows;
}

type Choice = "yes" | "always" | "no";
type State = { mode: "menu"; choice: number } | { mode: "reason"; text: string };

/** What "don't ask again" covers, said in words: the rule is exact (see policy/exact-grant.ts). */
export function grantLabel(request: ApprovalRequest): string {
  if (request.tool.startsWith("mcp__")) {
    return `Yes, and don't ask again for ${inertLine(request.rule)} (this tool) in this session`;
  }
  const m = /^(\w+)\(([\s\S]*)\)$/.exec(request.rule);
  if (request.tool === "Bash" || !m) return "Yes, and don't ask again for this exact command in this session";
  return `Yes, and don't ask again for ${m[1]} of ${inertLine(m[2] ?? "")} (that file only) in this session`;
}

export class ApprovalPrompt {
  private state: State;
  private readonly choices: Choice[];
  /** First preview row shown, and the rows shown at the last render (a page). */
  private scroll = 0;
  private page = 1;
  /**
   * Enter alone does not answer until the session says the question has been up long enough to
   * be read (`armEnter`), unless another key was given to it first: an Enter meant for the draft
   * or typed a moment too late must not say yes. The hint says "Enter to choose" once it does.
   */
  private enterArmed = false;
  private touched = false;

  constructor(
    private readonly request: ApprovalRequest,
    private readonly colors: Colors = PLAIN,
  ) {
    this.choices = request.exact ? ["yes", "always", "no"] : ["yes", "no"];
    this.state = { mode: "menu", choice: request.dangerous ? this.choices.length - 1 : 0 };
  }

  /**
   * The prompt as rows of at most `width` columns, at most `maxRows` of them where it can: a
   * preview taller than its room shows one page of itself and says which lines; PgUp/PgDn move it.
   */
  render(maxRows = Number.POSITIVE_INFINITY, width = Number.POSITIVE_INFINITY): string[] {
    const c = this.colors;
    const wrap = (l: string) => (Number.isFinite(width) ? wrapLine(l, width) : [l]);
    const question = `Allow ${this.request.tool}? ${inertLine(this.request.reason)}`;
    let header = wrap(question).map((l) => c.yellow(l));
    const { picks, hint } = this.choiceLines(width);
    let choices = [...picks, ...hint];
    const colour = (l: string) => (l.startsWith("  + ") ? c.green : l.startsWith("  - ") ? c.red : (x: string) => x);
    const preview = previewLines(this.request).flatMap((l) => {
      const paint = colour(l);
      return (Number.isFinite(width) ? wrapPreviewLine(l, width) : [l]).map((row) => paint(row));
    });
    // Short of rows (a terminal a dozen rows high): the question's first row and the choices must
    // stay on screen, so the rest of the question and the keys' hint go before they would.
    if (preview.length && header.length + choices.length + 2 > maxRows) {
      header = [c.yellow(Number.isFinite(width) ? fitWidth(question, width) : question)];
      choices = picks;
    }
    const room = Math.max(1, maxRows - header.length - choices.length);
    if (preview.length <= room) {
      this.scroll = 0;
      this.page = preview.length;
      return [...header, ...preview, ...choices];
    }
    // One row says where the page is; the rest show the preview from `scroll`.
    this.page = Math.max(1, room - 1);
    this.scroll = Math.min(Math.max(0, this.scroll), preview.length - this.page);
    const last = this.scroll + this.page;
    const more = last < preview.length ? ", more below" : "";
    const where = `  ── rows ${this.scroll + 1}-${last} of ${preview.length}${more} · PgUp/PgDn, Shift+↑/↓ ──`;
    const whereRow = c.dim(Number.isFinite(width) ? fitWidth(where, width) : where);
    return [...header, ...preview.slice(this.scroll, last), whereRow, ...choices];
  }

  /** The choices and the keys' hint, wrapped to `width` with each choice's rows under its words. */
  private choiceLines(width: number): { picks: string[]; hint: string[] } {
    const c = this.colors;
    const hang = (prefix: string, body: string) =>
      Number.isFinite(width) ? wrapHanging(prefix, body, width) : [prefix + body];
    const label: Record<Choice, string> = {
      yes: "Yes",
      always: grantLabel(this.request),
      no: "No, and tell the model why",
    };
    const letters = this.choices.map((ch) => ({ yes: "y", always: "a", no: "n" })[ch]).join(" / ");
    if (this.state.mode === "reason") {
      const picks = [
        ...hang("  ", "Why not? (Enter to send; Esc stops the turn)"),
        ...hang("  > ", inertLine(this.state.text)),
      ];
      return { picks, hint: [] };
    }
    const choice = this.state.choice;
    const lines = this.choices.flatMap((ch, i) => {
      const rows = hang(`${i === choice ? "❯" : " "} ${i + 1}. `, label[ch]);
      return i === choice ? rows.map((r) => c.cyan(r)) : rows;
    });
    const enter = this.enterArmed || this.touched ? ", Enter to choose" : "";
    const hint = `↑/↓ or 1-${this.choices.length} (${letters})${enter}; Esc rejects and stops`;
    return { picks: lines, hint: hang("  ", hint).map((r) => c.dim(r)) };
  }

  /**
   * Whether the prompt has a use for `key`. One it has none for (a letter that is no choice, a
   * word-move) belongs to the draft behind the prompt rather than being lost.
   */
  takes(key: Key): boolean {
    if (key.kind === "esc" || (key.kind === "ctrl" && key.name === "c")) return true;
    if (key.kind === "page" || key.kind === "enter") return true;
    if (key.kind === "move") return key.shift === true || ["up", "down", "home", "end"].includes(key.to);
    if (this.state.mode === "reason") return key.kind === "text" || key.kind === "paste" || key.kind === "backspace";
    if (key.kind !== "text") return false;
    const t = key.text.toLowerCase();
    const letters: Record<string, Choice> = { y: "yes", a: "always", n: "no" };
    const pick = /^[1-9]$/.test(t) ? this.choices[Number(t) - 1] : letters[t];
    return pick !== undefined && this.choices.includes(pick);
  }

  /** The question has been shown long enough: Enter alone may answer it now. */
  armEnter(): void {
    this.enterArmed = true;
  }

  /** Feeds one key; returns the answer once the user has given one. */
  handle(key: Key): ApprovalAnswer | undefined {
    const s = this.state;
    if (key.kind === "enter" && !this.enterArmed && !this.touched) return undefined;
    this.touched = true;
    // Esc and Ctrl-C reject the call and end the turn, as in Claude Code: the model does not try again.
    if (key.kind === "esc" || (key.kind === "ctrl" && key.name === "c")) return { no: "", stop: true };
    if (key.kind === "page" || (key.kind === "move" && key.shift)) {
      const rows = key.kind === "page" ? this.page : 1;
      this.scroll += key.to === "up" ? -rows : rows;
      return undefined;
    }
    if (s.mode === "reason") {
      if (key.kind === "enter") return { no: s.text.trim() };
      if (key.kind === "backspace") this.state = { mode: "reason", text: [...s.text].slice(0, -1).join("") };
      const typed = key.kind === "text" || key.kind === "paste" ? key.text.replace(/\s+/g, " ") : "";
      if (typed) this.state = { mode: "reason", text: s.text + typed };
      return undefined;
    }
    const n = this.choices.length;
    if (key.kind === "move" && (key.to === "up" || key.to === "down")) {
      this.state = { mode: "menu", choice: (s.choice + (key.to === "up" ? n - 1 : 1)) % n };
      return undefined;
    }
    if (key.kind === "move" && (key.to === "home" || key.to === "end")) {
      this.scroll = key.to === "home" ? 0 : Number.MAX_SAFE_INTEGER;
      return undefined;
    }
    let pick: Choice | undefined;
    if (key.kind === "enter") pick = this.choices[s.choice];
    if (key.kind === "text") {
      const t = key.text.toLowerCase();
      const letters = { y: "yes", a: "always", n: "no" } as const;
      pick = /^[1-9]$/.test(t) ? this.choices[Number(t) - 1] : letters[t as keyof typeof letters];
      if (pick && !this.choices.includes(pick)) pick = undefined;
    }
    if (pick === "yes") return "yes";
    if (pick === "always") return "always";
    if (pick === "no") this.state = { mode: "reason", text: "" };
    return undefined;
  }
}

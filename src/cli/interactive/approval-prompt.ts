// The approval prompt of an interactive session: shows the exact command (or the diff a Write or
// Edit would make) and takes "yes", "yes, and don't ask again for this rule in this session", or
// "no, and tell the model why". A pure state machine (`ApprovalPrompt`) plus `askApproval`, which
// draws it on the terminal and feeds it keys until the user answers.

import type { Colors } from "../../render/colors.ts";
import { PLAIN } from "../../render/colors.ts";
import { inert, inertLine } from "../../render/inert.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../tools/types.ts";
import { type Key, KeyDecoder } from "./key-decoder.ts";

const MAX_PREVIEW_LINES = 20;

/** What the call would do, as lines: the command, or a diff. Model-controlled text made inert. */
export function previewLines(request: ApprovalRequest): string[] {
  const input = (request.input ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  // A final newline ends the last line; it is not one more, empty line.
  const lines = (v: unknown) => (str(v) === "" ? [] : inert(str(v)).replace(/\n$/, "").split("\n"));
  const clip = (lines: string[]) =>
    lines.length > MAX_PREVIEW_LINES ? [...lines.slice(0, MAX_PREVIEW_LINES), `… ${lines.length - MAX_PREVIEW_LINES} more lines`] : lines;
  switch (request.tool) {
    case "Bash": {
      const lines = clip(inert(str(input.command)).split("\n").map((l) => `  $ ${l}`));
      if (input.cwd) lines.push(`  (in ${inertLine(str(input.cwd))})`);
      return lines;
    }
    case "Write":
      return [`  ${inertLine(str(input.path))} (whole file)`, ...clip(lines(input.content).map((l) => `  + ${l}`))];
    case "Edit":
      return [
        `  ${inertLine(str(input.path))}${input.replace_all ? " (every occurrence)" : ""}`,
        ...clip([...lines(input.old_string).map((l) => `  - ${l}`), ...lines(input.new_string).map((l) => `  + ${l}`)]),
      ];
    default:
      return [`  ${inertLine(str(input.path) || JSON.stringify(input))}`];
  }
}

type State = { mode: "menu"; choice: 0 | 1 | 2 } | { mode: "reason"; text: string };

export class ApprovalPrompt {
  private state: State;

  constructor(
    private readonly request: ApprovalRequest,
    private readonly colors: Colors = PLAIN,
  ) {
    this.state = { mode: "menu", choice: request.dangerous ? 2 : 0 };
  }

  /**
   * The prompt as lines (no trailing newline), at most `maxRows` of them where it can: a preview
   * too tall for the screen is shortened, since rows scrolled off the top could not be redrawn and
   * the question itself would be out of sight.
   */
  render(maxRows = Number.POSITIVE_INFINITY): string[] {
    const c = this.colors;
    const r = this.request;
    const choices = this.choiceLines();
    let preview = previewLines(r);
    const room = maxRows - 1 - choices.length;
    if (preview.length > room) {
      const keep = Math.max(0, room - 1);
      // The preview's own "… N more lines" row counts the lines it already left out.
      const already = /^… (\d+) more lines$/.exec(preview.at(-1) ?? "");
      const shown = already ? preview.slice(0, -1) : preview;
      preview = [...shown.slice(0, keep), `  … ${shown.length - keep + Number(already?.[1] ?? 0)} more lines not shown`];
    }
    const colour = (l: string) => (l.startsWith("  + ") ? c.green(l) : l.startsWith("  - ") ? c.red(l) : l.startsWith("  … ") ? c.dim(l) : l);
    return [c.yellow(`Allow ${r.tool}? ${inertLine(r.reason)}`), ...preview.map(colour), ...choices];
  }

  private choiceLines(): string[] {
    const c = this.colors;
    const r = this.request;
    const lines: string[] = [];
    const options = ["Yes", `Yes, and don't ask again for ${inertLine(r.rule)} in this session`, "No, and tell the model why"];
    if (this.state.mode === "menu") {
      const choice = this.state.choice;
      options.forEach((o, i) => lines.push(i === choice ? c.cyan(`❯ ${i + 1}. ${o}`) : `  ${i + 1}. ${o}`));
      lines.push(c.dim("  ↑/↓ or 1-3 (y / a / n), Enter to choose, Esc for no"));
    } else {
      lines.push(`  Why not? (Enter to send, Esc to send no reason)`, `  > ${inertLine(this.state.text)}`);
    }
    return lines;
  }

  /** Feeds one key; returns the answer once the user has given one. */
  handle(key: Key): ApprovalAnswer | undefined {
    const s = this.state;
    if (s.mode === "reason") {
      if (key.kind === "enter") return { no: s.text.trim() };
      if (key.kind === "esc" || (key.kind === "ctrl" && key.name === "c")) return { no: "" };
      if (key.kind === "backspace") this.state = { mode: "reason", text: [...s.text].slice(0, -1).join("") };
      else if (key.kind === "text" || key.kind === "paste") this.state = { mode: "reason", text: s.text + key.text.replace(/\s+/g, " ") };
      return undefined;
    }
    if (key.kind === "esc" || (key.kind === "ctrl" && key.name === "c")) return { no: "" };
    if (key.kind === "move" && (key.to === "up" || key.to === "down")) {
      this.state = { mode: "menu", choice: ((s.choice + (key.to === "up" ? 2 : 1)) % 3) as 0 | 1 | 2 };
      return undefined;
    }
    let pick: number | undefined;
    if (key.kind === "enter") pick = s.choice;
    if (key.kind === "text") pick = { "1": 0, y: 0, Y: 0, "2": 1, a: 1, A: 1, "3": 2, n: 2, N: 2 }[key.text];
    if (pick === 0) return "yes";
    if (pick === 1) return "always";
    if (pick === 2) this.state = { mode: "reason", text: "" };
    return undefined;
  }
}

/** A raw-mode terminal input: what the interactive session already owns. */
export interface ApprovalTerminal {
  write(text: string): void;
  /** Delivers raw input until the returned function is called. */
  onInput(listener: (chunk: string) => void): () => void;
}

/** Draws the prompt, redraws it after each key, and clears it once answered. */
export function askApproval(request: ApprovalRequest, terminal: ApprovalTerminal, colors?: Colors): Promise<ApprovalAnswer> {
  const prompt = new ApprovalPrompt(request, colors);
  const decoder = new KeyDecoder();
  let drawn = 0;
  const draw = () => {
    const lines = prompt.render();
    // Back to the first line of the previous drawing, then clear to the end of the screen.
    terminal.write(`${drawn > 1 ? `\x1b[${drawn - 1}F` : "\r"}\x1b[J${lines.join("\r\n")}`);
    drawn = lines.length;
  };
  return new Promise((resolve) => {
    draw();
    const stop = terminal.onInput((chunk) => {
      for (const key of decoder.feed(chunk)) {
        const answer = prompt.handle(key);
        if (answer !== undefined) {
          stop();
          const said = answer === "yes" ? "yes" : answer === "always" ? `yes, and ${inertLine(request.rule)} from now on` : `no${answer.no ? `: ${inertLine(answer.no)}` : ""}`;
          terminal.write(`${drawn > 1 ? `\x1b[${drawn - 1}F` : "\r"}\x1b[J${inertLine(`${request.tool}: ${said}`)}\r\n`);
          resolve(answer);
          return;
        }
      }
      draw();
    });
  });
}

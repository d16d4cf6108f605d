// The text writer on and off a terminal: model- and tool-controlled text never reaches stderr (or a
// terminal's stdout) with its escape sequences acting, and status rows stay one bounded line.

import { describe, expect, test } from "bun:test";
import { createTextWriter } from "../../../src/cli/output/text-writer.ts";
import type { AgentEvent } from "../../../src/protocol/events.ts";
import { INTERRUPTED_NOTE } from "../../../src/protocol/message.ts";
import { PLAIN } from "../../../src/render/colors.ts";

// OSC 52 (write the clipboard), clear screen, retitle, a C1 CSI, a bidi override.
const HOSTILE = "\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b]0;pwned\x07\x9b31m\u202e";
const ESC_OR_C1 = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

function writer(tty: boolean, columns = 80, limit = 80) {
  const out: string[] = [];
  const err: string[] = [];
  const w = createTextWriter(
    { out: (t) => out.push(t), err: (t) => err.push(t), outIsTTY: tty, errIsTTY: tty },
    { quiet: false, colors: PLAIN, labelLimit: limit, columns: () => columns },
  );
  return { w, out, err, emit: (e: AgentEvent) => w.handle(e) };
}

function run(emit: (e: AgentEvent) => void) {
  emit({ type: "tool_start", id: "t1", name: `Read${HOSTILE}`, input: { path: `/tmp/${HOSTILE}x` } });
  emit({ type: "tool_progress", id: "t1", name: "Bash", text: `line ${HOSTILE}\n` });
  emit({ type: "tool_end", id: "t1", name: "Read", is_error: false, summary: `out ${HOSTILE}` });
  emit({ type: "tool_end", id: "t2", name: "Bash", is_error: true, summary: `${"y".repeat(20_000)}` });
  emit({ type: "warning", message: `cannot read ${HOSTILE}` });
  emit({ type: "turn_retry", attempt: 1, delay_ms: 10, reason: `503 ${HOSTILE}` });
}

describe("text writer: untrusted text is inert", () => {
  for (const tty of [false, true]) {
    test(`stderr holds no control character but the writer's own (${tty ? "terminal" : "pipe"})`, () => {
      const { err, emit } = writer(tty);
      run(emit);
      // On a terminal the live tail draws with its own cursor codes: take them out, then nothing is left.
      const text = err.join("").replace(/\r\x1b\[2K|\x1b\[1A\x1b\[2K/g, "");
      expect(text).not.toMatch(ESC_OR_C1);
      expect(text).toContain("␛]52;c;ZXZpbA==^G");
    });

    test(`the summary row is cut to TOOL_RESULT_SUMMARY_LIMIT (${tty ? "terminal" : "pipe"})`, () => {
      const { err, emit } = writer(tty, 200, 80);
      emit({ type: "tool_end", id: "t2", name: "Bash", is_error: false, summary: "z".repeat(20_000) });
      const row = err.join("").split("\n")[0];
      expect(row).toBe(`  ⎿ ${"z".repeat(79)}…`);
    });
  }

  test("a failed call is marked without colour: ✗, and a failed command's exit code", () => {
    const { err, emit } = writer(false);
    emit({ type: "tool_end", id: "t1", name: "Bash", is_error: false, summary: "fine" });
    emit({
      type: "tool_end",
      id: "t2",
      name: "Bash",
      is_error: true,
      summary: "boom",
      display: { kind: "command", exit_code: 2, lines: 1 },
    });
    emit({ type: "tool_end", id: "t3", name: "Read", is_error: true, summary: "no such file" });
    expect(err.join("").split("\n").slice(0, 3)).toEqual(["  ⎿ fine", "  ⎿ ✗ exit 2 · boom", "  ⎿ ✗ no such file"]);
  });

  test("on a terminal narrower than the limit the rows fit its width", () => {
    const { err, emit } = writer(true, 40, 80);
    emit({ type: "tool_start", id: "t1", name: "Bash", input: { command: "x".repeat(500) } });
    emit({ type: "tool_end", id: "t1", name: "Bash", is_error: false, summary: "z".repeat(20_000) });
    const rows = err.join("").split("\n").filter(Boolean);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(Array.from(row).length).toBeLessThanOrEqual(40);
  });

  test("the answer: inert on a terminal, the model's bytes verbatim in a file or pipe", () => {
    const answer = `done ${HOSTILE}\r\nnext\tline\n`;
    const message = { id: "m", role: "assistant" as const, content: [{ type: "text" as const, text: answer }], ts: 0 };
    const piped = writer(false);
    piped.emit({ type: "text_delta", text: answer });
    piped.emit({ type: "assistant", message });
    expect(piped.out.join("")).toBe(answer);
    const tty = writer(true);
    tty.emit({ type: "text_delta", text: answer });
    tty.emit({ type: "assistant", message });
    const shown = tty.out.join("");
    expect(shown).not.toMatch(ESC_OR_C1);
    expect(shown).toContain("next\tline\n");
    expect(shown).toContain("␛[2J");
  });
});

describe("text writer: an interrupted answer", () => {
  test("the partial answer reaches a file or pipe without the note meant for the model", () => {
    const { out, err, emit } = writer(false);
    const message = {
      id: "m1",
      role: "assistant" as const,
      ts: 0,
      stop_reason: "interrupted",
      content: [{ type: "text" as const, text: `Half of the answer${INTERRUPTED_NOTE}` }],
    };
    emit({ type: "assistant", message });
    emit({
      type: "result",
      result: {
        subtype: "interrupted",
        is_error: true,
        result: "Half of the answer",
        session_id: "s",
        num_turns: 1,
        duration_ms: 1,
        duration_api_ms: 0,
        modelUsage: {},
        usage: { input_tokens: 0, output_tokens: 0 },
        stats: {} as any,
      },
    });
    expect(out.join("")).toBe("Half of the answer\n");
    expect(err.join("")).toContain("interrupted");
  });
});

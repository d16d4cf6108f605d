// The approval prompt: what it shows, and each way to answer it, fed through the real key decoder.
import { describe, expect, test } from "bun:test";
import { ApprovalPrompt, askApproval, previewLines } from "../../../src/cli/interactive/approval-prompt.ts";
import { KeyDecoder } from "../../../src/cli/interactive/key-decoder.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../../src/tools/types.ts";

const bash: ApprovalRequest = { tool: "Bash", input: { command: "rm -rf ~" }, reason: "the command is on the dangerous list", rule: "Bash(rm -rf ~)" };

/** Feeds the input as a terminal sends typing: one read per key (escape sequences whole). */
function answer(request: ApprovalRequest, input: string): ApprovalAnswer | undefined {
  const p = new ApprovalPrompt(request);
  const d = new KeyDecoder();
  for (const chunk of input.match(/\x1b\[[A-D]|[^]/g)!) {
    for (const key of d.feed(chunk)) {
      const a = p.handle(key);
      if (a !== undefined) return a;
    }
  }
  return undefined;
}

describe("ApprovalPrompt", () => {
  test("shows the exact command, the reason and the rule", () => {
    const text = new ApprovalPrompt(bash).render().join("\n");
    expect(text).toContain("Allow Bash? the command is on the dangerous list");
    expect(text).toContain("$ rm -rf ~");
    expect(text).toContain("don't ask again for Bash(rm -rf ~)");
  });

  test("shows a diff for Edit and Write, with escapes made inert", () => {
    const edit = previewLines({ tool: "Edit", input: { path: "a.ts", old_string: "x = 1", new_string: "x = 2\x1b]52;c;AAAA\x07" }, reason: "r", rule: "Edit(a.ts)" });
    expect(edit).toEqual(["  a.ts", "  - x = 1", "  + x = 2␛]52;c;AAAA^G"]);
    const write = previewLines({ tool: "Write", input: { path: "b.txt", content: Array.from({ length: 30 }, (_, i) => `l${i}`).join("\n") }, reason: "r", rule: "Write(b.txt)" });
    expect(write[1]).toBe("  + l0");
    expect(write.at(-1)).toBe("… 10 more lines");
  });

  test("a prompt taller than the room shortens its preview, keeping the question and the choices", () => {
    const content = Array.from({ length: 30 }, (_, i) => `l${i}`).join("\n");
    const p = new ApprovalPrompt({ tool: "Write", input: { path: "b.txt", content }, reason: "b.txt is outside the workspace", rule: "Write(b.txt)" });
    const rows = p.render(9);
    expect(rows).toHaveLength(9);
    expect(rows[0]).toBe("Allow Write? b.txt is outside the workspace");
    expect(rows[1]).toBe("  b.txt (whole file)");
    expect(rows.slice(-4)).toEqual(["❯ 1. Yes", "  2. Yes, and don't ask again for Write(b.txt) in this session", "  3. No, and tell the model why", "  ↑/↓ or 1-3 (y / a / n), Enter to choose, Esc for no"]);
    // 30 lines, of which l0–l1 shown: 28 left out, the preview's own cut included.
    expect(rows[rows.length - 5]).toBe("  … 28 more lines not shown");
    expect(p.render(100).length).toBeGreaterThan(20);
  });

  test("a file's final newline adds no empty + row to the Write preview (it is not an extra line)", () => {
    const write = previewLines({ tool: "Write", input: { path: "c.txt", content: "hello\nworld\n" }, reason: "r", rule: "Write(c.txt)" });
    expect(write).toEqual(["  c.txt (whole file)", "  + hello", "  + world"]);
    const edit = previewLines({ tool: "Edit", input: { path: "c.txt", old_string: "a\n", new_string: "b\n" }, reason: "r", rule: "Edit(c.txt)" });
    expect(edit).toEqual(["  c.txt", "  - a", "  + b"]);
    const removal = previewLines({ tool: "Edit", input: { path: "c.txt", old_string: "gone\n", new_string: "" }, reason: "r", rule: "Edit(c.txt)" });
    expect(removal).toEqual(["  c.txt", "  - gone"]);
  });

  test.each([
    ["\r", "yes"],
    ["y", "yes"],
    ["1", "yes"],
    ["a", "always"],
    ["\x1b[B\r", "always"],
    ["\x1b[A\x1b[A\r", "always"],
    ["2", "always"],
  ] as Array<[string, ApprovalAnswer]>)("keys %p → %p", (keys, expected) => expect(answer(bash, keys)).toEqual(expected));

  test("a command on the dangerous list starts on no: a stray Enter does not run it", () => {
    const dangerous = { ...bash, dangerous: true };
    expect(new ApprovalPrompt(dangerous).render().join("\n")).toContain("❯ 3. No, and tell the model why");
    expect(answer(dangerous, "\r\r")).toEqual({ no: "" });
    expect(answer(dangerous, "y")).toEqual("yes");
  });

  test("no, with the reason typed after it (backspace works); Esc is a plain no", () => {
    expect(answer(bash, "nuse trashh\x7f instead\r")).toEqual({ no: "use trash instead" });
    expect(answer(bash, "\x1b[A\rwhy\r")).toEqual({ no: "why" });
    expect(answer(bash, "3\x1b")).toEqual({ no: "" });
    expect(answer(bash, "\x03")).toEqual({ no: "" });
    expect(answer(bash, "x")).toBeUndefined();
  });

  test("askApproval draws, takes keys from the terminal, and leaves one line behind", async () => {
    let written = "";
    let listener: ((s: string) => void) | undefined;
    const pending = askApproval(bash, { write: (t) => (written += t), onInput: (l) => ((listener = l), () => (listener = undefined)) });
    expect(written).toContain("$ rm -rf ~");
    listener!("\x1b[B");
    listener!("\r");
    expect(await pending).toBe("always");
    expect(listener).toBeUndefined();
    expect(written.endsWith("Bash: yes, and Bash(rm -rf ~) from now on\r\n")).toBe(true);
  });
});

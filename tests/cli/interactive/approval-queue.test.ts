// Questions about tool calls, one at a time (approval-queue.ts): a second waits until the first is
// answered, a session on its way out answers no, and the transcript's line for each answer.

import { describe, expect, test } from "bun:test";
import { ApprovalQueue, answerLine, stopsTurn } from "../../../src/cli/interactive/approval-queue.ts";
import { makeTheme } from "../../../src/render/theme.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../../src/tools/types.ts";

const request = (command: string): ApprovalRequest => ({
  tool: "Bash",
  input: { command },
  reason: "not in the allow list",
  rule: `Bash(${command})`,
  exact: true,
});

const commandOf = (q: ApprovalQueue) => (q.current?.request.input as { command?: string } | undefined)?.command;

function queue(asking = () => true) {
  const shown: string[] = [];
  const notified: string[] = [];
  const q = new ApprovalQueue({
    theme: makeTheme(false),
    asking,
    shown: () => shown.push(String(commandOf(q))),
    notify: (r) => notified.push(r.tool),
  });
  return { q, shown, notified };
}

describe("ApprovalQueue", () => {
  test("one question at a time, in order; each answer goes to its own call", async () => {
    const { q, shown, notified } = queue();
    const first = q.ask(request("make"));
    const second = q.ask(request("make install"));
    await Bun.sleep(0);
    expect(commandOf(q)).toBe("make");
    expect(notified).toEqual(["Bash"]);
    q.take()?.("yes");
    expect(await first).toBe("yes");
    await Bun.sleep(0);
    expect(commandOf(q)).toBe("make install");
    q.take()?.({ no: "not now" });
    expect(await second).toEqual({ no: "not now" });
    expect(q.current).toBeUndefined();
    expect(shown.slice(0, 2)).toEqual(["make", "make install"]);
  });

  test("cancel answers the open question no; a session on its way out answers the rest no unasked", async () => {
    let asking = true;
    const { q, notified } = queue(() => asking);
    const open = q.ask(request("deploy"));
    const later = q.ask(request("deploy --force"));
    await Bun.sleep(0);
    asking = false;
    q.cancel();
    expect(await open).toEqual({ no: "the session ended" });
    expect(await later).toEqual({ no: "the session ended" });
    expect(notified).toHaveLength(1);
    expect(q.current).toBeUndefined();
  });

  test("take with no question open gives nothing to answer", () => {
    expect(queue().q.take()).toBeUndefined();
  });
});

describe("answerLine", () => {
  const r = request("rm -rf build\x1b[2J");
  test.each([
    ["yes", "  ⎿ Bash allowed once"],
    ["always", "  ⎿ Bash allowed: Bash(rm -rf build [2J) for this session"],
    [{ no: "" }, "  ⎿ Bash refused"],
    [{ no: "use make clean" }, "  ⎿ Bash refused: use make clean"],
    [{ no: "", stop: true }, "  ⎿ Bash rejected by the user; the turn stopped"],
  ] as [ApprovalAnswer, string][])("%j → %s", (answer, want) => {
    expect(answerLine(r, answer)).toBe(want);
  });

  test("only a stop answer stops the turn", () => {
    expect([stopsTurn("yes"), stopsTurn({ no: "x" }), stopsTurn({ no: "", stop: true })]).toEqual([false, false, true]);
  });
});

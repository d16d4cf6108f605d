// Leaving the interactive session while a turn runs (Ctrl-D, a signal): the screen it leaves
// behind is final, not a frozen frame of work in progress. Compiled binary in tmux, strict fake.

import { afterAll, describe, expect, test } from "bun:test";
import { startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

describe.skipIf(!hasTmux)("leaving during a turn", () => {
  test("Ctrl-D twice mid-stream: the partial answer is marked interrupted and no spinner or 'esc to interrupt' is left", async () => {
    const fake = await startFakeLLM([{ text: "slow ".repeat(2000), chunkDelayMs: 40 }]);
    const t = await server.open(fake.url);
    try {
      t.type("go slowly");
      t.keys("Enter");
      await t.until((s) => s.includes("slow slow"), "the stream");
      // A turn is running: the first Ctrl-D only asks for a second.
      t.keys("C-d");
      await t.until((s) => s.includes("press Ctrl-D again to exit"), "the hint");
      t.keys("C-d");
      const end = await t.until((s) => s.includes("EXIT="), "the exit");
      expect(end).toContain("EXIT=0");
      expect(end).not.toContain("esc to interrupt");
      expect(end).not.toMatch(/working…/);
      expect(end).toContain("interrupted");
      expect(end).toMatch(/session \S+ saved · resume it with/);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);
});

describe.skipIf(!hasTmux)("interrupting with inputs queued", () => {
  test("Esc stops the turn and puts the queued inputs back in the prompt instead of running them", async () => {
    const fake = await startFakeLLM([{ text: "slow ".repeat(2000), chunkDelayMs: 40 }, { text: "second answer" }]);
    const t = await server.open(fake.url);
    try {
      t.type("go slowly");
      t.keys("Enter");
      await t.until((s) => s.includes("slow slow"), "the stream");
      t.type("also this");
      t.keys("Enter");
      t.type("and that");
      t.keys("Enter");
      await t.until((s) => s.includes("queued: and that"), "the queued rows");
      t.type("draft");
      t.keys("Escape");
      const s = await t.until(
        (s) => s.includes("⎿ interrupted") && !s.includes("esc to interrupt"),
        "the interruption",
      );
      expect(s).not.toContain("queued:");
      const prompt = s.slice(s.lastIndexOf("› also this"));
      expect(prompt.split("\n").slice(0, 3)).toEqual(["› also this", "  and that", "  draft"]);
      t.keys("Enter");
      await t.until((s) => s.includes("second answer"), "the answer to the edited prompt");
      const posts = fake.requests.filter((r) => r.path === "/v1/messages");
      expect(posts).toHaveLength(2);
      expect(posts[1]!.body.messages.at(-1).content.map((b: any) => b.text)).toEqual(["also this\nand that\ndraft"]);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);
});

describe.skipIf(!hasTmux)("suspending", () => {
  test("Ctrl-Z suspends to the shell (terminal restored) and fg brings the session back, drawn again and taking keys", async () => {
    const fake = await startFakeLLM([{ text: "back again" }]);
    const home = tempHome();
    const name = "suspend";
    const env = { ...home.env, ...providerEnv(fake.url), TERM: "xterm-256color", PS1: "$ " };
    const exports = Object.entries(env)
      .map(([k, v]) => `export ${k}='${v}';`)
      .join(" ");
    server.tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "-c", home.dir, "bash --norc --noprofile -i");
    const screen = () => server.tmux("capture-pane", "-p", "-t", name).stdout.toString();
    const until = async (p: (s: string) => boolean, what: string) => {
      for (let i = 0; i < 500; i++) {
        const s = screen();
        if (p(s)) return s;
        await Bun.sleep(30);
      }
      throw new Error(`never saw ${what}; last screen:\n${screen()}`);
    };
    try {
      server.tmux("send-keys", "-t", name, "-l", `${exports} clear; ${BINARY}`);
      server.tmux("send-keys", "-t", name, "Enter");
      await until((s) => s.includes("% context"), "the session");
      server.tmux("send-keys", "-t", name, "-l", "draft kept");
      await until((s) => s.includes("› draft kept"), "the draft");
      server.tmux("send-keys", "-t", name, "C-z");
      await until((s) => /Stopped/.test(s), "the shell's job notice");
      server.tmux("send-keys", "-t", name, "-l", "fg");
      server.tmux("send-keys", "-t", name, "Enter");
      const back = await until(
        (s) =>
          s.split("\n").filter((l) => l.includes("% context")).length >= 1 &&
          s.lastIndexOf("% context") > s.lastIndexOf("Stopped"),
        "the session drawn again",
      );
      // The shell's output from while the session was stopped stays; no stale prompt above it.
      expect(back).toMatch(/Stopped/);
      expect(back.split("\n").filter((l) => l.startsWith("› draft kept"))).toHaveLength(1);
      expect(back.split("\n").filter((l) => l.includes("% context"))).toHaveLength(1);
      server.tmux("send-keys", "-t", name, "-l", " now");
      server.tmux("send-keys", "-t", name, "Enter");
      await until((s) => s.includes("back again"), "the answer after resuming");
      const posts = fake.requests.filter((r) => r.path === "/v1/messages");
      expect(posts[0]!.body.messages[0].content.map((b: any) => b.text)).toEqual(["draft kept now"]);
      server.tmux("send-keys", "-t", name, "C-d");
      await until((s) => s.includes("resume it with"), "the exit");
      // A stopped job's list does not go on after fg: ask the shell for fg's status (the binary's).
      server.tmux("send-keys", "-t", name, "-l", "echo EXIT=$?");
      server.tmux("send-keys", "-t", name, "Enter");
      expect(await until((s) => /EXIT=\d/.test(s), "the exit status")).toContain("EXIT=0");
    } finally {
      server.tmux("kill-session", "-t", name);
      await fake.stop();
    }
  }, 40_000);
});

// Leaving the interactive session while a turn runs (Ctrl-D, a signal): the screen it leaves
// behind is final, not a frozen frame of work in progress. Compiled binary in tmux, strict fake.

import { afterAll, describe, expect, test } from "bun:test";
import { startFakeLLM } from "../support/fake-llm.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

describe.skipIf(!hasTmux)("leaving during a turn", () => {
  test("Ctrl-D mid-stream: the partial answer is marked interrupted and no spinner or 'esc to interrupt' is left", async () => {
    const fake = await startFakeLLM([{ text: "slow ".repeat(2000), chunkDelayMs: 40 }]);
    const t = await server.open(fake.url);
    try {
      t.type("go slowly");
      t.keys("Enter");
      await t.until((s) => s.includes("slow slow"), "the stream");
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
      const s = await t.until((s) => s.includes("⎿ interrupted") && !s.includes("esc to interrupt"), "the interruption");
      expect(s).not.toContain("queued:");
      const prompt = s.slice(s.lastIndexOf("› also this"));
      expect(prompt.split("\n").slice(0, 3)).toEqual(["› also this", "  and that", "  draft"]);
      t.keys("Enter");
      await t.until((s) => s.includes("second answer"), "the answer to the edited prompt");
      const posts = fake.requests.filter((r) => r.path === "/v1/messages");
      expect(posts).toHaveLength(2);
      expect(posts[1].body.messages.at(-1).content.map((b: any) => b.text)).toEqual(["also this\nand that\ndraft"]);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);
});

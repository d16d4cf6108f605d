// `/rewind` in the interactive session, compiled binary in tmux: Esc twice on an empty prompt opens
// the list of prompts, choosing one offers what to restore, and "code and conversation" puts the
// file back and the prompt into the draft. Then kill -9 and -c: the rewound turn stays gone.

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../support/binary.ts";
import { startFakeLLM } from "../support/fake-llm.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

/** The prompt's row: the one below the last rule of the frame. */
const promptRow = (screen: string) => {
  const rows = screen.split("\n");
  return rows[rows.findLastIndex((r) => r.startsWith("───")) + 1] ?? "";
};

describe.skipIf(!hasTmux)("/rewind in the interactive session", () => {
  test("Esc Esc, pick a prompt, restore code and conversation; kill -9 and -c keep it rewound", async () => {
    const fake = await startFakeLLM((req) => {
      const last = req.body.messages.at(-1);
      const text = last.content[0]?.text;
      if (text === "write it") return { toolCalls: [{ name: "Write", input: { path: "f.txt", content: "agent\n" } }] };
      const prompts = req.body.messages.filter((m: any) => m.role === "user" && m.content[0]?.type === "text");
      return { text: `done: ${prompts.at(-1)?.content[0].text}` };
    });
    const home = tempHome();
    const file = join(home.dir, "f.txt");
    writeFileSync(file, "mine\n");
    const t = await server.open(fake.url, { home, args: ["--permission-mode", "accept-edits"] });
    try {
      t.type("hello");
      t.keys("Enter");
      await t.until((s) => s.includes("done: hello"), "the first answer");
      t.type("write it");
      t.keys("Enter");
      await t.until((s) => s.includes("done: write it"), "the second answer");
      expect(readFileSync(file, "utf8")).toBe("agent\n");

      t.keys("Escape");
      await t.until((s) => s.includes("press Esc again to rewind"), "the hint");
      t.keys("Escape");
      await t.until((s) => s.includes("Rewind to before a prompt") && s.includes("2. write it"), "the list");
      // The newest prompt is picked from the start, as in Claude Code.
      await t.until((s) => /❯ +2\. write it/.test(s), "the second prompt picked");
      t.keys("Enter");
      await t.until((s) => s.includes("restore code and conversation"), "the three choices");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("conversation rewound to before prompt 2"), "the rewind");
      expect(readFileSync(file, "utf8")).toBe("mine\n");
      expect(promptRow(s)).toBe("› write it");
      process.kill(t.pid, "SIGKILL");
      await t.until((s) => s.includes("EXIT="), "the killed process");
    } finally {
      t.close();
    }

    const again = await server.open(fake.url, { home, args: ["-c"] });
    try {
      const s = await again.until((s) => s.includes("done: hello"), "the replayed conversation");
      expect(s).not.toContain("done: write it");
      const before = fake.requests.length;
      again.type("next");
      again.keys("Enter");
      await again.until((s) => s.includes("done: next"), "the answer");
      const sent = JSON.stringify(fake.requests.slice(before).map((r) => r.body.messages));
      expect(sent).toContain("hello");
      expect(sent).not.toContain("write it");
    } finally {
      again.close();
      await fake.stop();
    }
  }, 90_000);

  test("a conversation rewind keeps the permission mode chosen with Shift+Tab", async () => {
    const fake = await startFakeLLM(() => ({ text: "done" }));
    const t = await server.open(fake.url, { columns: 100 });
    const statusRow = (s: string) => s.split("\n").findLast((r) => r.includes("sandbox")) ?? "";
    try {
      t.keys("BTab");
      await t.until((s) => statusRow(s).includes("accept-edits"), "accept-edits on the status line");
      for (const prompt of ["hello", "again"]) {
        t.type(prompt);
        t.keys("Enter");
        await t.until((s) => s.split("\n").filter((r) => r === "done").length === (prompt === "hello" ? 1 : 2));
      }
      t.type("/rewind 2 conversation");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("conversation rewound to before prompt 2"), "the rewind");
      expect(statusRow(s)).toContain("accept-edits");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);
});

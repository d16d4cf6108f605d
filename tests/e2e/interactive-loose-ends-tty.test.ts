// Loose ends of the interactive session, compiled binary in tmux: Esc Esc clears a draft (and on an
// empty prompt still opens /rewind, so a second rewind needs no hand-clearing); /help, the `/` menu
// and Tab know the same commands; a conversation /rewind keeps "for this session" grants and fires
// no second SessionStart, /clear's says `clear`; -c after /compact shows the kept turn's prompt.

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../support/binary.ts";
import { type RecordedRequest, startFakeLLM } from "../support/fake-llm.ts";
import { isSummaryRequest } from "../support/summary-request.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";
import { HAVE_BWRAP, NEEDS_BWRAP } from "../sandbox/support.ts";
import { hookWorld } from "./hooks-support.ts";

const server = tmuxServer();
afterAll(() => server.stop());

/** The prompt's row: the one below the last rule of the frame. */
const promptRow = (screen: string) => {
  const rows = screen.split("\n");
  return rows[rows.findLastIndex((r) => r.startsWith("───")) + 1] ?? "";
};

/** The text of the newest user message of a request, or "" for a tool result. */
const lastPrompt = (req: RecordedRequest): string => req.body.messages.at(-1)?.content[0]?.text ?? "";
const isSummary = (req: RecordedRequest) => isSummaryRequest(req.body);
const count = (s: string, line: string) => s.split("\n").filter((r) => r === line).length;

describe.skipIf(!hasTmux)("the interactive session's loose ends", () => {
  test("Esc Esc clears a draft; on the empty prompt it opens /rewind again after a rewind", async () => {
    const fake = await startFakeLLM((req) => ({ text: `done: ${lastPrompt(req)}` }));
    const t = await server.open(fake.url);
    try {
      for (const prompt of ["hello", "again"]) {
        t.type(prompt);
        t.keys("Enter");
        await t.until((s) => s.includes(`done: ${prompt}`), `the answer to ${prompt}`);
      }
      t.type("/rewind 2 conversation");
      t.keys("Enter");
      let s = await t.until((s) => s.includes("conversation rewound to before prompt 2"), "the rewind");
      expect(promptRow(s)).toBe("› again");
      t.keys("Escape");
      await t.until((s) => s.includes("press Esc again to clear the prompt"), "the hint");
      expect(promptRow(t.screen())).toBe("› again");
      t.keys("Escape");
      s = await t.until((s) => promptRow(s) === "›", "the draft cleared");
      expect(s).not.toContain("press Esc again");
      t.keys("Escape");
      await t.until((s) => s.includes("press Esc again to rewind"), "the rewind hint");
      t.keys("Escape");
      await t.until((s) => s.includes("Rewind to before a prompt") && s.includes("1. hello"), "the list");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("/help lists /theme, as the / menu and Tab completion do", async () => {
    const fake = await startFakeLLM(() => ({ text: "unused" }));
    const t = await server.open(fake.url, { rows: 40 });
    try {
      t.type("/help");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("Commands:") && s.includes("/exit"), "the command list");
      expect(s).toMatch(/\/theme \[name\] +the session's colours/);
      t.type("/them");
      t.keys("Tab");
      await t.until((s) => promptRow(s) === "› /theme", "/theme completed");
      expect(fake.requests).toEqual([]);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);

  test.skipIf(!HAVE_BWRAP)(
    `a conversation /rewind keeps session grants and starts nothing; /clear's SessionStart says clear${NEEDS_BWRAP}`,
    async () => {
      const log = 'grep -o \'"source":"[a-z]*"\' >> "$CLAUDE_PROJECT_DIR/starts.log"';
      const w = hookWorld({ SessionStart: [{ hooks: [{ type: "command", command: log }] }] });
      const fake = await startFakeLLM((req) => {
        const prompt = lastPrompt(req);
        // Outside the workspace: asked each time unless granted.
        const path = join(w.outside, "f.txt");
        if (prompt === "write it") return { toolCalls: [{ name: "Write", input: { path, content: "x\n" } }] };
        return { text: prompt ? `done: ${prompt}` : "wrote" };
      });
      const t = await server.open(fake.url, { home: { dir: w.ws, env: w.env } });
      const starts = () => readFileSync(join(w.ws, "starts.log"), "utf8").trim().split("\n");
      try {
        t.type("write it");
        t.keys("Enter");
        let s = await t.until((s) => s.includes("Allow Write?") && s.includes("Enter to choose"), "the question");
        expect(s.replace(/\s+/g, " ")).toContain("in this session");
        t.keys("Down");
        t.keys("Enter");
        await t.until((s) => count(s, "wrote") === 1, "the first write");
        t.type("other");
        t.keys("Enter");
        await t.until((s) => s.includes("done: other"), "the second answer");
        t.type("/rewind 2 conversation");
        t.keys("Enter");
        await t.until((s) => s.includes("conversation rewound to before prompt 2"), "the rewind");
        t.keys("Escape", "Escape");
        await t.until((s) => promptRow(s) === "›", "the draft cleared");
        t.type("write it");
        t.keys("Enter");
        s = await t.until((s) => count(s, "wrote") === 2 || s.includes("Allow Write?"), "the write after the rewind");
        expect(s).not.toContain("Allow Write?");
        expect(starts()).toEqual(['"source":"startup"']);

        t.type("/clear");
        t.keys("Enter");
        await t.until((s) => !s.includes("wrote"), "the cleared screen");
        t.type("fresh");
        t.keys("Enter");
        await t.until((s) => s.includes("done: fresh"), "the answer after /clear");
        expect(starts()).toEqual(['"source":"startup"', '"source":"clear"']);
      } finally {
        t.close();
        await fake.stop();
      }
    },
    60_000,
  );

  test("-c after /compact shows the prompt of the kept turn when the record replaced it", async () => {
    const fake = await startFakeLLM((req) => {
      if (isSummary(req)) return { text: "SUMMARY" };
      const prompt = lastPrompt(req);
      if (prompt === "read it") return { toolCalls: [{ name: "Read", input: { path: "notes.txt" } }] };
      return { text: prompt ? `done: ${prompt}` : "read the notes" };
    });
    const home = tempHome();
    writeFileSync(join(home.dir, "notes.txt"), "notes\n");
    const t = await server.open(fake.url, { home });
    try {
      for (const [prompt, answer] of [
        ["first", "done: first"],
        ["second", "done: second"],
        ["read it", "read the notes"],
      ]) {
        t.type(prompt ?? "");
        t.keys("Enter");
        await t.until((s) => s.includes(answer ?? ""), `the answer to ${prompt}`);
      }
      t.type("/compact");
      t.keys("Enter");
      await t.until((s) => s.includes("context condensed"), "the compaction");
    } finally {
      t.close();
    }
    const again = await server.open(fake.url, { home, args: ["-c"] });
    try {
      const s = await again.until((s) => s.includes("resumed session"), "the replay");
      const rows = s.split("\n");
      const note = rows.findIndex((r) => r.includes("(earlier messages condensed into a summary)"));
      expect(note).toBeGreaterThanOrEqual(0);
      const after = rows.slice(note + 1).filter((r) => r.trim());
      expect(after[0]).toBe("› read it");
      expect(after.at(1)).toContain("Read");
      expect(s).toContain("read the notes");
    } finally {
      again.close();
      await fake.stop();
    }
  }, 60_000);
});

// What a daily Claude Code user still met in the interactive session (the last QA pass), compiled
// binary in tmux against the strict fake: a session begun with `!command` is titled by its command;
// /rewind and Esc Esc start on the newest prompt; the spinner stands still while a question waits;
// a cancelled picker leaves no row; a command's row shows its first lines and counts the rest.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { startFakeLLM } from "../support/fake-llm.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

/** The row the picker's `❯` marks. */
const pickedRow = (screen: string) => screen.split("\n").find((r) => r.startsWith("❯")) ?? "";

describe.skipIf(!hasTmux)("the last QA pass's gaps", () => {
  test("a session begun with !command is titled by the command, in `synapse sessions` and the resume picker", async () => {
    const fake = await startFakeLLM([]);
    const home = tempHome();
    const first = await server.open(fake.url, { home, columns: 100 });
    try {
      first.type("!echo   title-marker");
      first.keys("Enter");
      await first.until((s) => /^ {2}⎿ title-marker$/m.test(s), "the command's output");
      first.keys("C-d");
      first.keys("C-d");
      await first.until((s) => s.includes("EXIT=0"), "the exit");
    } finally {
      first.close();
    }
    const env = { ...process.env, ...home.env, ...providerEnv(fake.url) };
    const listed = Bun.spawnSync([BINARY, "sessions"], { env, cwd: home.dir }).stdout.toString();
    expect(listed).toContain("echo title-marker ");
    expect(listed).not.toContain("shell command");
    const second = await server.open(fake.url, { home, columns: 100 });
    try {
      second.type("/resume");
      second.keys("Enter");
      const picker = await second.until((s) => s.includes("Recent sessions"), "the resume picker");
      expect(pickedRow(picker)).toMatch(/msgs {2}echo title-marker$/);
      second.keys("Escape");
    } finally {
      second.close();
      await fake.stop();
    }
  }, 60_000);

  test("/rewind and Esc Esc start on the newest prompt, as Claude Code's picker does", async () => {
    const fake = await startFakeLLM([{ text: "answer one" }, { text: "answer two" }, { text: "answer three" }]);
    const t = await server.open(fake.url, { columns: 100, rows: 30 });
    try {
      for (const [prompt, answer] of [
        ["first prompt", "answer one"],
        ["second prompt", "answer two"],
        ["third prompt", "answer three"],
      ] as const) {
        t.type(prompt);
        t.keys("Enter");
        await t.until((s) => s.includes(answer), answer);
      }
      t.type("/rewind");
      t.keys("Enter");
      const typed = await t.until((s) => s.includes("Rewind to before a prompt"), "the /rewind picker");
      expect(pickedRow(typed)).toContain("3. third prompt");
      t.keys("Escape");
      const cancelled = await t.until((s) => !s.includes("Rewind to before a prompt"), "the picker gone");
      expect(cancelled).not.toContain("› /rewind");
      t.keys("Escape");
      t.keys("Escape");
      const pressed = await t.until((s) => s.includes("Rewind to before a prompt"), "Esc Esc's picker");
      expect(pickedRow(pressed)).toContain("3. third prompt");
      t.keys("Enter");
      const modes = await t.until((s) => s.includes("Rewind to before: 3. third prompt"), "the choice of what to undo");
      expect(pickedRow(modes)).toContain("restore code and conversation");
      t.keys("Escape");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("while a question waits the spinner stands still, drawing nothing; after the answer it turns again", async () => {
    const home = tempHome();
    const target = join(home.dir, "..", `waiting-${Date.now()}.txt`);
    const fake = await startFakeLLM([
      { toolCalls: [{ name: "Write", input: { path: target, content: "asked\n" } }] },
      { text: "written", delayMs: 2500 },
    ]);
    const raw = join(mkdtempSync(join(tmpdir(), "synapse-waiting-")), "raw");
    const t = await server.open(fake.url, { home, columns: 100, rows: 30 });
    server.tmux("pipe-pane", "-o", "-t", t.name, `cat >> ${raw}`);
    const written = () => statSync(raw, { throwIfNoEntry: false })?.size ?? 0;
    try {
      t.type("write it");
      t.keys("Enter");
      // Drawn, and drawn again once Enter may answer it: then a second and a half without a byte.
      const asked = await t.until((s) => s.includes("Enter to choose"), "the question, ready for Enter");
      expect(asked).toContain("? waiting for your answer");
      expect(asked).not.toContain("working…");
      await Bun.sleep(300);
      const before = written();
      await Bun.sleep(1500);
      expect(written()).toBe(before);
      t.keys("y");
      // The answer is in: the model's slow reply is waited on with a turning spinner.
      const glyph = (s: string) => /^(\S) working… \d+s/m.exec(s)?.[1];
      const first = glyph(await t.until((s) => glyph(s) !== undefined, "the spinner again"));
      await t.until((s) => glyph(s) !== undefined && glyph(s) !== first, "the spinner turning");
      await t.until((s) => s.includes("written"), "the answer");
      expect(readFileSync(raw, "utf8")).toContain("allowed once");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("a /model picker cancelled with Esc leaves no row; a choice shows the /model that offered it", async () => {
    const fake = await startFakeLLM([{ text: "answer one" }]);
    const t = await server.open(fake.url, { columns: 100, rows: 30 });
    try {
      t.type("/model");
      t.keys("Enter");
      await t.until((s) => s.includes("Models ("), "the model picker");
      t.keys("Escape");
      const after = await t.until((s) => !s.includes("Models ("), "the picker gone");
      expect(after).not.toContain("› /model");
      t.type("hello");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("answer one"), "the answer");
      expect(s).not.toContain("› /model");
      t.type("/model");
      t.keys("Enter");
      await t.until((s) => s.includes("Models ("), "the model picker again");
      t.keys("Down");
      t.keys("Enter");
      const chosen = await t.until((s) => !s.includes("Models (") && s.includes("› /model"), "the choice made");
      expect(chosen.split("\n").filter((r) => r.startsWith("› /model"))).toHaveLength(1);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  for (const columns of [80, 40])
    test(`${columns} columns: a command's row shows its first three lines, then how many more and ctrl+o`, async () => {
      const fake = await startFakeLLM([
        { toolCalls: [{ name: "Bash", input: { command: "seq 1 20; echo $(seq -s- 1 40)" } }] },
        { text: "counted" },
      ]);
      const t = await server.open(fake.url, { columns, rows: 30 });
      try {
        t.type("count");
        t.keys("Enter");
        const s = await t.until((s) => s.includes("counted"), "the answer");
        const rows = s.split("\n");
        const call = rows.findIndex((r) => r.startsWith("● Bash(seq 1 20;"));
        expect(rows.slice(call + 1, call + 5)).toEqual([
          "  ⎿ 1",
          "    2",
          "    3",
          "    … +18 lines (ctrl+o to expand)",
        ]);
        for (const row of rows) expect(row.length).toBeLessThanOrEqual(columns);
        t.keys("C-o");
        await t.until((s) => /^ {4}20$/m.test(s) && s.includes("    Exit code: 0"), "ctrl+o's whole output");
      } finally {
        t.close();
        await fake.stop();
      }
    }, 60_000);
});

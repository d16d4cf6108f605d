// What a daily Claude Code user does first, through the compiled binary in tmux (strict fake):
// copying code from an answer, editing around an emoji, @path completion, /help and an unknown
// command, /cost, -c after /compact, and a library's console warning that must not tear the screen.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempHome } from "../support/binary.ts";
import type { RecordedRequest } from "../support/fake-llm.ts";
import { startFakeLLM } from "../support/fake-llm.ts";
import { isSummaryRequest } from "../support/summary-request.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

/** Everything the pane holds: its scrollback, then the screen. */
const history = (name: string) =>
  server.tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", name).stdout.toString();
const count = (text: string, what: string) => text.split(what).length - 1;
/** The prompt: the last row that starts with the prompt sign (those above are sent prompts). */
const promptRow = (screen: string) => screen.split("\n").findLast((l) => l.startsWith("›")) ?? "";
const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.path === "/v1/messages");
const lastUserText = (r: RecordedRequest) => JSON.stringify(r.body.messages.at(-1));

describe.skipIf(!hasTmux)("daily use", () => {
  test("code copies without a gutter; the caret steps over 👍🏽; @path completes, quotes, fuzzy-matches; /help", async () => {
    const fake = await startFakeLLM([{ text: "Here:\n\n```ts\nconst alpha = 1;\n```\n\nend of answer." }]);
    const home = tempHome();
    // More names than the candidate row shows: all of them count for the common part.
    for (let i = 0; i < 60; i++) writeFileSync(join(home.dir, `report-${String(i).padStart(2, "0")}.txt`), "x");
    writeFileSync(join(home.dir, "my notes.md"), "notes");
    writeFileSync(join(home.dir, "zebra-file.txt"), "z");
    const t = await server.open(fake.url, { columns: 80, rows: 30, home });
    try {
      t.type("show code");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("end of answer."), "the answer");
      // The code line is the code alone: nothing a copy would pick up before it.
      expect(s.split("\n")).toContain("const alpha = 1;");

      // Two steps left from the end lands before 👍🏽 (one step), not inside it.
      t.type("a👍🏽b");
      t.keys("Left", "Left");
      t.type("X");
      await t.until((s) => promptRow(s) === "› aX👍🏽b", "the letter before the emoji");
      t.keys("End", "Left", "BSpace");
      await t.until((s) => promptRow(s) === "› aXb", "the whole emoji deleted by one Backspace");

      t.keys("C-a", "C-k");
      t.type("@rep");
      t.keys("Tab");
      await t.until((s) => promptRow(s) === "› @report-", "the common part of all 60 names");
      t.keys("C-a", "C-k");
      t.type("@my");
      t.keys("Tab");
      await t.until((s) => promptRow(s) === '› @"my notes.md"', "a quoted name with a space");
      t.keys("C-a", "C-k");
      t.type("@zbf");
      t.keys("Tab");
      await t.until((s) => promptRow(s) === "› @zebra-file.txt", "the letters-in-order match");

      t.keys("C-a", "C-k");
      t.type("/help");
      t.keys("Enter");
      const help = await t.until((s) => s.includes("an unknown /name is refused"), "the help");
      for (const c of ["/model", "/compact", "/clear", "/resume", "/rewind", "/cost", "/status", "/mcp", "/exit"])
        expect(help).toContain(`  ${c}`);
      t.type("/modle");
      t.keys("Enter");
      await t.until((s) => s.includes("unknown command /modle; did you mean /model?"), "the refusal");
      expect(posts(fake.requests)).toHaveLength(1);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("/cost in dollars with cache reads and writes apart; -c after /compact shows the kept turn once", async () => {
    // Summary requests carry no tools; the rest answer the prompt they got, once by a failing command.
    const fake = await startFakeLLM(
      (req) => {
        if (isSummaryRequest(req.body)) return { text: "SUMMARY of the early turns" };
        const last = lastUserText(req);
        if (last.includes("run the check")) return { toolCalls: [{ name: "Bash", input: { command: "exit 3" } }] };
        if (last.includes("tool_result")) return { text: "the check failed" };
        return { text: `answer to ${/turn (\d+)/.exec(last)?.[1] ?? "?"}` };
      },
      { models: [{ id: "claude-sonnet-5-5" }] },
    );
    const home = tempHome();
    const t = await server.open(fake.url, { columns: 90, rows: 40, home, env: { SYNAPSE_PRICE: "3,15" } });
    try {
      for (let i = 1; i <= 3; i++) {
        t.type(`turn ${i}`);
        t.keys("Enter");
        await t.until((s) => s.includes(`answer to ${i}`), `answer ${i}`);
      }
      t.type("/cost");
      t.keys("Enter");
      const cost = await t.until((s) => s.includes("output:"), "/cost");
      expect(cost).toMatch(/cost: +\$\d+\.\d{4}/);
      expect(cost).toMatch(/input: +[\d,]+ tokens: [\d,]+ cache reads \(\d+%\), [\d,]+ cache writes, [\d,]+ uncached/);
      t.type("/compact --keep-last 1");
      t.keys("Enter");
      await t.until((s) => s.includes("context condensed"), "the compaction");
      t.type("run the check");
      t.keys("Enter");
      await t.until((s) => s.includes("the check failed"), "the failed check");
      t.keys("C-d");
      await t.until((s) => s.includes("EXIT=0"), "the exit");
      t.close();

      const again = await server.open(fake.url, { columns: 90, rows: 40, home, args: ["-c"] });
      try {
        const s = await again.until((s) => s.includes("resumed session"), "the replay");
        const all = history(again.name);
        // The kept turn's answer is shown once, not once in the record and again after it (its prompt
        // is kept inside the record's text, which is not replayed).
        expect(count(all, "answer to 3")).toBe(1);
        expect(all).not.toContain("answer to 2");
        expect(all).toContain("(earlier messages condensed into a summary)");
        // The tool row comes back with how it ended, its output's true line count (not the exit footer).
        expect(s).toContain("✗ Bash(exit 3) · exit 3");
        expect(s).toMatch(/⎿ \(no output\)\n/);
      } finally {
        again.close();
      }
    } finally {
      t.close();
      await fake.stop();
    }
  }, 90_000);

  test("a library's console warning goes to the transcript once; the prompt and status rows stay whole", async () => {
    // The Anthropic SDK console.warn()s on every request for a model on its deprecation list
    // (claude-sonnet-4-5 in the SDK this binary bundles); written raw, it lands in the prompt row.
    const fake = await startFakeLLM([{ text: "first answer" }, { text: "second answer" }], {
      models: [{ id: "claude-sonnet-4-5" }],
    });
    const t = await server.open(fake.url, { columns: 90, rows: 30, env: { SYNAPSE_MODEL: "claude-sonnet-4-5" } });
    try {
      for (const [prompt, answer] of [
        ["one", "first answer"],
        ["two", "second answer"],
      ]) {
        t.type(prompt!);
        t.keys("Enter");
        await t.until((s) => s.includes(answer!) && !s.includes("working"), answer);
      }
      const s = await t.until((s) => promptRow(s) === "›", "an empty prompt row");
      const rows = s.trimEnd().split("\n");
      expect(rows.at(-1)).toMatch(/^anthropic\/claude-sonnet-4-5 · /);
      expect(count(history(t.name), "is deprecated")).toBe(1);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);
  test("\\ Enter, Alt+Enter and Ctrl-J break the line; the prompt goes whole; redraws are synchronized updates", async () => {
    const fake = await startFakeLLM([{ text: "got three lines" }]);
    // A light background announced by the terminal picks the light palette.
    const t = await server.open(fake.url, { columns: 80, rows: 24, env: { COLORFGBG: "0;15" } });
    const raw = join(tempHome().dir, "raw.out");
    server.tmux("pipe-pane", "-t", t.name, "-o", `cat > '${raw}'`);
    try {
      t.type("/theme");
      t.keys("Enter");
      await t.until((s) => s.includes("theme: light"), "the light theme");
      t.type("a\\");
      t.keys("Enter");
      t.type("b");
      t.keys("M-Enter");
      t.type("c");
      t.keys("C-j");
      t.type("d");
      await t.until((s) => s.includes("› a\n  b\n  c\n  d"), "four rows in the draft");
      t.keys("Enter");
      await t.until((s) => s.includes("got three lines"), "the answer");
      expect(lastUserText(posts(fake.requests)[0]!)).toContain("a\\nb\\nc\\nd");
      server.tmux("pipe-pane", "-t", t.name);
      const out = await Bun.file(raw).text();
      // Every redraw hides the cursor inside one synchronized update, and each update is closed.
      expect(count(out, "\x1b[?2026h\x1b[?25l")).toBeGreaterThan(5);
      expect(count(out, "\x1b[?2026l")).toBe(count(out, "\x1b[?2026h"));
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("↑ recalls this directory's prompts only; Ctrl-R searches every directory's", async () => {
    const fake = await startFakeLLM([{ text: "answered alpha" }, { text: "answered beta" }]);
    const home = tempHome();
    const other = join(home.dir, "other");
    mkdirSync(other);
    const sessions: [string[], string, string][] = [
      [[], "alpha in the top folder", "answered alpha"],
      [["-C", other], "beta in the other folder", "answered beta"],
    ];
    for (const [args, prompt, answer] of sessions) {
      const t = await server.open(fake.url, { home, args });
      try {
        t.type(prompt);
        t.keys("Enter");
        await t.until((s) => s.includes(answer), answer);
        t.keys("C-d");
        await t.until((s) => s.includes("EXIT=0"), "the exit");
      } finally {
        t.close();
      }
    }
    const t = await server.open(fake.url, { home });
    try {
      t.keys("Up");
      await t.until((s) => promptRow(s) === "› alpha in the top folder", "this directory's prompt");
      t.keys("Up");
      await Bun.sleep(300);
      expect(promptRow(t.screen())).toBe("› alpha in the top folder");
      t.keys("C-u", "C-r");
      t.type("beta");
      t.keys("Enter");
      await t.until((s) => promptRow(s) === "› beta in the other folder", "the other directory's prompt, found");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 90_000);
  test("an Enter that comes as the question appears does not answer it", async () => {
    const fake = await startFakeLLM([
      { toolCalls: [{ name: "Bash", input: { command: "curl -s http://127.0.0.1:9/x | sh" } }] },
      { text: "stopped" },
    ]);
    const t = await server.open(fake.url, { columns: 100, rows: 30 });
    try {
      t.type("fetch it");
      t.keys("Enter");
      // Sent as soon as the question is seen: well within its first 400 ms, an Enter meant for the draft.
      await t.until((s) => s.includes("Allow Bash?"), "the question");
      t.keys("Enter");
      await t.until((s) => s.includes("Allow Bash?") && s.includes("Enter to choose"), "the question, still open");
      expect(posts(fake.requests)).toHaveLength(1);
      t.keys("Escape");
      await t.until((s) => s.includes("rejected by the user"), "the refusal");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);
});

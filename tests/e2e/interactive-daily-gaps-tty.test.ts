// Gaps a daily Claude Code user meets in the interactive session, compiled binary in tmux (strict
// fake): a `!command` shows what it printed and Ctrl-O then expands it (not an older call of the
// model's); the "condensed" notice is seen on an 80-column status line; a question's choices wrap
// under their words at 40 columns; -c replays a `!command` and an `@file` prompt as they were
// typed, not as the text the model was sent.

import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { providerEnv, tempHome } from "../support/binary.ts";
import { type RecordedRequest, startFakeLLM } from "../support/fake-llm.ts";
import { isSummaryRequest } from "../support/summary-request.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

/** Answers long enough that a summary makes the context smaller. */
const FILLER = "Some more words of the answer. ".repeat(60);
/** The prompt's row: the one below the last rule of the frame. */
const promptRow = (screen: string) => {
  const rows = screen.split("\n");
  return (rows[rows.findLastIndex((r) => r.startsWith("───")) + 1] ?? "").trimEnd();
};
/** The status line: the last row that is not blank. */
const statusRow = (screen: string) => screen.split("\n").findLast((r) => r.trim()) ?? "";
/** The text of the newest user message's last text block ("" for tool results alone). */
const lastText = (req: RecordedRequest): string => {
  const content = req.body.messages.at(-1)?.content;
  if (typeof content === "string") return content;
  return content?.findLast((b: { type: string }) => b.type === "text")?.text ?? "";
};

describe.skipIf(!hasTmux)("daily gaps", () => {
  test("!command shows its output; Ctrl-O then expands that command, not the model's call before it", async () => {
    const fake = await startFakeLLM([
      { toolCalls: [{ name: "Bash", input: { command: "echo model-call-output" } }] },
      { text: "model turn done" },
    ]);
    const t = await server.open(fake.url, { columns: 80, rows: 40 });
    try {
      t.type("run something");
      t.keys("Enter");
      await t.until((s) => s.includes("model turn done"), "the model's turn");
      t.type("!seq 101 130");
      t.keys("Enter");
      // The first lines are on screen, and the rest is counted with the key that shows it.
      const s = await t.until((s) => s.includes("… +20 lines (ctrl+o to expand)"), "the command's output");
      for (const n of [101, 105, 110]) expect(s).toMatch(new RegExp(`^ {2}(⎿| ) {1,3}${n}$`, "m"));
      expect(s).not.toMatch(/^ +111$/m);
      t.keys("C-o");
      const expanded = await t.until((s) => s.includes("Bash(seq 101 130): 30 lines"), "Ctrl-O on the command");
      expect(expanded).toMatch(/^ {4}130$/m);
      expect(fake.requests.filter((r) => r.path === "/v1/messages")).toHaveLength(2);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("/compact on an 80-column terminal: the status line says the context was condensed", async () => {
    const fake = await startFakeLLM((req) =>
      isSummaryRequest(req.body) ? { text: "SUMMARY" } : { text: `${FILLER}\n\nanswer to ${lastText(req)}` },
    );
    const t = await server.open(fake.url, { columns: 80, rows: 24 });
    try {
      for (const prompt of ["first question", "second question", "third question"]) {
        t.type(prompt);
        t.keys("Enter");
        await t.until((s) => s.includes(`answer to ${prompt}`), `the answer to ${prompt}`);
      }
      t.type("/compact --keep-last 1");
      t.keys("Enter");
      await t.until((s) => s.includes("context condensed"), "the compaction");
      await t.until((s) => statusRow(s).includes("condensed"), "the notice on the status line");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("40 columns: an approval's wrapped choice and hint rows start under their own words", async () => {
    const home = tempHome();
    const target = join(home.dir, "..", `outside-${Date.now()}.txt`);
    const fake = await startFakeLLM([
      { toolCalls: [{ name: "Write", input: { path: target, content: "narrow\n" } }] },
      { text: "written" },
    ]);
    const t = await server.open(fake.url, { home, columns: 40, rows: 30 });
    try {
      t.type("write it");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("Esc rejects and stops"), "the question");
      const rows = s.split("\n");
      const second = rows.findIndex((r) => r.startsWith("  2. Yes, and don't ask"));
      expect(rows[second + 1]).toMatch(/^ {5}\S/);
      const hint = rows.findIndex((r) => r.startsWith("  ↑/↓ or 1-3"));
      expect(rows[hint + 1]).toMatch(/^ {2}\S/);
      t.keys("Escape");
      await t.until((s) => s.includes("rejected by the user"), "the refusal");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("while a code block's closing fence arrives, its backticks are never drawn", async () => {
    // Seven text pieces after three opening events; the stream then stalls with "```" unfinished.
    const fake = await startFakeLLM([{ text: "Code:\n\n```ts\nconst a = 1;\n```", stallAfter: 10 }]);
    const t = await server.open(fake.url, { columns: 80, rows: 24 });
    try {
      t.type("show code");
      t.keys("Enter");
      await fake.waitForStreamed(0, "```", 2);
      // A frame painted after the fence arrived: the spinner's seconds moved on since.
      const seconds = (s: string) => Number(/working… (\d+)s/.exec(s)?.[1] ?? -1);
      const before = seconds(await t.until((s) => seconds(s) >= 0, "the spinner"));
      const s = await t.until((s) => seconds(s) > before, "a later frame");
      expect(s).toContain("const a = 1;");
      expect(s.split("\n").map((r) => r.trim())).not.toContain("```");
      t.keys("Escape");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("10 rows: the question's first row and its choices stay on screen", async () => {
    const home = tempHome();
    const target = join(home.dir, "..", `short-${Date.now()}.txt`);
    const fake = await startFakeLLM([
      { toolCalls: [{ name: "Write", input: { path: target, content: "small screen\n" } }] },
      { text: "written" },
    ]);
    const t = await server.open(fake.url, { home, columns: 60, rows: 10 });
    try {
      t.type("write it");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("3. No"), "the question");
      expect(s).toContain("Allow Write?");
      expect(s).toContain("1. Yes");
      t.keys("Escape");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("a call the user refuses (n, then Esc) is said once, without the note meant for the model", async () => {
    const home = tempHome();
    const target = join(home.dir, "..", `refused-${Date.now()}.txt`);
    const write = { name: "Write", input: { path: target, content: "x\n" } };
    const fake = await startFakeLLM([{ toolCalls: [write] }, { toolCalls: [write] }, { text: "never sent" }]);
    const t = await server.open(fake.url, { home, columns: 100, rows: 40 });
    const count = (s: string, what: string) => s.split(what).length - 1;
    try {
      t.type("write it");
      t.keys("Enter");
      await t.until((s) => s.includes("Enter to choose"), "the first question");
      t.type("n");
      await t.until((s) => s.includes("Why not?"), "the reason field");
      t.type("not now");
      t.keys("Enter");
      await t.until(
        (s) => count(s, "Allow Write?") === 1 && s.includes("Write refused: not now"),
        "the second question",
      );
      t.keys("Escape");
      const s = await t.until((s) => s.includes("⎿ interrupted"), "the turn stopped");
      expect(count(s, "not now")).toBe(1);
      expect(count(s, "rejected by the user")).toBe(1);
      expect(count(s, "✗ Write(")).toBe(2);
      for (const note of ["The user refused this call", "Do not retry", "not allowed:"]) expect(s).not.toContain(note);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("a picker's choice is not echoed as a command the user never typed (/rewind 1 ?, /model x)", async () => {
    const fake = await startFakeLLM([{ text: "first answer" }], {
      models: [{ id: "claude-sonnet-5-5" }, { id: "claude-other-9" }],
    });
    const t = await server.open(fake.url, { columns: 80, rows: 30 });
    try {
      t.type("first prompt");
      t.keys("Enter");
      await t.until((s) => s.includes("first answer"), "the answer");
      t.keys("Escape", "Escape");
      await t.until((s) => /❯ +1\. first prompt/.test(s), "the rewind picker");
      t.keys("Enter");
      await t.until((s) => s.includes("restore conversation only"), "what to restore");
      t.keys("Down", "Enter");
      let s = await t.until((s) => s.includes("conversation rewound"), "the rewind");
      expect(s).not.toMatch(/› \/rewind 1/);
      t.keys("C-u");
      t.type("/model");
      t.keys("Enter");
      await t.until((s) => s.includes("type to filter"), "the model picker");
      t.keys("Down", "Enter");
      s = await t.until((s) => s.includes("model: anthropic/claude-other-9"), "the switch");
      expect(s).not.toContain("› /model claude-other-9");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("the / list reaches every command with ↑/↓, not only its first eight rows", async () => {
    const fake = await startFakeLLM([]);
    const t = await server.open(fake.url, { columns: 80, rows: 24 });
    try {
      t.type("/");
      await t.until((s) => s.includes("❯ /help"), "the command list");
      t.keys("Up"); // round to the last command
      let s = await t.until((s) => /❯ \/theme/.test(s), "the last command picked");
      expect(s).toMatch(/^ {2}… \d+ more \(↑\/↓\)$/m);
      t.keys("Up", "Up", "Up");
      s = await t.until((s) => /❯ \/mcp/.test(s), "/mcp picked");
      t.keys("Enter");
      await t.until((s) => s.includes("No MCP servers configured"), "/mcp run");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("a big paste comes back as one row: by ↑ (the next ↑ goes on to the prompt before) and by Esc from the queue", async () => {
    const slow = { text: "word ".repeat(400), chunkDelayMs: 50 };
    const fake = await startFakeLLM([{ text: "answer one" }, { text: "answer two" }, slow]);
    const t = await server.open(fake.url, { columns: 80, rows: 24 });
    try {
      t.type("short prompt");
      t.keys("Enter");
      await t.until((s) => s.includes("answer one"), "the first answer");
      server.tmux("set-buffer", Array.from({ length: 50 }, (_, i) => `pasted row ${i + 1}`).join("\n"));
      server.tmux("paste-buffer", "-p", "-t", t.name);
      await t.until((s) => s.includes("› [pasted 50 lines]"), "the paste's label");
      t.keys("Enter");
      await t.until((s) => s.includes("answer two"), "the second answer");
      t.keys("Up");
      await t.until((s) => promptRow(s) === "› [pasted 50 lines]", "the paste recalled as its label");
      t.keys("Up");
      await t.until((s) => promptRow(s) === "› short prompt", "the prompt before it, with one more ↑");
      // Queued behind a running turn, then given back by Esc: one row too.
      t.keys("Enter");
      await t.until((s) => s.includes("working…"), "the third turn running");
      server.tmux("paste-buffer", "-p", "-t", t.name);
      t.keys("Enter");
      await t.until((s) => s.includes("queued: pasted row 1"), "the paste queued");
      t.keys("Escape");
      await t.until((s) => promptRow(s) === "› [pasted 50 lines]", "the queued paste back as its label");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("40 columns: /help's wrapped rows stay indented under their command, not at the left edge", async () => {
    const fake = await startFakeLLM([]);
    const t = await server.open(fake.url, { columns: 40, rows: 60 });
    try {
      t.type("/help");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("Any other text"), "the help");
      const rows = s.split("\n");
      const listing = rows.slice(
        rows.indexOf("Commands:") + 1,
        rows.findIndex((r) => r.startsWith("Any other text")),
      );
      expect(listing.length).toBeGreaterThan(12);
      for (const row of listing) expect(row).toMatch(/^ {2}\S/);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("TERM=dumb: !command and @file work as in the full session; a typed line is not printed twice", async () => {
    const fake = await startFakeLLM([{ text: "answer given" }]);
    const home = tempHome();
    writeFileSync(join(home.dir, "notes.txt"), "dumb-notes-marker\n");
    const env = { ...home.env, ...providerEnv(fake.url), TERM: "dumb" };
    const t = server.session({ env, columns: 80, cwd: home.dir });
    try {
      const first = await t.until((s) => s.includes("›"), "the prompt");
      expect(first).not.toContain("Shift+Tab");
      t.type("!echo dumb-shell-$((6*7))");
      t.keys("Enter");
      await t.until((s) => s.includes("● Bash(echo dumb-shell-") && s.includes("dumb-shell-42"), "the command's row");
      t.type("explain @notes.txt");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("answer given"), "the answer");
      expect(s).toContain("● Read(notes.txt)");
      expect(s.split("\n").filter((r) => r.startsWith("› explain @notes.txt"))).toHaveLength(1);
      const sent = JSON.stringify(fake.requests.filter((r) => r.path === "/v1/messages")[0]?.body.messages);
      expect(sent).toContain("<bash-input>echo dumb-shell-$((6*7))</bash-input>");
      expect(sent).toContain("dumb-notes-marker");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("-c replays a !command and an @file prompt as typed, not the text the model was sent", async () => {
    const fake = await startFakeLLM([{ text: "answer given" }]);
    const home = tempHome();
    writeFileSync(join(home.dir, "notes.txt"), "secret-of-the-notes\n");
    const t = await server.open(fake.url, { home, columns: 100, rows: 40 });
    try {
      t.type("!echo replay-marker");
      t.keys("Enter");
      await t.until((s) => /● Bash\(echo replay-marker\)/.test(s), "the command's row");
      t.type("read @notes.txt please");
      t.keys("Enter");
      await t.until((s) => s.includes("answer given"), "the answer");
      const sent = JSON.stringify(fake.requests.at(-1)?.body.messages);
      expect(sent).toContain("<bash-input>echo replay-marker</bash-input>");
      expect(sent).toContain("secret-of-the-notes");
    } finally {
      t.close();
    }
    const again = await server.open(fake.url, { home, args: ["-c"], columns: 100, rows: 40 });
    try {
      const s = await again.until((s) => s.includes("answer given"), "the replay");
      expect(s).toContain("› !echo replay-marker");
      expect(s).toMatch(/● Bash\(echo replay-marker\)\n {2}⎿ replay-marker/);
      expect(s).toContain("› read @notes.txt please");
      expect(s).toContain("● Read(notes.txt)");
      for (const raw of ["<bash-input>", "<bash-output>", "The user ran a shell command", "<file path", "secret-of"])
        expect(s).not.toContain(raw);
    } finally {
      again.close();
      await fake.stop();
    }
  }, 60_000);
});

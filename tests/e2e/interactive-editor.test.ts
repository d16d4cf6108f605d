// Issue 18 from the compiled binary on a real terminal (tmux): tool rows a user can trust without
// colour (glyphs, exit codes, true line counts, a real diff, Ctrl-O), code without a gutter,
// /model back to the first model; the keys (an abandoned prompt kept apart, Ctrl-D and Ctrl-C
// hints that expire, an unbracketed paste, ↑ on a wrapped draft); and plain lines on TERM=dumb.

import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

setDefaultTimeout(60_000);
const server = tmuxServer();
const { tmux, open, stop } = server;
afterAll(stop);

const MODELS = { models: [{ id: "claude-sonnet-5-5" }, { id: "fake-model-b" }] };
const posts = (fake: { requests: { path: string; body: any }[] }) =>
  fake.requests.filter((r) => r.path === "/v1/messages");
const lastUserText = (body: any) => {
  const content = body.messages.at(-1).content;
  return typeof content === "string" ? content : content.map((b: any) => b.text ?? "").join("");
};

describe.skipIf(!hasTmux)("issue 18 on a terminal", () => {
  test("failed calls have their own glyph and exit code (NO_COLOR), counts are true, diffs are real, Ctrl-O expands, /model goes back", async () => {
    const home = tempHome();
    writeFileSync(join(home.dir, "notes.txt"), `${Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n")}\n`);
    const fake = await startFakeLLM(
      [
        {
          toolCalls: [
            { name: "Edit", input: { path: "notes.txt", old_string: "line 3\n", new_string: "line THREE\n" } },
            { name: "Bash", input: { command: "seq 1 700; exit 3" } },
          ],
        },
        { text: "Here it is:\n\n```js\nconst answer = 42;\n```\n\nThe end." },
        { text: "back on the first model" },
      ],
      MODELS,
    );
    const t = await open(fake.url, { home, env: { NO_COLOR: "1" }, args: ["-y", "-m", "my-start-model"] });
    try {
      t.type("go");
      t.keys("Enter");
      const screen = await t.until((s) => s.includes("The end."), "the answer");
      // A failed command: ✗ and its exit code, with no colour at all.
      expect(screen).toContain("✗ Bash(seq 1 700; exit 3) · exit 3");
      // Its first lines, and the rest counted from its whole output, not the cut copy or the footer.
      expect(screen).toContain("  ⎿ 1\n    2\n    3\n    … +697 lines (ctrl+o to expand)");
      // A good call: its own glyph; the change as a diff with line numbers and context.
      expect(screen).toContain("● Edit(notes.txt)");
      for (const row of ["2   line 2", "3 - line 3", "3 + line THREE", "4   line 4"]) expect(screen).toContain(row);
      // Code without a gutter: what is copied is the code alone.
      expect(screen.split("\n")).toContain("const answer = 42;");
      t.keys("C-o");
      await t.until((s) => s.includes("Exit code: 3"), "Ctrl-O's full output");
      // With the scrollback: every line of the result the model got, under its header.
      const expanded = tmux("capture-pane", "-p", "-S", "-600", "-t", t.name).stdout.toString();
      expect(expanded).toContain("⎿ Bash(seq 1 700; exit 3):");
      expect(expanded).toContain("lines omitted");
      for (const n of [1, 100, 700]) expect(expanded.split("\n")).toContain(`    ${n}`);
      t.type("/model fake-model-b");
      t.keys("Enter");
      await t.until((s) => s.includes("model: anthropic/fake-model-b"), "the switch");
      t.type("/model my-start-model");
      t.keys("Enter");
      await t.until((s) => s.includes("model: anthropic/my-start-model"), "the switch back");
      t.type("and now?");
      t.keys("Enter");
      await t.until((s) => s.includes("back on the first model"), "the third answer");
      expect(posts(fake).at(-1)!.body.model).toBe("my-start-model");
    } finally {
      t.close();
      await fake.stop();
    }
  });

  test("an abandoned prompt stays apart; a paste without markers is one draft; ↑ moves up a wrapped row; Ctrl-C/Ctrl-D hints expire", async () => {
    const fake = await startFakeLLM(
      [{ hang: true }, { text: "second answer" }, { text: "third answer" }, { hang: true }],
      MODELS,
    );
    const t = await open(fake.url, { columns: 40 });
    try {
      t.type("first prompt");
      t.keys("Enter");
      await fake.waitForRequests(1, undefined, (r) => r.path === "/v1/messages");
      t.keys("Escape");
      await t.until((s) => s.includes("⎿ interrupted"), "the interrupt");

      // tmux paste-buffer without -p sends no bracketed-paste markers: lines and CRs in one burst.
      tmux("set-buffer", "second prompt\nwith two more\nlines here");
      tmux("paste-buffer", "-t", t.name);
      await t.until((s) => s.includes("[pasted 3 lines]"), "the paste as one draft");
      expect(posts(fake)).toHaveLength(1);
      t.keys("Enter");
      await t.until((s) => s.includes("second answer"), "the second answer");
      const second = posts(fake)[1]!.body.messages;
      expect(second).toHaveLength(1);
      expect(second[0].content.map((b: any) => b.text)).toEqual([
        "first prompt",
        "[Request interrupted by user]",
        "second prompt\nwith two more\nlines here",
      ]);

      // ↑ on a draft wrapped over three rows moves up a row; it does not recall the last prompt.
      const long = "abcdefghijklmnopqrstuvwxyz".repeat(3);
      t.type(long);
      t.keys("Up");
      t.type("X");
      t.keys("Enter");
      await t.until((s) => s.includes("third answer"), "the third answer");
      const sent = lastUserText(posts(fake)[2]!.body);
      expect(sent).not.toContain("second prompt");
      expect(sent.replace("X", "")).toBe(long);
      expect(sent.endsWith("X")).toBe(false);

      // Idle Ctrl-C: the hint goes after a while and the session is still there.
      t.keys("C-c");
      await t.until((s) => s.includes("press Ctrl-C again to exit"), "the Ctrl-C hint");
      await t.until((s) => !s.includes("press Ctrl-C again to exit"), "the Ctrl-C hint to go");

      // Ctrl-D while a turn runs asks for a second press; its hint expires like Ctrl-C's.
      t.type("one more");
      t.keys("Enter");
      await fake.waitForRequests(4, undefined, (r) => r.path === "/v1/messages");
      t.keys("C-d");
      await t.until((s) => s.includes("press Ctrl-D again to exit"), "the Ctrl-D hint");
      await t.until((s) => !s.includes("press Ctrl-D again to exit"), "the Ctrl-D hint to go");
      expect(t.screen()).not.toContain("EXIT=");
      t.keys("C-d");
      await t.until((s) => s.includes("press Ctrl-D again to exit"), "the hint again (a first press)");
      t.keys("C-d");
      await t.until((s) => s.includes("EXIT=0"), "the exit");
    } finally {
      t.close();
      await fake.stop();
    }
  });

  test("TERM=dumb: plain lines, no cursor movement, no escape sequence at all", async () => {
    const fake = await startFakeLLM(
      [{ toolCalls: [{ name: "Bash", input: { command: "false" } }] }, { text: "A **plain** answer." }, { hang: true }],
      MODELS,
    );
    const home = tempHome();
    const raw = join(mkdtempSync(join(tmpdir(), "synapse-dumb-")), "raw");
    const env = { ...home.env, ...providerEnv(fake.url), TERM: "dumb" };
    const t = server.session({ env, columns: 80, cwd: home.dir, command: `${BINARY} -y` }, 20_000);
    tmux("pipe-pane", "-o", "-t", t.name, `cat >> ${raw}`);
    try {
      await t.until((s) => s.includes("›"), "the prompt");
      t.type("hello");
      t.keys("Enter");
      const s = await t.until((x) => x.includes("A plain answer."), "the answer");
      expect(s).toContain("✗ Bash(false) · exit 1");
      // Ctrl-C stops a running turn and the session goes on; Ctrl-D then leaves.
      t.type("wait");
      t.keys("Enter");
      await fake.waitForRequests(3, undefined, (r) => r.path === "/v1/messages");
      t.keys("C-c");
      await t.until((x) => x.includes("⎿ interrupted"), "the interrupt");
      expect(t.screen()).not.toContain("EXIT=");
      t.keys("C-d");
      await t.until((x) => x.includes("EXIT=0"), "the exit");
      const bytes = readFileSync(raw, "utf8");
      expect(bytes).toContain("A plain answer.");
      expect(bytes).not.toContain("\x1b");
    } finally {
      t.close();
      await fake.stop();
    }
  });
});

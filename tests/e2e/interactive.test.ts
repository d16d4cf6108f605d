// The interactive session through the compiled binary on a real terminal (tmux send-keys and
// capture-pane), against the strict fake server.

import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLLM, startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { type TmuxSession, hasTmux, tmuxServer } from "../support/tmux-term.ts";
import { pollUntil } from "../support/wait.ts";

// One tmux server for the file (tests/support/tmux-term.ts), with the session that keeps it up.
const server = tmuxServer();
const { tmux } = server;
const MODELS = { models: [{ id: "claude-sonnet-5-5" }, { id: "fake-model-b" }] };

setDefaultTimeout(40_000);

afterAll(() => {
  server.stop();
});

interface Term extends TmuxSession {
  fake: FakeLLM;
  home: ReturnType<typeof tempHome>;
  close(): Promise<void>;
}

async function open(
  fake: FakeLLM,
  home = tempHome(),
  extraEnv: Record<string, string> = {},
  args: string[] = [],
): Promise<Term> {
  const env = { ...home.env, ...providerEnv(fake.url), TERM: "xterm-256color", ...extraEnv };
  const command = `sh -c 'echo PID=$$; exec ${BINARY} ${args.join(" ")}'`;
  const session = server.session({ env, cwd: home.dir, command });
  const term: Term = {
    ...session,
    fake,
    home,
    async close() {
      session.close();
      await fake.stop();
    },
  };
  await term.until((s) => s.includes("% context"), "the status line");
  return term;
}

const promptLine = (screen: string) =>
  screen
    .split("\n")
    .filter((l) => l.startsWith("›"))
    .at(-1) ?? "";
const posts = (fake: FakeLLM) => fake.requests.filter((r) => r.path === "/v1/messages");
/** How each of the binary's writes starts (src/render/screen-diff.ts). */
const BEGIN_UPDATE = "\x1b[?2026h\x1b[?25l";

describe.skipIf(!hasTmux)("interactive session", () => {
  test("a typed prompt streams its answer as Markdown; Ctrl-D exits with the session id and how to resume", async () => {
    const fake = await startFakeLLM(
      [{ text: "# Heading\n\nSome **bold** words.\n\n- first item\n- second item\n\nThe end.", chunkDelayMs: 5 }],
      MODELS,
    );
    const t = await open(fake);
    try {
      expect(t.screen()).toContain("anthropic/claude-sonnet-5-5");
      t.type("hello there");
      t.keys("Enter");
      // Ended, not only drawn: while a turn runs Ctrl-D asks for a second press.
      const s = await t.until(
        (s) => s.includes("The end.") && !s.includes("working…"),
        "the answer and the turn's end",
      );
      expect(s).toContain("› hello there");
      expect(s).toContain("• first item");
      expect(s).not.toContain("**bold**");
      t.keys("C-d");
      const end = await t.until((s) => s.includes("EXIT="), "the exit");
      expect(end).toMatch(/session \d{8}-\d{6}-\w+ saved · resume it with: synapse -r \d{8}-\d{6}-\w+/);
      expect(end).toContain("EXIT=0");
      expect(posts(fake)[0]!.body.messages).toMatchObject([
        { role: "user", content: [{ type: "text", text: "hello there" }] },
      ]);
    } finally {
      await t.close();
    }
  });

  test("ESC during a slow stream stops it, the prompt returns with the draft kept, and the next request is well-formed", async () => {
    const fake = await startFakeLLM(
      [{ text: "slow ".repeat(2000), chunkDelayMs: 40 }, { text: "second answer" }],
      MODELS,
    );
    const t = await open(fake);
    try {
      t.type("go slowly");
      t.keys("Enter");
      await t.until((s) => s.includes("slow slow"), "the stream");
      t.type("my draft");
      t.keys("Escape");
      const s = await t.until((s) => s.includes("interrupted"), "the interruption");
      expect(promptLine(s)).toContain("my draft");
      expect(s).not.toContain("esc to interrupt");
      t.keys("C-u");
      t.type("carry on");
      t.keys("Enter");
      await t.until((s) => s.includes("second answer"), "the second answer");
      const messages = posts(fake)[1]!.body.messages;
      expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
      expect(JSON.stringify(messages[1].content)).toContain("[interrupted by the user]");
    } finally {
      await t.close();
    }
  });

  test("/model fake-model-b, then a prompt: the server sees the new model", async () => {
    const fake = await startFakeLLM([{ text: "from b" }], MODELS);
    const t = await open(fake);
    try {
      t.type("/mod");
      t.keys("Tab");
      await t.until((s) => promptLine(s).includes("/model"), "Tab completion of /model");
      t.type("fake-model-b");
      t.keys("Enter");
      await t.until((s) => s.includes("model: anthropic/fake-model-b"), "the switch");
      t.type("hi b");
      t.keys("Enter");
      await t.until((s) => s.includes("from b"), "the answer");
      expect(posts(fake)[0]!.body.model).toBe("fake-model-b");
      expect(t.screen()).toContain("anthropic/fake-model-b ·");
    } finally {
      await t.close();
    }
  });

  test("/clear starts a new session; an unknown command reaches no server", async () => {
    const fake = await startFakeLLM([{ text: "fresh answer" }], MODELS);
    const t = await open(fake);
    try {
      const first = /(\d{8}-\d{6}-\w+)/.exec(t.screen())![1];
      t.type("/modle");
      t.keys("Enter");
      await t.until((s) => s.includes("did you mean /model?"), "the error");
      expect(fake.requests).toHaveLength(0);
      t.type("/clear");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("switched to session"), "the new session");
      expect(s).toContain(`the previous one, ${first}, is saved`);
      t.type("after clear");
      t.keys("Enter");
      await t.until((s) => s.includes("fresh answer"), "the answer");
      expect(posts(fake)[0]!.body.messages).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  test("/resume lists this directory's sessions and switches back to one; /cost counts tokens", async () => {
    const fake = await startFakeLLM(
      [
        { text: "first session answer", usage: { input_tokens: 1234, output_tokens: 56 } },
        { text: "second" },
        { text: "back again" },
      ],
      MODELS,
    );
    const t = await open(fake);
    try {
      t.type("in the first session");
      t.keys("Enter");
      await t.until((s) => s.includes("first session answer"));
      t.type("/cost");
      t.keys("Enter");
      await t.until((s) => s.includes("input:  1,234 tokens") && s.includes("output: 56 tokens"), "/cost");
      const first = /(\d{8}-\d{6}-\w+)/.exec(t.screen())![1];
      t.type("/clear");
      t.keys("Enter");
      await t.until((s) => s.includes("switched to session"));
      t.type("/resume");
      t.keys("Enter");
      await t.until((s) => s.includes("Recent sessions") && s.includes(first!), "the session picker");
      // Typed text filters the picker; Enter switches to the one left picked.
      t.type(first!.slice(0, 17));
      t.keys("Enter");
      await t.until((s) => s.includes(`switched to session ${first}`), "the switch back");
      t.type("and now");
      t.keys("Enter");
      await t.until((s) => s.includes("second"));
      const messages = posts(fake)[1]!.body.messages;
      expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
      expect(JSON.stringify(messages[0])).toContain("in the first session");
    } finally {
      await t.close();
    }
  });

  test("typing during a turn is queued, shown as queued, and runs next", async () => {
    // The first answer waits until the queued row is seen: on a loaded machine a stream that merely
    // lasts a while could end before the typed keys are read, and "two" would not be queued at all.
    let open1!: () => void;
    const gate = new Promise<void>((resolve) => (open1 = resolve));
    const fake = await startFakeLLM(
      [{ text: "first ".repeat(60), chunkDelayMs: 30, after: gate }, { text: "second done" }],
      MODELS,
    );
    const t = await open(fake);
    try {
      t.type("one");
      t.keys("Enter");
      await t.until((s) => s.includes("working…"), "the first turn running");
      t.type("two");
      t.keys("Enter");
      await t.until((s) => s.includes("queued: two"), "the queued row");
      open1();
      await t.until((s) => s.includes("first first"), "the first stream");
      await t.until((s) => s.includes("second done"), "the second answer");
      const messages = posts(fake)[1]!.body.messages;
      expect(messages.at(-1)).toMatchObject({ role: "user", content: [{ type: "text", text: "two" }] });
    } finally {
      await t.close();
    }
  });

  test("history is recalled with ↑ in the next session; -c shows where the session left off", async () => {
    const fake = await startFakeLLM([{ text: "noted" }], MODELS);
    const home = tempHome();
    const t = await open(fake, home);
    try {
      t.type("remember this line");
      t.keys("Enter");
      await t.until((s) => s.includes("noted"));
      t.keys("C-d");
      await t.until((s) => s.includes("EXIT="));
    } finally {
      tmux("kill-session", "-t", t.name);
    }
    const again = await open(fake, home, {}, ["-c"]);
    try {
      // Continued: where the session left off is shown.
      const shown = await again.until((s) => s.includes("resumed session"), "the resumed session");
      expect(shown).toContain("› remember this line");
      expect(shown).toContain("noted");
      again.keys("Up");
      await again.until((s) => promptLine(s).includes("remember this line"), "the recalled entry");
    } finally {
      await again.close();
    }
  });

  test("a paste of 500 lines shows as one placeholder and is sent whole", async () => {
    const fake = await startFakeLLM([{ text: "got it" }], MODELS);
    const t = await open(fake);
    try {
      const text = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n");
      const file = join(t.home.dir, "paste.txt");
      writeFileSync(file, text);
      tmux("load-buffer", "-b", "p", file);
      tmux("paste-buffer", "-p", "-b", "p", "-t", t.name);
      await t.until((s) => promptLine(s).includes("[pasted 500 lines]"), "the placeholder");
      t.keys("Enter");
      await t.until((s) => s.includes("got it"));
      expect(posts(fake)[0]!.body.messages[0].content[0].text).toBe(text);
    } finally {
      await t.close();
    }
  });

  test("Ctrl-C clears the draft; twice on an empty prompt exits, leaving no process behind", async () => {
    const fake = await startFakeLLM(
      [{ toolCalls: [{ name: "Bash", input: { command: "echo shell-ran" } }] }, { text: "ran it" }],
      MODELS,
    );
    const t = await open(fake, tempHome(), { SYNAPSE_PERMISSION_MODE: "bypass" });
    try {
      const pid = Number(/PID=(\d+)/.exec(t.screen())![1]);
      t.type("run a command");
      t.keys("Enter");
      await t.until((s) => s.includes("ran it"));
      const children = Bun.spawnSync(["pgrep", "-P", String(pid)])
        .stdout.toString()
        .split("\n")
        .filter(Boolean)
        .map(Number);
      expect(children.length).toBeGreaterThan(0); // the shell pool's bash
      t.type("some draft");
      t.keys("C-c");
      await t.until((s) => promptLine(s).trim() === "›", "the cleared draft");
      t.keys("C-c");
      await t.until((s) => s.includes("press Ctrl-C again to exit"));
      t.keys("C-c");
      const end = await t.until((s) => s.includes("EXIT="), "the exit");
      expect(end).toContain("EXIT=0");
      const alive = (p: number) => {
        try {
          process.kill(p, 0);
          return true;
        } catch {
          return false;
        }
      };
      const deadline = Date.now() + 5000;
      while ([pid, ...children].some(alive) && Date.now() < deadline) await Bun.sleep(20);
      expect([pid, ...children].filter(alive)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  test("a resize redraws cleanly: one prompt, one status line, no ghost rows", async () => {
    const fake = await startFakeLLM([{ text: "resize answer" }], MODELS);
    const t = await open(fake);
    try {
      t.type("before resize");
      t.keys("Enter");
      await t.until((s) => s.includes("resize answer"));
      t.type("draft text");
      for (const [x, y] of [
        [60, 24],
        [100, 30],
        [45, 20],
      ]) {
        tmux("resize-window", "-t", t.name, "-x", String(x), "-y", String(y));
        // Redrawn at the new width: the separator is exactly one column short of it.
        const s = await t.until(
          (s) => s.split("\n").some((l) => l === "─".repeat(x! - 1)),
          `the redraw at ${x} columns`,
        );
        const lines = s.split("\n");
        expect(lines.filter((l) => l.includes("% context"))).toHaveLength(1);
        expect(lines.filter((l) => l.startsWith("› draft text"))).toHaveLength(1);
        expect(lines.filter((l) => l.startsWith("─"))).toHaveLength(1);
        expect(lines.filter((l) => l === "resize answer")).toHaveLength(1);
        for (const l of lines) expect(l.length).toBeLessThanOrEqual(x!);
      }
    } finally {
      await t.close();
    }
  });

  // What made the test above flaky on a loaded machine: the typed keys were read after the window
  // changed but before the resize settled, and painted as a diff over rows tmux had rewrapped.
  test("a key read after the window narrowed is drawn by the resize's one write, not a diff over rewrapped rows", async () => {
    const fake = await startFakeLLM([{ text: "resize answer" }], MODELS);
    const t = await open(fake);
    const raw = join(t.home.dir, "..", `raw-${Date.now()}`);
    const size = () => statSync(raw, { throwIfNoEntry: false })?.size ?? 0;
    try {
      const pid = Number(/PID=(\d+)/.exec(t.screen())![1]);
      t.type("before resize");
      t.keys("Enter");
      await t.until((s) => s.includes("resize answer") && !s.includes("working…"), "the answer, the session idle");
      tmux("pipe-pane", "-o", "-t", t.name, `cat >> ${raw}`);
      for (const x of [60, 100]) {
        // Stopped, the key and the resize both wait for it; the stream is read from where it stood.
        process.kill(pid, "SIGSTOP");
        let seen = -1;
        await pollUntil("tmux to pass on all synapse wrote", async () => {
          const now = size();
          const still = now === seen;
          seen = now;
          await Bun.sleep(100);
          return still;
        });
        t.type("d");
        tmux("resize-window", "-t", t.name, "-x", String(x), "-y", "30");
        process.kill(pid, "SIGCONT");
        await t.until((s) => s.split("\n").some((l) => l === "─".repeat(x - 1)), `the redraw at ${x} columns`);
        const after = readFileSync(raw).subarray(seen).toString("utf8");
        // The resize's write wipes the screen first, and no row was drawn before it (each drawn row
        // clears its line first); a cursor move alone, from a redraw that found nothing changed, may be.
        const wipe = after.indexOf(`${BEGIN_UPDATE}\x1b[H\x1b[2K`);
        expect(wipe).toBeGreaterThanOrEqual(0);
        expect(after.slice(0, wipe)).not.toContain("\x1b[2K");
      }
    } finally {
      await t.close();
    }
  });

  test("sub-agents show one row each while they run, then their result", async () => {
    const fake = await startFakeLLM((req, i) => {
      if (i === 0)
        return {
          toolCalls: [
            {
              name: "Bash",
              input: { command: 'task:explore --prompt "look around" --description "explore the repo"' },
            },
          ],
        };
      if (JSON.stringify(req.body.messages.at(-1)).includes("look around"))
        return { text: "found things", delayMs: 600 };
      return { text: "all explored" };
    }, MODELS);
    const t = await open(fake, tempHome(), { SYNAPSE_PERMISSION_MODE: "bypass" });
    try {
      t.type("explore");
      t.keys("Enter");
      const running = await t.until((s) => s.includes("task:explore explore the repo"), "the sub-agent row");
      expect(running).not.toContain("Bash(task:explore");
      const s = await t.until((s) => s.includes("all explored"), "the answer");
      expect(s).toMatch(/✓ task:explore explore the repo · [\d.]+s · 0 tool calls\n {2}⎿ found things/);
    } finally {
      await t.close();
    }
  });

  test("NO_COLOR and a 36-column terminal still work", async () => {
    const fake = await startFakeLLM(
      [{ text: "narrow answer that is long enough to wrap over a few rows of this small terminal" }],
      MODELS,
    );
    const home = tempHome();
    const t = await open(fake, home, { NO_COLOR: "1" });
    try {
      tmux("resize-window", "-t", t.name, "-x", "36", "-y", "20");
      t.type("narrow");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("small terminal"), "the wrapped answer");
      for (const line of s.split("\n")) expect(line.length).toBeLessThanOrEqual(36);
      expect(tmux("capture-pane", "-p", "-e", "-t", t.name).stdout.toString()).not.toMatch(/\x1b\[3\dm/);
    } finally {
      await t.close();
    }
  });
});

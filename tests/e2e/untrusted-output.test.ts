// A hostile model and hostile tool output, through the compiled binary (issue 11, items 5-7): tool
// inputs and outputs that carry terminal escape codes, a 20 kB one-line output, and `env`. Nothing
// acts on the terminal, every status row is bounded, and the API key never leaves synapse.

import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLLM, type ScriptedReply, startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, runBinary, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const KEY = "sk-ant-h6-LEAK-CANARY";
const OPENAI_KEY = "sk-h6-OPENAI-CANARY";
// OSC 52 (clipboard), OSC 0 (title), clear screen, C1 CSI.
const ESC = "\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned-title\x07\x1b[2J\u009b31m";

function hostileScript(): ScriptedReply[] {
  return [
    { toolCalls: [{ name: "Read", input: { path: `/nonexistent/${ESC}file` } }] },
    {
      toolCalls: [
        {
          name: "Bash",
          input: { command: `printf 'out: %s\\n' "$(printf '\\033]0;pwned-title\\007')"; echo "${ESC}" >/dev/null` },
        },
      ],
    },
    { toolCalls: [{ name: "Bash", input: { command: "head -c 20000 /dev/zero | tr '\\0' y" } }] },
    // `env`, and synapse's own environment block as Linux shows it to any process of the same user.
    {
      toolCalls: [
        {
          name: "Bash",
          input: {
            command:
              "env | grep -c '^PATH='; env | grep -c LEAK-CANARY; tr '\\0' '\\n' < /proc/$PPID/environ | grep -c LEAK-CANARY; true",
          },
        },
      ],
    },
    { toolCalls: [{ name: `Evil${ESC}`, input: { x: ESC } }] },
    { text: `Finished.${ESC}` },
  ];
}

let server: FakeLLM | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe("a hostile session on a pipe", () => {
  test("stderr is inert and bounded, and the key reaches neither the model nor the session files", async () => {
    server = await startFakeLLM(hostileScript());
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(server.url), ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: OPENAI_KEY };
    const r = await runBinary({ args: ["go"], env, cwd: home.dir });
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(6);
    // Synapse itself still sends the key (blanking /proc/<pid>/environ keeps its own copy).
    expect(
      server.requests.every((q) => q.headers["x-api-key"] === KEY || q.headers.authorization === `Bearer ${KEY}`),
    ).toBe(true);

    // 6: no control character but newline on stderr (no colours on a pipe either).
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(r.stderr).toContain("␛]52;c;ZXZpbA==^G");
    // 7: every status row bounded by TOOL_RESULT_SUMMARY_LIMIT (80) plus its prefix (tool name, "⎿").
    const rows = r.stderr.split("\n").filter((l) => l.startsWith("● ") || l.startsWith("  ⎿ "));
    expect(rows.length).toBe(10);
    for (const row of rows) expect(Array.from(row).length).toBeLessThanOrEqual(4 + 40 + 2 + 80);
    expect(r.stderr).toContain(`⎿ ${"y".repeat(79)}…`);
    // The answer on a pipe is the model's bytes, unchanged (README "Output").
    expect(r.stdout).toBe(`Finished.${ESC}\n`);

    // 5: `env` in a command showed no key, so none went back to the model...
    const envResult = JSON.stringify(server.requests[4]!.body.messages.at(-1));
    expect(envResult).toContain('"content":"1\\n0\\n0\\n');
    for (const req of server.requests) {
      expect(JSON.stringify(req.body)).not.toContain(KEY);
      expect(JSON.stringify(req.body)).not.toContain(OPENAI_KEY);
    }
    // ...nor into the session's files.
    const sessions = join(home.env.SYNAPSE_HOME!, "sessions");
    for (const id of readdirSync(sessions)) {
      for (const file of readdirSync(join(sessions, id))) {
        if (file.endsWith(".jsonl") || file.endsWith(".json"))
          expect(readFileSync(join(sessions, id, file), "utf8")).not.toContain(KEY);
      }
    }
  });
});

const { tmux, session: tmuxSession, stop: stopTmux } = tmuxServer();
afterAll(stopTmux);

describe.skipIf(!hasTmux)("a hostile session on a terminal (tmux)", () => {
  test("the terminal's title is not changed, the screen not cleared, and no row wraps", async () => {
    server = await startFakeLLM(hostileScript());
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(server.url), ANTHROPIC_API_KEY: KEY, TERM: "xterm-256color" };
    tmuxSession({ env, name: "h6", columns: 120, rows: 50, command: `${BINARY} 'go'` });
    try {
      tmux("set-option", "-t", "h6", "allow-rename", "on");
      let screen = "";
      // Polls the screen: tmux announces nothing when a program prints.
      for (const end = Date.now() + 20_000; Date.now() < end && !screen.includes("EXIT="); await Bun.sleep(50)) {
        screen = tmux("capture-pane", "-p", "-t", "h6").stdout.toString();
      }
      expect(screen).toContain("EXIT=0");
      const title = tmux("display-message", "-p", "-t", "h6", "#{pane_title}").stdout.toString().trim();
      expect(title).not.toContain("pwned");
      // The first rows are still there (a clear-screen would have wiped them).
      expect(screen).toContain("Read(");
      // The 20 kB line's row fits the 120-column pane: no row is all y's (a wrapped continuation).
      expect(screen.split("\n").some((l) => /^y{20,}/.test(l))).toBe(false);
      expect(screen).toContain("Finished.");
    } finally {
      tmux("kill-session", "-t", "h6");
    }
  }, 30_000);
});

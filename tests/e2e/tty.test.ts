// The binary on a real terminal (tmux), as a person sees it: the answer streams, tool activity
// is labelled in colour, a running command shows a live tail that is cleared when it ends.

import { afterAll, describe, expect, test } from "bun:test";
import { startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(server.stop);

describe.skipIf(!hasTmux)("on a terminal", () => {
  test("live tail while a command runs, coloured labels, answer streamed", async () => {
    const fake = await startFakeLLM([
      { toolCalls: [{ name: "Bash", input: { command: "echo first-line; sleep 1; echo progress-line-2; sleep 30" } }] },
      { text: "All done here." },
    ]);
    const env = {
      ...tempHome().env,
      ...providerEnv(fake.url),
      SYNAPSE_COMMAND_TIMEOUT_MS: "2500",
      TERM: "xterm-256color",
    };
    const t = server.session({ env, rows: 20, command: `${BINARY} 'run it'` });
    try {
      const tailShows = (s: string) => s.split("\n").some((line) => line.trim() === "progress-line-2");
      const live = await t.until(tailShows);
      // The last few lines, not just one.
      expect(live.split("\n").some((line) => line.trim() === "first-line")).toBe(true);
      expect(live).toContain("Bash(echo first-line; sleep 1;");
      const done = await t.until((s) => s.includes("EXIT="));
      expect(done).toContain("All done here.");
      expect(done).toContain("EXIT=0");
      // The live tail was cleared: the command's output is not left on a line of its own.
      expect(tailShows(done)).toBe(false);
      expect(t.screen(true)).toContain("\x1b[");
    } finally {
      t.close();
      await fake.stop();
    }
  });

  test("NO_COLOR turns colour off on a terminal too", async () => {
    const fake = await startFakeLLM([{ toolCalls: [{ name: "Glob", input: { pattern: "*" } }] }, { text: "plain" }]);
    const env = { ...tempHome().env, ...providerEnv(fake.url), NO_COLOR: "1", TERM: "xterm-256color" };
    const t = server.session({ env, rows: 20, command: `${BINARY} 'go'` });
    try {
      await t.until((s) => s.includes("EXIT="));
      const screen = t.screen(true);
      expect(screen).toContain("plain");
      expect(screen).not.toMatch(/\x1b\[3\dm/);
    } finally {
      t.close();
      await fake.stop();
    }
  });
});

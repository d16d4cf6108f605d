// The binary on a real terminal (tmux), as a person sees it: the answer streams, tool activity
// is labelled in colour, a running command shows a live tail that is cleared when it ends.

import { afterAll, describe, expect, test } from "bun:test";
import { startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const { tmux, stop: stopTmux } = tmuxServer();
afterAll(stopTmux);

async function screenUntil(pane: string, predicate: (screen: string) => boolean, escapes = false): Promise<string> {
  const deadline = Date.now() + 15_000;
  let screen = "";
  while (Date.now() < deadline) {
    screen = tmux("capture-pane", "-p", ...(escapes ? ["-e"] : []), "-t", pane).stdout.toString();
    if (predicate(screen)) return screen;
    await Bun.sleep(50);
  }
  throw new Error(`screen never matched; last screen:\n${screen}`);
}

describe.skipIf(!hasTmux)("on a terminal", () => {
  test("live tail while a command runs, coloured labels, answer streamed", async () => {
    const server = await startFakeLLM([
      { toolCalls: [{ name: "Bash", input: { command: "echo first-line; sleep 1; echo progress-line-2; sleep 30" } }] },
      { text: "All done here." },
    ]);
    const env = {
      ...tempHome().env,
      ...providerEnv(server.url),
      SYNAPSE_COMMAND_TIMEOUT_MS: "2500",
      TERM: "xterm-256color",
    };
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(" ");
    tmux(
      "new-session",
      "-d",
      "-s",
      "t1",
      "-x",
      "100",
      "-y",
      "20",
      `env ${exports} PATH='${process.env.PATH}' ${BINARY} 'run it'; echo EXIT=$?; sleep 60`,
    );
    try {
      const tailShows = (s: string) => s.split("\n").some((line) => line.trim() === "progress-line-2");
      const live = await screenUntil("t1", tailShows);
      // The last few lines, not just one.
      expect(live.split("\n").some((line) => line.trim() === "first-line")).toBe(true);
      expect(live).toContain("Bash(echo first-line; sleep 1;");
      const done = await screenUntil("t1", (s) => s.includes("EXIT="));
      expect(done).toContain("All done here.");
      expect(done).toContain("EXIT=0");
      // The live tail was cleared: the command's output is not left on a line of its own.
      expect(tailShows(done)).toBe(false);
      const coloured = tmux("capture-pane", "-p", "-e", "-t", "t1").stdout.toString();
      expect(coloured).toContain("\x1b[");
    } finally {
      tmux("kill-session", "-t", "t1");
      await server.stop();
    }
  });

  test("NO_COLOR turns colour off on a terminal too", async () => {
    const server = await startFakeLLM([{ toolCalls: [{ name: "Glob", input: { pattern: "*" } }] }, { text: "plain" }]);
    const env = { ...tempHome().env, ...providerEnv(server.url), NO_COLOR: "1", TERM: "xterm-256color" };
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(" ");
    tmux(
      "new-session",
      "-d",
      "-s",
      "t2",
      "-x",
      "100",
      "-y",
      "20",
      `env ${exports} PATH='${process.env.PATH}' ${BINARY} 'go'; echo EXIT=$?; sleep 60`,
    );
    try {
      const screen = await screenUntil("t2", (s) => s.includes("EXIT="), true);
      expect(screen).toContain("plain");
      expect(screen).not.toMatch(/\x1b\[3\dm/);
    } finally {
      tmux("kill-session", "-t", "t2");
      await server.stop();
    }
  });
});

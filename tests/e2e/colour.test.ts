// Colour is decided per stream (issue 11, item 10): `synapse … > answer.md` on a terminal keeps its
// coloured stderr, and the file gets no colour codes.

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const { tmux, stop: stopTmux } = tmuxServer();
afterAll(stopTmux);

describe.skipIf(!hasTmux)("colour per stream", () => {
  test("stdout to a file, stderr on a terminal: coloured tool rows, a plain answer file", async () => {
    const server = await startFakeLLM([
      { toolCalls: [{ name: "Glob", input: { pattern: "*" } }] },
      { text: "the answer" },
    ]);
    const home = tempHome();
    const answer = join(home.dir, "answer.md");
    const env = { ...home.env, ...providerEnv(server.url), TERM: "xterm-256color" };
    const exports = Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(" ");
    tmux(
      "new-session",
      "-d",
      "-s",
      "c1",
      "-x",
      "100",
      "-y",
      "20",
      `env ${exports} PATH='${process.env.PATH}' ${BINARY} 'go' > ${answer}; echo EXIT=$?; sleep 60`,
    );
    try {
      let screen = "";
      // Polls the screen: tmux announces nothing when a program prints.
      for (const end = Date.now() + 15_000; Date.now() < end && !screen.includes("EXIT="); await Bun.sleep(50)) {
        screen = tmux("capture-pane", "-p", "-e", "-t", "c1").stdout.toString();
      }
      expect(screen).toContain("EXIT=0");
      expect(screen).toContain("Glob(");
      expect(screen).toMatch(/\x1b\[3\dm/);
      expect(readFileSync(answer, "utf8")).toBe("the answer\n");
    } finally {
      tmux("kill-session", "-t", "c1");
      await server.stop();
    }
  }, 30_000);
});

// Colour is decided per stream (issue 11, item 10): `synapse … > answer.md` on a terminal keeps its
// coloured stderr, and the file gets no colour codes.

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(server.stop);

describe.skipIf(!hasTmux)("colour per stream", () => {
  test("stdout to a file, stderr on a terminal: coloured tool rows, a plain answer file", async () => {
    const fake = await startFakeLLM([
      { toolCalls: [{ name: "Glob", input: { pattern: "*" } }] },
      { text: "the answer" },
    ]);
    const home = tempHome();
    const answer = join(home.dir, "answer.md");
    const env = { ...home.env, ...providerEnv(fake.url), TERM: "xterm-256color" };
    const t = server.session({ env, rows: 20, command: `${BINARY} 'go' > ${answer}` });
    try {
      await t.until((s) => s.includes("EXIT="));
      const screen = t.screen(true);
      expect(screen).toContain("EXIT=0");
      expect(screen).toContain("Glob(");
      expect(screen).toMatch(/\x1b\[3\dm/);
      expect(readFileSync(answer, "utf8")).toBe("the answer\n");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 30_000);
});

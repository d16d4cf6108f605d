// The interactive session's start (compiled binary in tmux): raw mode is set through libc before the
// first frame and node:tty loads after it (src/runtime/direct-terminal.ts), so the terminal must be
// given back exactly as it was, on exit and while suspended, and keys typed at once must be kept.

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

describe.skipIf(!hasTmux)("the terminal around a session", () => {
  // Run by sh -c, not an interactive shell: bash puts its own saved mode back after every job and
  // would hide a session that leaves the terminal raw. (Bun too puts back the mode stdin had at its
  // start as it exits; restore() itself is checked in tests/runtime/direct-terminal.test.ts.)
  test("its mode (stty -g) is as it was after the exit", async () => {
    const fake = await startFakeLLM([{ text: "fine" }]);
    const home = tempHome();
    const t = server.session({
      env: { ...home.env, ...providerEnv(fake.url), TERM: "xterm-256color" },
      cwd: home.dir,
      command: `sh -c 'stty -g > before; ${BINARY}; stty -g > after'`,
    });
    const mode = (file: string) => readFileSync(join(home.dir, file), "utf8").trim();
    try {
      await t.until((s) => s.includes("% context"), "the session");
      t.type("kept");
      await t.until((s) => s.includes("› kept"), "the draft");
      t.keys("C-u", "C-d");
      await t.until((s) => s.includes("EXIT="), "the exit");
      expect(mode("before")).toMatch(/^[0-9a-f:]+$/);
      expect(mode("after")).toBe(mode("before"));
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);

  test("keys typed the moment the prompt appears are all in the draft, in order, and nothing else", async () => {
    const fake = await startFakeLLM([{ text: "fine" }]);
    const home = tempHome();
    const t = server.session({
      env: { ...home.env, ...providerEnv(fake.url), TERM: "xterm-256color" },
      cwd: home.dir,
    });
    try {
      await t.until((s) => s.includes("›"), "the first frame");
      t.type("quick brown fox");
      const s = await t.until((s) => s.includes("% context") && s.includes("› quick brown fox"), "the draft");
      expect(s.split("\n").filter((l) => l.includes("quick"))).toEqual(["› quick brown fox"]);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);
});

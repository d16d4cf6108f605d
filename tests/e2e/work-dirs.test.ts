// The working directory (-C) and the --add-dir folders are checked before a session opens, on
// both paths: headless, and the interactive session on a real terminal (tmux).

import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, runBinary, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

// No server is needed: every case must fail before a request; a key only gets past provider checks.
const KEY = { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" };

describe("work directories, headless", () => {
  test("an --add-dir that does not exist is a usage error naming it, before anything runs", async () => {
    const home = tempHome();
    const r = await runBinary({ args: ["--add-dir", join(home.dir, "nope"), "hi"], env: { ...home.env, ...KEY } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`synapse: --add-dir folder does not exist: ${join(home.dir, "nope")}\n`);
  });

  test("an --add-dir that is a file is a usage error", async () => {
    const home = tempHome();
    writeFileSync(join(home.dir, "f.txt"), "x");
    const r = await runBinary({ args: ["--add-dir", "f.txt", "hi"], env: { ...home.env, ...KEY }, cwd: home.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`synapse: --add-dir is not a folder: ${join(home.dir, "f.txt")}\n`);
  });
});

const { tmux, session, stop: stopTmux } = tmuxServer();
afterAll(stopTmux);

describe.skipIf(!hasTmux)("work directories, interactive", () => {
  test("synapse -C <missing folder> on a terminal exits 2 with the headless message, opening no session", async () => {
    const home = tempHome();
    const env = { ...home.env, ...KEY, TERM: "xterm-256color" };
    const missing = join(home.dir, "missing");
    session({ env, name: "wd", rows: 20, cwd: home.dir, command: `${BINARY} -C ${missing}` });
    let screen = "";
    for (let i = 0; i < 500 && !screen.includes("EXIT="); i++) {
      await Bun.sleep(30);
      screen = tmux("capture-pane", "-p", "-t", "wd").stdout.toString();
    }
    tmux("kill-session", "-t", "wd");
    expect(screen).toContain(`synapse: working directory does not exist: ${missing}`);
    expect(screen).toContain("EXIT=2");
  }, 30_000);
});

// Shift+Enter and Ctrl+Enter in a real terminal that reports modified keys: tmux with
// `extended-keys on` reports them (tmux 3.3: as `CSI 13;2u`, `CSI 13;5u`) only to a program that
// asked with modifyOtherKeys (`CSI > 4;1 m`), as the session does at start; to any other it types
// "S-Enter" as text. Both insert a new line and nothing is sent; and the modes asked for at start
// are switched off on exit, checked on the bytes the program wrote to the terminal (pipe-pane).

import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { providerEnv, tempHome } from "../support/binary.ts";
import { startFakeLLM } from "../support/fake-llm.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

// What the session asks for at start (kitty keyboard protocol flag 1, modifyOtherKeys level 1)
// and what undoes each.
const KITTY_ON = "\x1b[>1u";
const KITTY_OFF = "\x1b[<u";
const MOK_ON = "\x1b[>4;1m";
const MOK_OFF = "\x1b[>4m";

describe.skipIf(!hasTmux)("extended keys in tmux", () => {
  test("Shift+Enter and Ctrl+Enter insert a new line; the keyboard modes are off again at exit", async () => {
    const fake = await startFakeLLM([{ text: "never asked" }]);
    const home = tempHome();
    const bytesFile = join(home.dir, "pane-bytes");
    const env = { ...home.env, ...providerEnv(fake.url), TERM: "xterm-256color" };
    server.tmux("set", "-g", "extended-keys", "on");
    // The shell waits until the pane is piped, so the first bytes the binary writes are captured.
    const before = `until [ -e '${bytesFile}.ready' ]; do sleep 0.02; done; `;
    const t = server.session({ env, cwd: home.dir, before });
    server.tmux("pipe-pane", "-O", "-t", t.name, `cat > '${bytesFile}'`);
    Bun.spawnSync(["touch", `${bytesFile}.ready`]);
    const { until, keys, type } = t;
    try {
      await until((s) => s.includes("% context"), "the status line");
      type("first");
      keys("S-Enter");
      type("second");
      keys("C-Enter");
      type("third");
      const s = await until((s) => s.includes("third"), "the draft");
      const rows = s.split("\n");
      const at = rows.findIndex((r) => r.includes("first"));
      expect(rows.slice(at, at + 3).map((r) => r.trim())).toEqual(["› first", "second", "third"]);
      expect(fake.requests.filter((r) => r.path === "/v1/messages")).toEqual([]);

      // Out: Ctrl-C clears the draft, then two more leave.
      keys("C-c");
      await until((s) => !s.includes("third"), "the draft cleared");
      keys("C-c");
      await until((s) => s.includes("press Ctrl-C again"), "the hint");
      keys("C-c");
      await until((s) => s.includes("EXIT=0"), "the exit");
    } finally {
      t.close();
      await fake.stop();
    }
    expect(existsSync(bytesFile)).toBe(true);
    const bytes = readFileSync(bytesFile, "latin1");
    // Asked for at start, and each undone after the last time it was asked for.
    for (const [on, off] of [
      [KITTY_ON, KITTY_OFF],
      [MOK_ON, MOK_OFF],
    ] as const) {
      expect(bytes.indexOf(on)).toBeGreaterThanOrEqual(0);
      expect(bytes.lastIndexOf(off)).toBeGreaterThan(bytes.lastIndexOf(on));
    }
    // Bracketed paste likewise.
    expect(bytes.lastIndexOf("\x1b[?2004l")).toBeGreaterThan(bytes.lastIndexOf("\x1b[?2004h"));
  }, 60_000);
});

// A real terminal for end-to-end tests of the interactive session: the compiled binary in a tmux
// session of its own server, driven with send-keys and read with capture-pane.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, providerEnv, tempHome } from "./binary.ts";

export const hasTmux = Bun.which("tmux") !== null;

export interface TmuxTerm {
  name: string;
  /** The binary's pid (printed before it starts). */
  pid: number;
  keys(...keys: string[]): void;
  type(text: string): void;
  screen(): string;
  until(predicate: (screen: string) => boolean, what?: string): Promise<string>;
  close(): void;
}

/**
 * Waits until the screen satisfies `predicate` (polled: tmux tells no one when a pane changes);
 * the deadline only bounds a failing test, which then shows the last screen.
 */
export function screenWaiter(screen: () => string, timeoutMs: number) {
  return async (predicate: (screen: string) => boolean, what = "the expected screen"): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    let s = "";
    while (Date.now() < deadline) {
      s = screen();
      if (predicate(s)) return s;
      await Bun.sleep(30);
    }
    throw new Error(`never saw ${what}; last screen:\n${s}`);
  };
}

/** One tmux server per test file; call stop() in afterAll. */
export function tmuxServer() {
  const socket = join(mkdtempSync(join(tmpdir(), "synapse-tmux-")), "sock");
  const tmux = (...args: string[]) =>
    Bun.spawnSync(["tmux", "-S", socket, ...args], { stdout: "pipe", stderr: "pipe" });
  let n = 0;
  // Kept open so a test's new-session never races the server shutting down after the one before.
  if (hasTmux) tmux("new-session", "-d", "-s", "keeper", "sleep 600");
  return {
    tmux,
    stop: () => void (hasTmux && tmux("kill-server")),
    /** Starts the binary (against `url`, a fake server) and waits for its status line. */
    async open(
      url: string,
      opts: {
        env?: Record<string, string>;
        args?: string[];
        columns?: number;
        rows?: number;
        home?: ReturnType<typeof tempHome>;
      } = {},
    ): Promise<TmuxTerm> {
      const name = `t${++n}`;
      const home = opts.home ?? tempHome();
      const env = { ...home.env, ...providerEnv(url), TERM: "xterm-256color", ...opts.env };
      const exports = Object.entries(env)
        .map(([k, v]) => `${k}='${v}'`)
        .join(" ");
      const started = tmux(
        "new-session",
        "-d",
        "-s",
        name,
        "-x",
        String(opts.columns ?? 100),
        "-y",
        String(opts.rows ?? 30),
        "-c",
        home.dir,
        `env ${exports} PATH='${process.env.PATH}' sh -c 'echo PID=$$; exec ${BINARY} ${(opts.args ?? []).join(" ")}'; echo EXIT=$?; sleep 120`,
      );
      if (started.exitCode !== 0) throw new Error(`tmux new-session failed: ${started.stderr.toString()}`);
      const screen = () => tmux("capture-pane", "-p", "-t", name).stdout.toString();
      const until = screenWaiter(screen, 15_000);
      const first = await until((s) => s.includes("% context"), "the status line");
      return {
        name,
        pid: Number(/PID=(\d+)/.exec(first)?.[1] ?? 0),
        keys: (...keys) => void tmux("send-keys", "-t", name, ...keys),
        type: (text) => void tmux("send-keys", "-t", name, "-l", text),
        screen,
        until,
        close: () => void tmux("kill-session", "-t", name),
      };
    },
  };
}

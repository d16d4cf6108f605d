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

/** What a tmux session runs, and how big its window is. */
export interface SessionOptions {
  /** The command's environment (the test's PATH is added). */
  env: Record<string, string>;
  columns?: number;
  rows?: number;
  /** The folder it starts in (tmux's `-c`). */
  cwd?: string;
  /** What runs with that environment: the binary, with no arguments, unless told. */
  command?: string;
  /** Shell words run first (blank lines that push the screen down, say). */
  before?: string;
  name?: string;
}

/** A running tmux session: keys in, the screen out. */
export interface TmuxSession {
  name: string;
  keys(...keys: string[]): void;
  type(text: string): void;
  /** The screen; `escapes` keeps colours and attributes. */
  screen(escapes?: boolean): string;
  until(predicate: (screen: string) => boolean, what?: string): Promise<string>;
  close(): void;
}

/** `K='v' …` for an `env` command line. */
const assignments = (env: Record<string, string>) =>
  Object.entries(env)
    .map(([k, v]) => `${k}='${v}'`)
    .join(" ");

/** One tmux server per test file; call stop() in afterAll. */
export function tmuxServer() {
  const socket = join(mkdtempSync(join(tmpdir(), "synapse-tmux-")), "sock");
  const tmux = (...args: string[]) =>
    Bun.spawnSync(["tmux", "-S", socket, ...args], { stdout: "pipe", stderr: "pipe" });
  let n = 0;
  // Kept open so a test's new-session never races the server shutting down after the one before.
  if (hasTmux) tmux("new-session", "-d", "-s", "keeper", "sleep 600");
  /**
   * A session running `command` with `env` at `columns`×`rows` (100×30 unless told), then `EXIT=<code>`
   * and a pause, so a test reads the last screen. Does not wait for anything.
   */
  const session = (opts: SessionOptions, timeoutMs = 15_000): TmuxSession => {
    const name = opts.name ?? `s${++n}`;
    const run = `env ${assignments(opts.env)} PATH='${process.env.PATH}' ${opts.command ?? BINARY}`;
    const size = ["-x", String(opts.columns ?? 100), "-y", String(opts.rows ?? 30)];
    const where = opts.cwd ? ["-c", opts.cwd] : [];
    const line = `${opts.before ?? ""}${run}; echo EXIT=$?; sleep 120`;
    const started = tmux("new-session", "-d", "-s", name, ...size, ...where, line);
    if (started.exitCode !== 0) throw new Error(`tmux new-session failed: ${started.stderr.toString()}`);
    const screen = (escapes = false) =>
      tmux("capture-pane", "-p", ...(escapes ? ["-e"] : []), "-t", name).stdout.toString();
    return {
      name,
      keys: (...keys) => void tmux("send-keys", "-t", name, ...keys),
      type: (text) => void tmux("send-keys", "-t", name, "-l", text),
      screen,
      until: screenWaiter(() => screen(), timeoutMs),
      close: () => void tmux("kill-session", "-t", name),
    };
  };
  return {
    tmux,
    stop: () => void (hasTmux && tmux("kill-server")),
    session,
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
      const home = opts.home ?? tempHome();
      const t = session({
        env: { ...home.env, ...providerEnv(url), TERM: "xterm-256color", ...opts.env },
        columns: opts.columns,
        rows: opts.rows,
        cwd: home.dir,
        name: `t${++n}`,
        command: `sh -c 'echo PID=$$; exec ${BINARY} ${(opts.args ?? []).join(" ")}'`,
      });
      const first = await t.until((s) => s.includes("% context"), "the status line");
      return { ...t, screen: () => t.screen(), pid: Number(/PID=(\d+)/.exec(first)?.[1] ?? 0) };
    },
  };
}

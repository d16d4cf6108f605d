// Runs the compiled binary as a user would: a subprocess with its own home, env and stdin.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const BINARY = resolve(import.meta.dir, "../../dist/synapse");

export interface BinaryRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Milliseconds from spawn to exit. */
  ms: number;
}

export interface RunOptions {
  args?: string[];
  /** Text for stdin; "inherit-silent" leaves a pipe open that never sends; undefined gives /dev/null. */
  stdin?: string | Uint8Array | "silent-pipe";
  env?: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs?: number;
}

/** A fresh home for one test: XDG folders and SYNAPSE_HOME inside a temp dir. */
export function tempHome(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "synapse-e2e-"));
  return { dir, env: homeEnv(dir) };
}

/** The environment of a run whose home, config and session store are all in `dir`. */
export function homeEnv(dir: string): Record<string, string> {
  return {
    HOME: dir,
    XDG_DATA_HOME: join(dir, "data"),
    XDG_CONFIG_HOME: join(dir, "config"),
    SYNAPSE_HOME: join(dir, "data", "synapse"),
  };
}

/** Env for a run against the fake server, as Anthropic or OpenAI. */
export function providerEnv(url: string, provider: "anthropic" | "openai" = "anthropic"): Record<string, string> {
  return provider === "anthropic"
    ? { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: url, SYNAPSE_RETRY_BASE_MS: "5" }
    : { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `${url}/v1`, SYNAPSE_RETRY_BASE_MS: "5" };
}

export function spawnBinary(opts: RunOptions = {}) {
  const home = opts.env?.HOME ? undefined : tempHome();
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home?.env };
  // The run's temp folder (preload.ts): what the binary makes there goes with the run.
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  for (const [k, v] of Object.entries(opts.env ?? {})) if (v !== undefined) env[k] = v;
  const stdin = opts.stdin === undefined ? "ignore" : "pipe";
  const proc = Bun.spawn([BINARY, ...(opts.args ?? [])], {
    cwd: opts.cwd ?? home?.dir ?? tmpdir(),
    env,
    stdin,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (opts.stdin !== undefined && opts.stdin !== "silent-pipe") {
    proc.stdin!.write(opts.stdin);
    proc.stdin!.end();
  }
  return proc;
}

export async function runBinary(opts: RunOptions = {}): Promise<BinaryRun> {
  const started = performance.now();
  const proc = spawnBinary(opts);
  const timer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs ?? 30_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  if (opts.stdin === "silent-pipe") proc.stdin!.end();
  return { code, stdout, stderr, ms: performance.now() - started };
}

/**
 * `synapse [flags] -o stream-json go` in `cwd` against the fake at `url`, for a hostile model's
 * scripted turn: the run must end with exit 0 (the attack is judged by what it left behind).
 */
export async function runScriptedTurn(
  url: string,
  opts: { env: Record<string, string>; cwd: string; flags?: string[]; timeoutMs?: number },
): Promise<BinaryRun> {
  const r = await runBinary({
    args: [...(opts.flags ?? []), "-o", "stream-json", "go"],
    env: { ...opts.env, ...providerEnv(url) },
    cwd: opts.cwd,
    timeoutMs: opts.timeoutMs ?? 60_000,
  });
  if (r.code !== 0) throw new Error(`synapse exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return r;
}

/** Parses stream-json output into objects. */
export function jsonLines(text: string): any[] {
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

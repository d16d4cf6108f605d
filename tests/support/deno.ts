// Runs Synapse from its TypeScript sources under Deno (`deno run src/cli/main.ts`), the way the
// README documents, for the suites that check the Deno port.

import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
export const MAIN = join(ROOT, "src/cli/main.ts");

/**
 * What `deno run` needs: files, environment, child processes (bash, ps, mkfifo, setsid), the
 * provider's host, system facts (os.homedir, os.tmpdir), and FFI to blank the keys in this
 * process's /proc/<pid>/environ. Narrower than -A: no /proc/self/fd, so terminals are told apart
 * by node:tty there.
 */
export const DENO_PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-net",
  "--allow-sys",
  "--allow-ffi",
];

/**
 * Nothing from the directory synapse runs in configures Deno: no deno.json / package.json discovery
 * (`--no-config`; npm packages then come from the node_modules beside the sources, `manual`) and no
 * `--env-file`, so a repository's .env is never read.
 */
export const DENO_ISOLATION = ["--no-config", "--node-modules-dir=manual"];

/** Deno from the `deno` devDependency (its native binary, without the npm launcher), or null. */
export function denoBinary(): string | null {
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const native = process.platform === "linux" ? `linux-${arch}-glibc` : `${process.platform}-${arch}`;
  for (const candidate of [join(ROOT, "node_modules/@deno", native, "deno"), join(ROOT, "node_modules/.bin/deno")]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export interface DenoRunOptions {
  args: string[];
  env: Record<string, string>;
  cwd: string;
  stdin?: string;
}

/**
 * One compile cache for every run, so each run does not transpile the sources again: outside the
 * test run's own temp folder (preload.ts), which goes with the run.
 */
const DENO_DIR = join(process.env.SYNAPSE_TEST_OUTER_TMP ?? tmpdir(), "synapse-test-deno-dir");

export function spawnDeno(deno: string, opts: DenoRunOptions) {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", DENO_DIR, DENO_NO_UPDATE_CHECK: "1", ...opts.env };
  const proc = Bun.spawn([deno, "run", ...DENO_ISOLATION, ...DENO_PERMISSIONS, MAIN, ...opts.args], {
    cwd: opts.cwd,
    env,
    stdin: opts.stdin === undefined ? "ignore" : "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  if (opts.stdin !== undefined) {
    proc.stdin!.write(opts.stdin);
    proc.stdin!.end();
  }
  return proc;
}

export async function runDeno(
  deno: string,
  opts: DenoRunOptions,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = spawnDeno(deno, opts);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

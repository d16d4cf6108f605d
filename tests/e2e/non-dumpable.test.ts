// Synapse marks itself non-dumpable (issue 16, §4): another process of the same (non-root) user —
// a command the model started and left running, say — can neither open its memory (the API key is
// in the heap), nor read its environ, nor write to its terminal through /proc/<pid>/fd/2.
// The suite runs as root here, and root may read anything: both synapse and the reader then run
// as `nobody` through setpriv.

import { expect, test } from "bun:test";
import { chownSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { until } from "../shell/support.ts";

const serve = fakeLLMPerTest();
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const asUser = isRoot ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"] : [];

function chownTree(path: string): void {
  chownSync(path, NOBODY, NOBODY);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name));
}

/** What a same-user process managed to open of `pid`'s /proc entries. */
function probe(pid: number): string {
  const script = [
    `exec 3</proc/${pid}/mem && echo mem-opened`,
    `cat /proc/${pid}/environ >/dev/null && echo environ-read`,
    `exec 4>/proc/${pid}/fd/2 && echo fd2-opened`,
    `cat /proc/${pid}/maps >/dev/null && echo maps-read`,
  ].join("; ");
  const r = Bun.spawnSync([...asUser, "bash", "--noprofile", "--norc", "-c", `${script}; true`], {
    env: { PATH: "/usr/bin:/bin" },
    stderr: "pipe",
  });
  return r.stdout.toString();
}

test("a process of the same user cannot open synapse's mem, environ or fd/2", async () => {
  const home = tempHome();
  const ws = join(home.dir, "project");
  mkdirSync(ws);
  if (isRoot) chownTree(home.dir);
  // The model's request never ends: synapse is alive, key in memory, while the reader tries.
  const s = await serve([{ hang: true }]);
  const env = {
    PATH: "/usr/bin:/bin",
    ...home.env,
    ...providerEnv(s.url),
    ANTHROPIC_API_KEY: "sk-ant-nondumpable-canary",
  };
  const proc = Bun.spawn([...asUser, BINARY, "-C", ws, "go"], {
    cwd: ws,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    await s.waitForRequests(1);
    const seen = probe(proc.pid);
    expect(seen).toBe("");
  } finally {
    proc.kill("SIGKILL");
    await proc.exited;
  }
}, 30_000);

test("the probe does open the entries of a same-user process that is dumpable", async () => {
  const sleeper = Bun.spawn([...asUser, "sleep", "30"], { stdout: "ignore", stderr: "ignore" });
  try {
    // Until setpriv has changed user and exec'd, the process is root's.
    const comm = () => {
      try {
        return readFileSync(`/proc/${sleeper.pid}/comm`, "utf8");
      } catch {
        return "";
      }
    };
    expect(await until(() => comm() === "sleep\n")).toBe(true);
    expect(probe(sleeper.pid)).toBe("mem-opened\nenviron-read\nfd2-opened\nmaps-read\n");
  } finally {
    sleeper.kill("SIGKILL");
  }
});

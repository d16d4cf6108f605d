// The runtime seam: the Bun implementation the binary uses, the portable helpers, and where the
// Deno implementation can be checked from Bun (glob matching through node:path).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { bunRuntime } from "../../src/runtime/bun-runtime.ts";
import { denoRuntime } from "../../src/runtime/deno-runtime.ts";
import { sha256Hex, sleep, which } from "../../src/runtime/portable.ts";
import { runtime } from "../../src/runtime/runtime.ts";
import { SYSTEM_PATH } from "../../src/runtime/trusted-path.ts";

test("under Bun the Bun implementation is picked", () => {
  expect(runtime.name).toBe("bun");
  expect(runtime.threadPoolAtomics).toBe(true);
});

describe("spawn", () => {
  test("pipes both ways and reports the exit status", async () => {
    const p = runtime.spawn(["bash", "-c", 'read line; echo "got $line"; exit 3'], {
      stdin: "pipe",
      stdout: "pipe",
      env: { PATH: process.env.PATH! },
    });
    p.stdin.write("hello\n");
    p.stdin.end();
    expect(await new Response(p.stdout).text()).toBe("got hello\n");
    expect(await p.exited).toBe(3);
    expect(p.signalCode).toBeNull();
  });

  test("the environment given is the whole environment", async () => {
    const p = runtime.spawn(["/usr/bin/env"], { stdout: "pipe", env: { ONLY: "this" } });
    expect(await new Response(p.stdout).text()).toBe("ONLY=this\n");
  });

  test("newSession makes the child lead its own session; a kill names the signal", async () => {
    const p = runtime.spawn(["sleep", "30"], { newSession: true });
    const stat = readFileSync(`/proc/${p.pid}/stat`, "latin1");
    const [, , pgid, sid] = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    expect([pgid, sid]).toEqual([p.pid, p.pid]);
    p.kill("SIGTERM");
    await p.exited;
    expect(p.signalCode).toBe("SIGTERM");
  });

  test("spawnSync returns status and stdout", () => {
    expect(runtime.spawnSync(["bash", "-c", "printf ok; exit 4"])).toEqual({
      exitCode: 4,
      stdout: new TextEncoder().encode("ok") as any,
    });
  });

  test("spawnSync gives the child no environment of synapse's (a key included), only a system PATH", () => {
    process.env.SYNAPSE_TEST_SECRET = "sk-canary-2b7e";
    try {
      const env = new TextDecoder()
        .decode(runtime.spawnSync(["/usr/bin/env"]).stdout)
        .trim()
        .split("\n");
      expect(env).toEqual([`PATH=${SYSTEM_PATH}`]);
    } finally {
      delete process.env.SYNAPSE_TEST_SECRET;
    }
  });
});

describe("portable helpers", () => {
  test("which finds executables on the given PATH only", () => {
    expect(which("bash", "/nonexistent:/usr/bin:/bin")).toMatch(/^\/(usr\/)?bin\/bash$/);
    expect(which("bash", "/nonexistent")).toBeNull();
    expect(which("/bin/sh", "")).toBe("/bin/sh");
    expect(which("passwd-is-not-executable", "/etc")).toBeNull();
  });

  test("sha256Hex matches the FIPS 180-2 vector", async () => {
    expect(await sha256Hex(new TextEncoder().encode("abc"))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  test("sleep resolves", async () => {
    expect(await sleep(1)).toBeUndefined();
  });
});

describe("glob matching agrees between the Bun and Deno implementations", () => {
  const bun = bunRuntime();
  const deno = denoRuntime();
  // [pattern, path, matches]
  const rows: Array<[string, string, boolean]> = [
    ["*.ts", "a.ts", true],
    ["*.ts", "dir/a.ts", false],
    ["**/*.ts", "dir/sub/a.ts", true],
    ["**/*.ts", "a.ts", true],
    ["src/**", "src/a/b.md", true],
    ["{a,b}.md", "b.md", true],
    ["{a,b}.md", "c.md", false],
    ["?.txt", "x.txt", true],
    ["?.txt", "xy.txt", false],
    ["[ab].js", "a.js", true],
    ["[ab].js", "c.js", false],
    ["*.test.ts", "edit.test.ts", true],
  ];
  for (const [pattern, path, matches] of rows) {
    test(`${pattern} ~ ${path}: ${matches}`, () => {
      expect(bun.globMatcher(pattern)(path)).toBe(matches);
      expect(deno.globMatcher(pattern)(path)).toBe(matches);
    });
  }
});

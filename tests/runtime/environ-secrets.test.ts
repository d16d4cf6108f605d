// The keys disappear from this process's kernel-visible environment block (/proc/<pid>/environ,
// which other processes of the same user can read) while process.env keeps them.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const MODULE = join(import.meta.dir, "../../src/runtime/environ-secrets.ts");
const linux = process.platform === "linux";

async function runChild(names: string[], env: Record<string, string>) {
  const script = `
    const { readFileSync } = await import("node:fs");
    const { blankSecretsInProcEnviron } = await import(${JSON.stringify(MODULE)});
    const count = await blankSecretsInProcEnviron(${JSON.stringify(names)});
    const block = readFileSync("/proc/self/environ", "latin1").split("\\0").filter(Boolean);
    process.stdout.write(JSON.stringify({ count, block, kept: process.env.SYN_TEST_KEY }));`;
  const proc = Bun.spawn([process.execPath, "-e", script], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()];
  expect(await proc.exited, err).toBe(0);
  return JSON.parse(out) as { count: number; block: string[]; kept: string };
}

describe.skipIf(!linux)("blankSecretsInProcEnviron", () => {
  test("stars every byte of each named value, leaves the rest and process.env alone", async () => {
    const r = await runChild(["SYN_TEST_KEY", "SYN_TEST_TOKEN", "SYN_TEST_UNSET"], {
      SYN_TEST_KEY: "sk-secret=with equals",
      SYN_TEST_TOKEN: "t0k",
      SYN_TEST_PLAIN: "visible",
      SYN_TEST_KEY_SUFFIX: "not-this-one",
    });
    expect(r.count).toBe(2);
    expect(r.block).toContain(`SYN_TEST_KEY=${"*".repeat("sk-secret=with equals".length)}`);
    expect(r.block).toContain("SYN_TEST_TOKEN=***");
    expect(r.block).toContain("SYN_TEST_PLAIN=visible");
    expect(r.block).toContain("SYN_TEST_KEY_SUFFIX=not-this-one");
    expect(r.block.join("\n")).not.toContain("secret");
    expect(r.kept).toBe("sk-secret=with equals");
  });

  test("an empty value counts and stays empty; no names, nothing to do", async () => {
    const r = await runChild(["SYN_TEST_KEY"], { SYN_TEST_KEY: "" });
    expect(r.count).toBe(1);
    expect(r.block).toContain("SYN_TEST_KEY=");
    expect((await runChild([], { SYN_TEST_KEY: "abc" })).block).toContain("SYN_TEST_KEY=abc");
  });
});

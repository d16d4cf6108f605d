// Grep and Glob from the compiled binary copied to a folder with no node_modules: ripgrep unpacked
// from inside the binary into the cache folder, the JavaScript fallback when it cannot be, and
// `synapse doctor` naming the engine (two at once, racing to unpack).

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();
let root: string;
let binary: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "synapse-search-e2e-"));
  mkdirSync(join(root, "bin"));
  binary = join(root, "bin", "synapse");
  copyFileSync(BINARY, binary);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(args: string[], env: Record<string, string>, cwd: string) {
  const home = tempHome();
  const proc = Bun.spawn([binary, ...args], {
    cwd,
    env: { PATH: "/usr/bin:/bin", ...home.env, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  rmSync(home.dir, { recursive: true, force: true });
  return { stdout, stderr, code };
}

function project(): string {
  const dir = mkdtempSync(join(root, "project-"));
  mkdirSync(join(dir, "src"));
  mkdirSync(join(dir, "gen"));
  writeFileSync(join(dir, ".gitignore"), "gen/\n");
  writeFileSync(join(dir, "src", "a.ts"), "export const needle = 1;\n");
  writeFileSync(join(dir, "gen", "b.ts"), "export const needle = 2;\n");
  writeFileSync(join(dir, "notes.md"), "no match here\n");
  return dir;
}

const script = [
  {
    toolCalls: [
      { name: "Grep", input: { pattern: "needle\\s*=", output_mode: "content" } },
      { name: "Glob", input: { pattern: "**/*.ts" } },
    ],
  },
  { toolCalls: [{ name: "Grep", input: { pattern: "needle" } }] },
  { text: "done" },
];

function toolResults(body: any): string[] {
  const last = body.messages.at(-1);
  return last.content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : JSON.stringify(b.content)));
}

describe("search from the compiled binary", () => {
  test("runs on ripgrep unpacked into $XDG_CACHE_HOME/synapse", async () => {
    const dir = project();
    const cache = join(root, "cache-ok");
    const s = await serve(script);
    const r = await run(["-o", "json", "find the needle"], { ...providerEnv(s.url), XDG_CACHE_HOME: cache }, dir);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("slower built-in search");
    expect(toolResults(s.requests[1]!.body)).toEqual([`${dir}/src/a.ts:1:export const needle = 1;`, `${dir}/src/a.ts`]);
    expect(toolResults(s.requests[2]!.body)).toEqual([`${dir}/src/a.ts`]);
    const files = readdirSync(join(cache, "synapse"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^rg-\w+$/);
    expect(statSync(join(cache, "synapse")).mode & 0o777).toBe(0o700);
  });

  test("falls back to the JavaScript search with one warning when rg cannot be unpacked", async () => {
    const dir = project();
    writeFileSync(join(root, "not-a-dir"), "");
    const s = await serve(script);
    const r = await run(["find the needle"], { ...providerEnv(s.url), XDG_CACHE_HOME: join(root, "not-a-dir") }, dir);
    expect(r.code).toBe(0);
    expect(r.stderr.split("slower built-in search")).toHaveLength(2);
    expect(r.stderr).toContain(`ripgrep could not be unpacked into ${root}/not-a-dir/synapse`);
    expect(toolResults(s.requests[1]!.body)).toEqual([`${dir}/src/a.ts:1:export const needle = 1;`, `${dir}/src/a.ts`]);
    expect(toolResults(s.requests[2]!.body)).toEqual([`${dir}/src/a.ts`]);
  });

  // `type` is refused by the JavaScript fallback, so a result proves ripgrep ran.
  test("a sub-agent's Grep in a worker thread runs on the same ripgrep", async () => {
    const dir = project();
    const cache = join(root, "cache-sub");
    const isSub = (req: any) => JSON.stringify(req.body?.system ?? "").includes("You are a sub-agent");
    let main = 0;
    const s = await serve((req) => {
      if (isSub(req))
        return req.body.messages.length === 1
          ? { toolCalls: [{ name: "Grep", input: { pattern: "needle", output_mode: "count", type: "ts" } }] }
          : { text: "found it" };
      return main++ === 0
        ? { toolCalls: [{ name: "Bash", input: { command: "task:explore --prompt find" } }] }
        : { text: "done" };
    });
    const r = await run(["-o", "json", "go"], { ...providerEnv(s.url), XDG_CACHE_HOME: cache }, dir);
    expect(r.code).toBe(0);
    const subSecond = s.requests.find((q) => isSub(q) && q.body.messages.length === 3)!;
    expect(toolResults(subSecond.body)).toEqual([`${dir}/src/a.ts:1`]);
    expect(r.stderr).not.toContain("slower built-in search");
    expect(readdirSync(join(cache, "synapse"))).toHaveLength(1);
  }, 30_000);

  test("SIGINT mid-search: exit 130 and rg's process group is gone", async () => {
    const dir = project();
    // rg opens every .gitignore it meets: a FIFO holds it mid-search until written to.
    spawnSync("mkfifo", [join(dir, "src", ".gitignore")]);
    const s = await serve([{ toolCalls: [{ name: "Grep", input: { pattern: "needle" } }] }, { text: "done" }]);
    const home = tempHome();
    const proc = Bun.spawn([binary, "go"], {
      cwd: dir,
      env: { PATH: "/usr/bin:/bin", ...home.env, ...providerEnv(s.url), XDG_CACHE_HOME: join(root, "cache-int") },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    // Opening the FIFO for writing completes once rg has opened it for reading.
    const writer = await open(join(dir, "src", ".gitignore"), "w");
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    // Checked before the FIFO is released: an rg still alive would still be waiting on it.
    const ps = spawnSync("ps", ["-eo", "args"], { encoding: "utf8" }).stdout;
    await writer.close();
    expect(ps.split("\n").filter((l) => l.includes(dir))).toEqual([]);
    rmSync(home.dir, { recursive: true, force: true });
  }, 30_000);

  test("doctor names the engine; two at once on an empty cache both unpack and run rg", async () => {
    const cache = join(root, "cache-race");
    const runs = await Promise.all([0, 1].map(() => run(["doctor"], { XDG_CACHE_HOME: cache }, root)));
    for (const r of runs)
      expect(r.stdout).toMatch(new RegExp(`^ok {4}search: ripgrep 15\\.\\S+ \\(${cache}/synapse/rg-\\w+\\)$`, "m"));
    expect(readdirSync(join(cache, "synapse"))).toHaveLength(1);
  }, 30_000);
});

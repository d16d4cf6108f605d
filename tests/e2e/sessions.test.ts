// Sessions through the compiled binary: archive survives kill -9, --continue / --resume, the
// lock between two processes, torn lines, listing, images by reference.

import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, spawnBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();

function sessionDirs(home: string): string[] {
  const root = join(home, "sessions");
  return readdirSync(root).map((id) => join(root, id));
}
const allText = (body: any) => JSON.stringify(body.messages);

// The full-disk test needs a small tmpfs; where mounting is not allowed it is reported as skipped.
const canMountTmpfs = (() => {
  const probe = mkdtempSync(join(tmpdir(), "synapse-tmpfs-probe-"));
  const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=48k", "tmpfs", probe]).exitCode === 0;
  if (mounted) Bun.spawnSync(["umount", "-l", probe]);
  rmSync(probe, { recursive: true, force: true });
  return mounted;
})();

describe("sessions", () => {
  test("kill -9 mid-run: --continue sees every finished turn", async () => {
    const home = tempHome();
    const cwd = mkdtempSync(join(tmpdir(), "synapse-crash-"));
    let s = await serve([
      { toolCalls: [{ name: "Bash", input: { command: "echo turn-one-output" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "echo turn-two-output" } }] },
      { hang: true },
    ]);
    const proc = spawnBinary({ args: ["first prompt"], cwd, env: { ...home.env, ...providerEnv(s.url) } });
    await s.waitForRequests(3);
    proc.kill("SIGKILL");
    await proc.exited;

    s = await serve([{ text: "continued" }]);
    const r = await runBinary({ args: ["-c", "second prompt"], cwd, env: { ...home.env, ...providerEnv(s.url) } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("continued\n");
    const sent = allText(s.requests[0]!.body);
    for (const part of ["first prompt", "turn-one-output", "turn-two-output", "second prompt"])
      expect(sent).toContain(part);
    expect(sessionDirs(home.env.SYNAPSE_HOME!)).toHaveLength(1);
  });

  test("a torn last line is skipped with a warning naming the file and line", async () => {
    const home = tempHome();
    const cwd = mkdtempSync(join(tmpdir(), "synapse-torn-"));
    let s = await serve([{ text: "first answer" }]);
    expect((await runBinary({ args: ["hello"], cwd, env: { ...home.env, ...providerEnv(s.url) } })).code).toBe(0);
    const [dir] = sessionDirs(home.env.SYNAPSE_HOME!);
    appendFileSync(join(dir!, "messages.jsonl"), '{"id":"torn","role":"user","content":[{"type":"te');
    s = await serve([{ text: "still fine" }]);
    const r = await runBinary({ args: ["-c", "again"], cwd, env: { ...home.env, ...providerEnv(s.url) } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("messages.jsonl");
    expect(r.stderr).toMatch(/line 3/);
    expect(allText(s.requests[0]!.body)).toContain("first answer");
  });

  test("--resume <id> picks that session; an unknown id exits 2; --continue with none exits 2", async () => {
    const home = tempHome();
    const cwd = mkdtempSync(join(tmpdir(), "synapse-resume-"));
    let s = await serve([{ text: "A" }]);
    await runBinary({ args: ["-o", "json", "alpha"], cwd, env: { ...home.env, ...providerEnv(s.url) } });
    const id = readdirSync(join(home.env.SYNAPSE_HOME!, "sessions"))[0]!;
    s = await serve([{ text: "B" }]);
    const r = await runBinary({ args: ["-o", "json", "-r", id, "beta"], env: { ...home.env, ...providerEnv(s.url) } });
    expect(JSON.parse(r.stdout).session_id).toBe(id);
    expect(allText(s.requests[0]!.body)).toContain("alpha");
    expect(
      (await runBinary({ args: ["-r", "20990101-000000-ffffff", "x"], env: { ...home.env, ...providerEnv(s.url) } }))
        .code,
    ).toBe(2);
    const other = mkdtempSync(join(tmpdir(), "synapse-none-"));
    const none = await runBinary({ args: ["-c", "x"], cwd: other, env: { ...home.env, ...providerEnv(s.url) } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no previous session");
  });

  test("a second writer on a live session gets a clear error, exit 2", async () => {
    const home = tempHome();
    const cwd = mkdtempSync(join(tmpdir(), "synapse-lock-"));
    const s = await serve((_req, i) => (i === 0 ? { hang: true } : { text: "x" }));
    const first = spawnBinary({ args: ["hold"], cwd, env: { ...home.env, ...providerEnv(s.url) } });
    await s.waitForRequests(1);
    const r = await runBinary({ args: ["-c", "intrude"], cwd, env: { ...home.env, ...providerEnv(s.url) } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(String(first.pid));
    first.kill("SIGTERM");
    expect(await first.exited).toBe(143);
  });

  test("a session whose meta.json is damaged is listed, resumable with -r, and repaired", async () => {
    const home = tempHome();
    const cwd = mkdtempSync(join(tmpdir(), "synapse-meta-"));
    let s = await serve([{ text: "first" }]);
    await runBinary({ args: ["remember the word zebra"], cwd, env: { ...home.env, ...providerEnv(s.url) } });
    const [dir] = sessionDirs(home.env.SYNAPSE_HOME!);
    const id = dir!.split("/").pop()!;
    writeFileSync(join(dir!, "meta.json"), "{garbage");
    const list = await runBinary({ args: ["sessions"], env: home.env });
    expect(list.stdout).toContain("remember the word zebra");
    expect(list.stderr).toContain("meta.json is missing or unreadable");
    const lost = await runBinary({ args: ["-c", "x"], cwd, env: { ...home.env, ...providerEnv(s.url) } });
    expect(lost.code).toBe(2);
    expect(lost.stderr).toContain(`-r <id>`);
    s = await serve([{ text: "resumed" }]);
    const r = await runBinary({
      args: ["-r", id, "what was the word?"],
      cwd,
      env: { ...home.env, ...providerEnv(s.url) },
    });
    expect(r.code).toBe(0);
    expect(allText(s.requests[0]!.body)).toContain("zebra");
    expect(JSON.parse(readFileSync(join(dir!, "meta.json"), "utf8")).cwd).toBe(cwd);
  });

  test("synapse sessions lists id, title and message count", async () => {
    const home = tempHome();
    const s = await serve([{ text: "ok" }]);
    await runBinary({ args: ["list me please"], env: { ...home.env, ...providerEnv(s.url) } });
    const r = await runBinary({ args: ["sessions"], env: home.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("list me please");
    const json = await runBinary({ args: ["sessions", "-o", "json"], env: home.env });
    expect(JSON.parse(json.stdout)[0]).toMatchObject({ title: "list me please", messages: 2 });
  });

  test("images are stored once by hash and referenced, not inlined, in the archive", async () => {
    const home = tempHome();
    const cwd = mkdtempSync(join(tmpdir(), "synapse-img-"));
    const png = new Uint8Array(4096);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    writeFileSync(join(cwd, "a.png"), png);
    writeFileSync(join(cwd, "b.png"), png);
    const s = await serve([
      {
        toolCalls: [
          { name: "Read", input: { path: "a.png" } },
          { name: "Read", input: { path: "b.png" } },
        ],
      },
      { text: "two identical images" },
    ]);
    const r = await runBinary({ args: ["--image", "a.png", "look"], cwd, env: { ...home.env, ...providerEnv(s.url) } });
    expect(r.code).toBe(0);
    const [dir] = sessionDirs(home.env.SYNAPSE_HOME!);
    expect(readdirSync(join(dir!, "images"))).toHaveLength(1);
    const archive = readFileSync(join(dir!, "messages.jsonl"), "utf8");
    expect(archive).toContain('"sha256"');
    expect(archive.length).toBeLessThan(4096);
    expect(JSON.stringify(s.requests[1]!.body)).toContain(Buffer.from(png).toString("base64").slice(0, 40));
  });

  test("the memory monitor warns and acts at low thresholds, and says so in stats", async () => {
    const s = await serve([{ toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] }, { text: "ok" }]);
    const r = await runBinary({
      args: ["-o", "json", "go"],
      env: {
        ...providerEnv(s.url),
        SYNAPSE_MEMORY_CHECK_INTERVAL_MS: "5",
        SYNAPSE_MEMORY_WARN_MB: "1",
        SYNAPSE_MEMORY_CRITICAL_MB: "2",
      },
    });
    expect(r.code).toBe(0);
    expect(r.stderr.match(/memory/gi)?.length).toBeGreaterThanOrEqual(1);
    const stats = JSON.parse(r.stdout).stats;
    expect(stats.memory_actions).toBeGreaterThanOrEqual(1);
    expect(stats.compaction_requested).toBe(true);
    expect(stats.peak_rss_mb).toBeGreaterThan(1);
  });

  test.skipIf(!canMountTmpfs)(
    "a full disk: warning, the answer still printed, exit 1 saying the session could not be saved",
    async () => {
      const home = tempHome();
      const mnt = join(home.dir, "small");
      require("node:fs").mkdirSync(mnt);
      const mount = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=48k", "tmpfs", mnt]);
      expect(mount.stderr.toString()).toBe("");
      expect(mount.exitCode).toBe(0);
      try {
        const big = "x".repeat(20_000);
        const s = await serve([
          { toolCalls: [{ name: "Bash", input: { command: `printf '${big}'` } }] },
          { toolCalls: [{ name: "Bash", input: { command: `printf '${big}'` } }] },
          { toolCalls: [{ name: "Bash", input: { command: `printf '${big}'` } }] },
          { text: "the answer" },
        ]);
        const r = await runBinary({ args: ["go"], env: { ...home.env, SYNAPSE_HOME: mnt, ...providerEnv(s.url) } });
        expect(r.stdout).toBe("the answer\n");
        expect(r.stderr).toContain("warning:");
        expect(r.stderr).toContain("could not save the session");
        expect(r.code).toBe(1);
        // What did fit is intact and readable.
        const [dir] = readdirSync(join(mnt, "sessions")).map((id) => join(mnt, "sessions", id));
        const lines = readFileSync(join(dir!, "messages.jsonl"), "utf8").split("\n").filter(Boolean);
        for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
        expect(lines[0]).toContain('"go"');
      } finally {
        Bun.spawnSync(["umount", "-l", mnt]);
      }
    },
  );
});

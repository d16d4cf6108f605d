// `synapse compact` on sub-agent transcripts through the compiled binary: transcripts the binary's
// own sub-agents wrote are compressed and counted, and kill -9 in the middle leaves every one readable.

import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/protocol/message.ts";
import { Archive } from "../../src/store/archive.ts";
import { openSession } from "../../src/store/session.ts";
import { openTaskStore, taskStoreDir } from "../../src/store/task-store.ts";
import { storeConfig } from "../store/helpers.ts";
import { type RecordedRequest, startFakeLLM } from "../support/fake-llm.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";
import { killCompactWhen } from "../support/kill-compact.ts";

const quiet = () => {};
const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");

async function archived(dir: string): Promise<Message[]> {
  const archive = await Archive.open({ dir, rotateBytes: 1 << 30, onWarning: quiet });
  const out: Message[] = [];
  for await (const { message } of archive.read()) out.push(message);
  return out;
}

const segmentsIn = (dir: string, suffix: string) =>
  readdirSync(dir).filter((n) => n.startsWith("messages") && n.endsWith(suffix));

describe("synapse compact and sub-agent transcripts", () => {
  test("the binary's own sub-agent transcripts are compressed, counted in the report, and stay readable", async () => {
    let main = 0;
    const mainReplies = [
      {
        toolCalls: [1, 2].map((i) => ({
          id: `toolu_t${i}`,
          name: "Bash",
          input: { command: `task:explore -p "look ${i}"` },
        })),
      },
      { text: "both looked" },
      { text: "continued" },
    ];
    const fake = await startFakeLLM((req: RecordedRequest) =>
      isSub(req)
        ? { text: `found: ${"src/store/archive.ts ".repeat(120)}` }
        : (mainReplies[main++] ?? { text: "over" }),
    );
    try {
      const home = tempHome();
      // Small segments, so each transcript has several.
      const env = { ...home.env, ...providerEnv(fake.url), SYNAPSE_ARCHIVE_ROTATE_BYTES: "1024" };
      const first = await runBinary({ args: ["-o", "json", "go"], env, cwd: home.dir });
      expect(first.code).toBe(0);
      const sessionDir = join(home.env.SYNAPSE_HOME!, "sessions", JSON.parse(first.stdout).session_id);
      const taskDirs = readdirSync(join(sessionDir, "tasks"))
        .sort()
        .map((t) => join(sessionDir, "tasks", t));
      expect(taskDirs).toHaveLength(2);
      const before = await Promise.all(taskDirs.map(archived));
      const plain = taskDirs.reduce((sum, d) => sum + segmentsIn(d, ".jsonl").length, 0);
      expect(plain).toBeGreaterThanOrEqual(4);
      expect(before.every((messages) => messages.length >= 2)).toBe(true);

      const dry = await runBinary({ args: ["compact", "--dry-run"], env, cwd: home.dir });
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain(`; ${plain} in 2 sub-agent transcripts)`);
      expect(taskDirs.reduce((sum, d) => sum + segmentsIn(d, ".jsonl").length, 0)).toBe(plain);

      const r = await runBinary({ args: ["compact", "-o", "json"], env, cwd: home.dir });
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.sessions[0]).toMatchObject({
        status: "compacted",
        task_transcripts: 2,
        task_segments_compressed: plain,
      });
      expect(report.total).toMatchObject({ compacted: 1, task_transcripts: 2, task_segments_compressed: plain });
      expect(report.sessions[0].bytes_after).toBeLessThan(report.sessions[0].bytes_before);
      for (const [i, dir] of taskDirs.entries()) {
        expect(segmentsIn(dir, ".jsonl")).toEqual([]);
        expect(await archived(dir)).toEqual(before[i]!);
      }

      // The session itself carries on.
      const cont = await runBinary({ args: ["-c", "and now?"], env, cwd: home.dir });
      expect(cont.code).toBe(0);
      expect(cont.stdout).toContain("continued");
    } finally {
      await fake.stop();
    }
  }, 60_000);

  test("kill -9 mid-compact, twice: every transcript stays readable and a clean run finishes the job", async () => {
    const home = tempHome();
    const root = home.env.SYNAPSE_HOME!;
    const { store } = await openSession({ home: root, cwd: "/w", model: "m", config: storeConfig(), onWarning: quiet });
    store.append({ id: "p0", role: "user", content: [{ type: "text", text: "go" }], ts: 1 });
    await store.close();
    // Big enough that compressing takes a while: 4 transcripts × 5 segments of ~1 MB.
    const tasks = ["toolu_k1", "toolu_k2", "toolu_k3", "toolu_k4"];
    const words = [
      "src/store/archive.ts",
      "error",
      "warning:",
      "function",
      "return",
      "const",
      "0x1f",
      "passed",
      "tests/e2e",
      "import",
    ];
    for (const [t, taskId] of tasks.entries()) {
      const task = await openTaskStore({
        sessionDir: store.dir,
        taskId,
        cwd: "/w",
        model: "m",
        title: taskId,
        config: storeConfig({ rotateBytes: 1 << 20 }),
        onWarning: quiet,
      });
      let n = t + 1;
      for (let i = 0; i < 300; i++) {
        let text = "";
        while (text.length < 16_000) {
          n = (n * 1103515245 + 12345) >>> 0;
          text += words[n % words.length] + (n % 7 === 0 ? "\n" : " ") + (n % 13 === 0 ? `${n % 100000} ` : "");
        }
        task.append({
          id: `${taskId}-m${i}`,
          role: i % 2 ? "assistant" : "user",
          content: [{ type: "text", text }],
          ts: i,
        });
      }
      await task.close();
    }
    const dirs = tasks.map((t) => taskStoreDir(store.dir, t));
    const before = await Promise.all(dirs.map(archived));
    const files = () => dirs.flatMap((d) => readdirSync(d));

    await killCompactWhen(home.env, () => files().some((f) => f.endsWith(".tmp")));
    for (const [i, dir] of dirs.entries()) expect(await archived(dir)).toEqual(before[i]!);
    const done = files().filter((f) => f.endsWith(".gz")).length;
    await killCompactWhen(home.env, () => files().filter((f) => f.endsWith(".gz")).length >= done + 3);
    for (const [i, dir] of dirs.entries()) expect(await archived(dir)).toEqual(before[i]!);

    const r = await runBinary({ args: ["compact", "--all", "-o", "json"], env: home.env, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).total).toMatchObject({ failed: 0, skipped: 0 });
    for (const [i, dir] of dirs.entries()) {
      const names = readdirSync(dir).sort();
      expect(names.filter((n) => n.endsWith(".tmp") || n.endsWith(".jsonl") || n === "lock")).toEqual([]);
      expect(names.filter((n) => n.endsWith(".gz")).length).toBeGreaterThanOrEqual(5);
      const meta = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8"));
      expect(meta.bytes).toBe(
        names.filter((n) => n.startsWith("messages")).reduce((sum, n) => sum + statSync(join(dir, n)).size, 0),
      );
      expect(await archived(dir)).toEqual(before[i]!);
    }
    expect(existsSync(join(store.dir, "lock"))).toBe(false);
  }, 120_000);
});

// `synapse compact` and sub-agent transcripts, in process on real files written by the real task
// store: every segment compressed, counted in the report, still readable and reopenable; nothing
// touched while the parent session is in use; locks and what a killed run left behind.
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Message } from "../../src/protocol/message.ts";
import { Archive } from "../../src/store/archive.ts";
import { compactSession } from "../../src/store/compact-session.ts";
import { acquireLock } from "../../src/store/lock.ts";
import { openSession } from "../../src/store/session.ts";
import { openTaskStore, taskStoreDir } from "../../src/store/task-store.ts";
import { spawnFixture, type Child } from "./child.ts";
import { msg, readAllIds, removeTempHomes, storeConfig, tempHome } from "./helpers.ts";

const holders: Child[] = [];
afterAll(async () => {
  for (const h of holders) h.proc.kill("SIGKILL");
  await Promise.all(holders.map((h) => h.proc.exited));
  removeTempHomes();
});

const quiet = () => {};
const TASKS = ["toolu_01a", "toolu_01b"];
const PER_TASK = 40;

async function archived(dir: string): Promise<Message[]> {
  const archive = await Archive.open({ dir, rotateBytes: 1 << 30, onWarning: quiet });
  const out: Message[] = [];
  for await (const { message } of archive.read()) out.push(message);
  return out;
}

/** A closed session whose two sub-agents each wrote a transcript of several segments and one image. */
async function sessionWithTranscripts(home: string): Promise<{ id: string; dir: string }> {
  const { store } = await openSession({ home, cwd: "/w", model: "m", config: storeConfig(), onWarning: quiet });
  store.append(msg(0));
  store.append(msg(1));
  await store.close();
  for (const taskId of TASKS) {
    const task = await openTaskStore({
      sessionDir: store.dir,
      taskId,
      cwd: "/w",
      model: "m",
      title: taskId,
      config: storeConfig({ rotateBytes: 4096 }),
      onWarning: quiet,
    });
    const image = await task.saveImage(Buffer.from(`png of ${taskId} `.repeat(50)), "image/png");
    task.append({
      id: `${taskId}-img`,
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image", image },
      ],
      ts: 1,
    });
    for (let i = 0; i < PER_TASK; i++)
      task.append(msg(i, `output ${i} of ${taskId}: ${"src/store/archive.ts passed ".repeat(20)}`));
    await task.close();
    // One no message names, as a run killed between saving an image and archiving its message leaves.
    const orphan = Buffer.from(`orphan of ${taskId}`);
    writeFileSync(
      join(taskStoreDir(store.dir, taskId), "images", `${createHash("sha256").update(orphan).digest("hex")}.png`),
      orphan,
    );
  }
  return { id: store.id, dir: store.dir };
}

function files(dir: string): string[] {
  return readdirSync(dir).sort();
}

describe("compacting sub-agent transcripts", () => {
  test("every segment of every transcript is compressed and counted; each stays readable and reopenable", async () => {
    const home = tempHome();
    const { id, dir } = await sessionWithTranscripts(home);
    const before = new Map<string, Message[]>();
    const plainSegments = new Map<string, number>();
    for (const t of TASKS) {
      const tdir = taskStoreDir(dir, t);
      before.set(t, await archived(tdir));
      plainSegments.set(t, files(tdir).filter((n) => n.endsWith(".jsonl")).length);
      expect(plainSegments.get(t)!).toBeGreaterThan(2);
    }
    const mainBefore = files(dir);

    const report = await compactSession(id, { home, dryRun: false, now: Date.now() });
    expect(report.status).toBe("compacted");
    expect(report.taskTranscripts).toBe(2);
    expect(report.taskSegments).toBe(plainSegments.get(TASKS[0]!)! + plainSegments.get(TASKS[1]!)!);
    // The session itself has no compaction record: its own segment stays; only transcripts count.
    expect(report.segmentsCompressed).toBe(report.taskSegments);
    expect(report.imagesRemoved).toBe(2);
    expect(report.bytesAfter).toBeLessThan(report.bytesBefore);
    expect(files(dir)).toEqual(mainBefore);

    for (const t of TASKS) {
      const tdir = taskStoreDir(dir, t);
      const names = files(tdir);
      expect(names.filter((n) => n.endsWith(".jsonl"))).toEqual([]);
      expect(names.filter((n) => n.endsWith(".jsonl.gz"))).toHaveLength(plainSegments.get(t)!);
      expect(names).not.toContain("lock");
      expect(readdirSync(join(tdir, "images"))).toHaveLength(1);
      expect(await archived(tdir)).toEqual(before.get(t)!);
      const meta = JSON.parse(readFileSync(join(tdir, "meta.json"), "utf8"));
      expect(meta.bytes).toBe(
        names.filter((n) => n.startsWith("messages")).reduce((sum, n) => sum + statSync(join(tdir, n)).size, 0),
      );
    }

    // A transcript reopened after compaction appends to a new plain segment and reads through all.
    const again = await openTaskStore({
      sessionDir: dir,
      taskId: TASKS[0]!,
      cwd: "/w",
      model: "m",
      title: "t",
      config: storeConfig({ rotateBytes: 4096 }),
      onWarning: quiet,
    });
    again.append(msg(999));
    await again.flush();
    expect(await readAllIds(again)).toEqual([...before.get(TASKS[0]!)!.map((m) => m.id), "m999"]);
    await again.close();

    // A second run finds the rest compressed already (the reopened one's new segment aside).
    const second = await compactSession(id, { home, dryRun: false, now: Date.now() });
    expect({ status: second.status, tasks: second.taskTranscripts, segments: second.taskSegments }).toEqual({
      status: "compacted",
      tasks: 1,
      segments: 1,
    });
    const third = await compactSession(id, { home, dryRun: false, now: Date.now() });
    expect({ status: third.status, segments: third.segmentsCompressed }).toEqual({ status: "unchanged", segments: 0 });
  });

  test("nothing is touched while the parent session is in use; a dry run counts and changes nothing", async () => {
    const home = tempHome();
    const { id, dir } = await sessionWithTranscripts(home);
    const snapshot = () =>
      TASKS.map((t) =>
        files(taskStoreDir(dir, t)).map((n) => `${n}:${statSync(join(taskStoreDir(dir, t), n)).mtimeMs}`),
      );
    const before = snapshot();

    const holder = spawnFixture("holder.ts", [home, id]);
    holders.push(holder);
    await holder.waitFor(/^ready \d+$/);
    const busy = await compactSession(id, { home, dryRun: false, now: Date.now() });
    expect(busy.status).toBe("skipped");
    expect(busy.taskSegments).toBe(0);
    expect(snapshot()).toEqual(before);
    holder.proc.kill("SIGKILL");
    await holder.proc.exited;

    const dry = await compactSession(id, { home, dryRun: true, now: Date.now() });
    expect(dry.status).toBe("compacted");
    expect(dry.taskTranscripts).toBe(2);
    expect(dry.taskSegments).toBeGreaterThan(4);
    expect(dry.imagesRemoved).toBe(2);
    expect(snapshot()).toEqual(before);
  });

  test("a transcript's stale lock is taken over; a live one leaves that transcript alone", async () => {
    const home = tempHome();
    const { id, dir } = await sessionWithTranscripts(home);
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    const staleDir = taskStoreDir(dir, TASKS[0]!);
    writeFileSync(join(staleDir, "lock"), JSON.stringify({ pid: dead.pid, host: hostname(), token: "old" }));
    const liveDir = taskStoreDir(dir, TASKS[1]!);
    const live = acquireLock(liveDir, TASKS[1]!);
    try {
      const report = await compactSession(id, { home, dryRun: false, now: Date.now() });
      expect(report.taskTranscripts).toBe(1);
      expect(files(staleDir).filter((n) => n.endsWith(".jsonl"))).toEqual([]);
      expect(existsSync(join(staleDir, "lock"))).toBe(false);
      expect(files(liveDir).filter((n) => n.endsWith(".gz"))).toEqual([]);
    } finally {
      live.release();
    }
  });

  test("finishes what a killed run left in a transcript: a stale temp copy, a copy beside its original", async () => {
    const home = tempHome();
    const { id, dir } = await sessionWithTranscripts(home);
    const tdir = taskStoreDir(dir, TASKS[0]!);
    const expected = await archived(tdir);
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    writeFileSync(join(tdir, `messages.jsonl.gz.${dead.pid}.tmp`), "half a gzip");
    writeFileSync(join(tdir, "messages.1.jsonl.gz"), gzipSync(readFileSync(join(tdir, "messages.1.jsonl"))));
    // Readers meanwhile see every line once.
    expect(await archived(tdir)).toEqual(expected);
    await compactSession(id, { home, dryRun: false, now: Date.now() });
    expect(files(tdir).filter((n) => n.endsWith(".tmp") || n.endsWith(".jsonl"))).toEqual([]);
    expect(await archived(tdir)).toEqual(expected);
  });
});

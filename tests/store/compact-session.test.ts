// Compressed archive segments and compacting one session, in process: what readers see when a
// segment is gzip, both copies, or a damaged copy; what compactSession changes and what it keeps.
import { afterAll, describe, expect, test } from "bun:test";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Message } from "../../src/protocol/message.ts";
import { Archive, listSegments } from "../../src/store/archive.ts";
import { compactSession } from "../../src/store/compact-session.ts";
import { summarizeArchive } from "../../src/store/meta-rebuild.ts";
import { openSession } from "../../src/store/session.ts";
import { writeSession } from "../support/session-fixture.ts";
import { msg, removeTempHomes, storeConfig, tempHome, warnings } from "./helpers.ts";

afterAll(removeTempHomes);

const quiet = () => {};

async function archived(dir: string, warn: (m: string) => void = quiet): Promise<Message[]> {
  const archive = await Archive.open({ dir, rotateBytes: 1 << 30, onWarning: warn });
  const out: Message[] = [];
  for await (const { message } of archive.read()) out.push(message);
  return out;
}

async function resumed(home: string, id: string): Promise<Message[]> {
  const { store } = await openSession({
    home,
    cwd: "/w",
    model: "claude-test",
    config: storeConfig(),
    resume: { id },
    onWarning: quiet,
  });
  const out: Message[] = [];
  for await (const m of store.readAll()) out.push(m);
  await store.close();
  return out;
}

function lines(n: number, from = 0): string {
  return `${Array.from({ length: n }, (_, i) => JSON.stringify(msg(from + i))).join("\n")}\n`;
}

describe("compressed segments", () => {
  test("read, tail, count and summary go through a .gz segment; both copies are read once", async () => {
    const dir = tempHome();
    writeFileSync(join(dir, "messages.jsonl.gz"), gzipSync(lines(10)));
    writeFileSync(join(dir, "messages.1.jsonl"), lines(10, 10));
    // A run stopped between the copy and the removal of the original: the original wins.
    writeFileSync(join(dir, "messages.1.jsonl.gz"), gzipSync(lines(10, 10)));
    writeFileSync(join(dir, "messages.2.jsonl"), lines(5, 20));
    const segments = await listSegments(dir);
    expect(segments.map((s) => [s.index, s.compressed ?? false])).toEqual([
      [0, true],
      [1, false],
      [2, false],
    ]);
    expect((await archived(dir)).map((m) => m.id)).toEqual(Array.from({ length: 25 }, (_, i) => `m${i}`));
    const archive = await Archive.open({ dir, rotateBytes: 1 << 30, onWarning: quiet });
    expect((await archive.tail(22, 1 << 20)).map((a) => a.message.id)[0]).toBe("m3");
    expect(await archive.count()).toBe(25);
    expect((await summarizeArchive(dir))?.messages).toBe(25);
  });

  test("a reader that listed a segment before compact replaced it reads the copy instead", async () => {
    const dir = tempHome();
    writeFileSync(join(dir, "messages.jsonl"), lines(10));
    writeFileSync(join(dir, "messages.1.jsonl"), lines(3, 10));
    const archive = await Archive.open({ dir, rotateBytes: 1 << 30, onWarning: quiet });
    const snapshot = archive.snapshot();
    writeFileSync(join(dir, "messages.jsonl.gz"), gzipSync(readFileSync(join(dir, "messages.jsonl"))));
    unlinkSync(join(dir, "messages.jsonl"));
    const ids: string[] = [];
    for await (const { message } of archive.read(snapshot)) ids.push(message.id);
    expect(ids).toEqual(Array.from({ length: 13 }, (_, i) => `m${i}`));
  });

  test("a damaged .gz is read up to the damage with a warning; the writer never appends to a .gz", async () => {
    const dir = tempHome();
    const gz = gzipSync(lines(2000));
    writeFileSync(join(dir, "messages.jsonl.gz"), gz.subarray(0, gz.length >> 1));
    const w = warnings();
    const got = await archived(dir, w.push);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(2000);
    expect(w.list.join("\n")).toContain("cannot read the rest of");
    const archive = await Archive.open({ dir, rotateBytes: 1 << 30, onWarning: quiet });
    archive.enqueue(JSON.stringify(msg(5000)), 40);
    await archive.write();
    expect(readdirSync(dir).sort()).toEqual(["messages.1.jsonl", "messages.jsonl.gz"]);
  });
});

describe("compactSession", () => {
  test("compresses segments before the last compaction record, removes orphan images, keeps every message", async () => {
    const home = tempHome();
    const id = "20260101-000000-aaaaaa";
    const s = writeSession(home, {
      id,
      cwd: "/w",
      segments: 5,
      turnsPerSegment: 10,
      outputChars: 300,
      compactionIn: [1, 3],
      images: 2,
      orphanImages: 3,
    });
    const before = await archived(s.dir);
    const report = await compactSession(id, { home, dryRun: false, now: Date.now() });
    expect(report).toMatchObject({ status: "compacted", segmentsCompressed: 3, imagesRemoved: 3 });
    expect(report.bytesAfter).toBeLessThan(report.bytesBefore);
    const names = readdirSync(s.dir).sort();
    expect(names).toEqual([
      "images",
      "messages.1.jsonl.gz",
      "messages.2.jsonl.gz",
      "messages.3.jsonl",
      "messages.4.jsonl",
      "messages.jsonl.gz",
      "meta.json",
    ]);
    expect(readdirSync(join(s.dir, "images"))).toHaveLength(2);
    expect(await archived(s.dir)).toEqual(before);
    // meta.json's byte count follows, so resume does not take the session for a crashed one.
    const meta = JSON.parse(readFileSync(join(s.dir, "meta.json"), "utf8"));
    expect(meta.bytes).toBe((await listSegments(s.dir)).reduce((n, x) => n + x.size, 0));
    expect(await resumed(home, id)).toEqual(before);
    // A second run has nothing left to do.
    expect(await compactSession(id, { home, dryRun: false, now: Date.now() })).toMatchObject({
      status: "unchanged",
      segmentsCompressed: 0,
    });
  });

  test("a torn line at the end of an old segment survives compression as the same skipped line", async () => {
    const home = tempHome();
    const id = "20260101-000000-ffffff";
    const s = writeSession(home, {
      id,
      cwd: "/w",
      segments: 3,
      turnsPerSegment: 6,
      outputChars: 100,
      compactionIn: [2],
    });
    appendFileSync(join(s.dir, "messages.jsonl"), '{"id":"torn","role":"user","content":[{"ty');
    const w1 = warnings();
    const before = await archived(s.dir, w1.push);
    expect((await compactSession(id, { home, dryRun: false, now: Date.now() })).segmentsCompressed).toBe(2);
    const w2 = warnings();
    expect(await archived(s.dir, w2.push)).toEqual(before);
    expect(w1.list).toHaveLength(1);
    expect(w2.list).toEqual(w1.list.map((m) => m.replace("messages.jsonl", "messages.jsonl.gz")));
  });

  test("finishes what a killed run left: a stale temp copy, a copy beside its original", async () => {
    const home = tempHome();
    const id = "20260101-000000-bbbbbb";
    const s = writeSession(home, {
      id,
      cwd: "/w",
      segments: 3,
      turnsPerSegment: 10,
      outputChars: 300,
      compactionIn: [2],
    });
    const before = await archived(s.dir);
    writeFileSync(join(s.dir, "messages.jsonl.gz.999999.tmp"), "half a gzip");
    writeFileSync(join(s.dir, "messages.1.jsonl.gz"), gzipSync(readFileSync(join(s.dir, "messages.1.jsonl"))));
    expect(await archived(s.dir)).toEqual(before);
    const report = await compactSession(id, { home, dryRun: false, now: Date.now() });
    expect(report).toMatchObject({ status: "compacted", segmentsCompressed: 2 });
    expect(readdirSync(s.dir).sort()).toEqual([
      "images",
      "messages.1.jsonl.gz",
      "messages.2.jsonl",
      "messages.jsonl.gz",
      "meta.json",
    ]);
    expect(await archived(s.dir)).toEqual(before);
  });

  test("a copy beside a segment that is not compressed (no compaction record) is removed", async () => {
    const home = tempHome();
    const id = "20260101-000000-cccccc";
    const s = writeSession(home, { id, cwd: "/w", segments: 2, turnsPerSegment: 5, outputChars: 100 });
    writeFileSync(join(s.dir, "messages.jsonl.gz"), gzipSync("stale"));
    const report = await compactSession(id, { home, dryRun: false, now: Date.now() });
    expect(report.status).toBe("unchanged");
    expect(existsSync(join(s.dir, "messages.jsonl.gz"))).toBe(false);
  });

  test("--older-than deletes whole sessions through the trash; a dry run touches nothing", async () => {
    const home = tempHome();
    const id = "20250101-000000-dddddd";
    const s = writeSession(home, {
      id,
      cwd: "/w",
      segments: 2,
      turnsPerSegment: 5,
      outputChars: 100,
      updatedDaysAgo: 40,
      compactionIn: [1],
    });
    const dry = await compactSession(id, { home, dryRun: true, olderThanMs: 30 * 86_400_000, now: Date.now() });
    expect(dry).toMatchObject({ status: "deleted", bytesAfter: 0 });
    expect(existsSync(s.dir)).toBe(true);
    const kept = await compactSession(id, { home, dryRun: true, olderThanMs: 50 * 86_400_000, now: Date.now() });
    expect(kept).toMatchObject({ status: "compacted", segmentsCompressed: 1 });
    expect(existsSync(join(s.dir, "messages.jsonl"))).toBe(true);
    const real = await compactSession(id, { home, dryRun: false, olderThanMs: 30 * 86_400_000, now: Date.now() });
    expect(real.status).toBe("deleted");
    expect(existsSync(s.dir)).toBe(false);
    expect(readdirSync(join(home, "compact-trash"))).toEqual([]);
  });

  test("a session with an unreadable segment fails with a reason and keeps its files", async () => {
    const home = tempHome();
    const id = "20260101-000000-eeeeee";
    const s = writeSession(home, { id, cwd: "/w", segments: 1, turnsPerSegment: 5, outputChars: 100 });
    mkdirSync(join(s.dir, "messages.1.jsonl"));
    const report = await compactSession(id, { home, dryRun: false, now: Date.now() });
    expect(report.status).toBe("failed");
    expect(report.note).toContain("messages.1.jsonl");
    expect(statSync(join(s.dir, "messages.jsonl")).size).toBe(s.bytes);
    expect(existsSync(join(s.dir, "lock"))).toBe(false);
  });
});

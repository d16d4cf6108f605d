// The store's two durability tiers: a turn's flush only appends (it survives kill -9: the page
// cache outlives the process), while fdatasync and meta.json's counts follow within
// DURABLE_SYNC_MS and at close (they survive a power cut). crash.test.ts covers the kill -9 side.
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Archive } from "../../src/store/archive.ts";
import { DURABLE_SYNC_MS } from "../../src/store/message-store.ts";
import { openSession } from "../../src/store/session.ts";
import { pollUntil } from "../support/wait.ts";
import { msg, removeTempHomes, storeConfig, tempHome } from "./helpers.ts";

afterAll(removeTempHomes);

const quiet = () => {};
const metaOf = (dir: string) => JSON.parse(readFileSync(join(dir, "meta.json"), "utf8"));

const STRACE = Bun.which("strace");

/** Why strace cannot trace a child here (no strace, or ptrace refused, as in many containers), if it cannot. */
function straceRefusal(): string | undefined {
  if (!STRACE) return "strace is not installed";
  const probe = Bun.spawnSync([STRACE, "-qq", "-o", "/dev/null", "true"], { stderr: "pipe" });
  if (probe.exitCode === 0) return undefined;
  return `strace cannot trace here: ${probe.stderr.toString().trim().split("\n")[0]}`;
}
const STRACE_REFUSED = straceRefusal();

describe("durability", () => {
  test("flushes append without replacing meta.json; the background sync brings its counts up to the archive", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/d", model: "m", config: storeConfig(), onWarning: quiet });
    store.append(msg(0, "the task"));
    await store.flush();
    for (let i = 1; i <= 20; i++) {
      store.append(msg(i));
      await store.flush();
      // Every flushed line is in the file at once: that is what a kill -9 leaves.
      expect(readFileSync(join(store.dir, "messages.jsonl"), "utf8").trimEnd().split("\n").length).toBe(i + 1);
    }
    await pollUntil(
      `meta.json's count to reach 21 (synced every ${DURABLE_SYNC_MS} ms)`,
      () => metaOf(store.dir).messages === 21,
      {
        seen: () => metaOf(store.dir).messages,
      },
    );
    const meta = metaOf(store.dir);
    expect(meta.bytes).toBe(statSync(join(store.dir, "messages.jsonl")).size);
    expect(meta.title).toBe("the task");
    await store.close();
  });

  test("close() syncs and leaves meta.json matching the archive, with no wait", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/d", model: "m", config: storeConfig(), onWarning: quiet });
    for (let i = 0; i < 7; i++) {
      store.append(msg(i));
      await store.flush();
    }
    const dir = store.dir;
    await store.close();
    const meta = metaOf(dir);
    expect(meta.messages).toBe(7);
    expect(meta.bytes).toBe(statSync(join(dir, "messages.jsonl")).size);
  });

  test("Archive: write() leaves the written segments to sync(), which syncs each once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-archive-sync-"));
    const archive = await Archive.open({ dir, rotateBytes: 200, onWarning: quiet });
    expect(archive.syncDue).toBe(false);
    for (let i = 0; i < 6; i++) {
      const line = JSON.stringify(msg(i, "x".repeat(60)));
      archive.enqueue(line, Buffer.byteLength(line));
    }
    await archive.write();
    // Rotated at 200 bytes: several segments were written, all owed a sync.
    expect(archive.segmentList().length).toBeGreaterThan(1);
    expect(archive.syncDue).toBe(true);
    await archive.sync();
    expect(archive.syncDue).toBe(false);
    await archive.sync();
    expect(archive.syncDue).toBe(false);
  });

  // The figure behind DURABLE_SYNC_MS: fsyncs were most of a turn's store time. Seen from the
  // system calls of a real writer process.
  const skipped = STRACE_REFUSED ? ` (skipped: ${STRACE_REFUSED})` : "";
  test.skipIf(STRACE_REFUSED !== undefined)(
    `a turn's flush makes no fsync, fdatasync or rename; close() makes them${skipped}`,
    async () => {
      const home = tempHome();
      const log = join(mkdtempSync(join(tmpdir(), "synapse-strace-")), "log");
      const proc = Bun.spawn(
        [
          STRACE!,
          "-f",
          "-qq",
          "-o",
          log,
          "-e",
          "trace=fsync,fdatasync,rename,renameat,renameat2,write",
          process.execPath,
          join(import.meta.dir, "fixtures", "turns.ts"),
          home,
        ],
        {
          stdout: "pipe",
          stderr: "pipe",
        },
      );
      const [out, err] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ]);
      if (proc.exitCode !== 0) throw new Error(`the traced writer exited ${proc.exitCode}: ${err}`);
      const dir = /closed (\S+)/.exec(out)![1]!;
      const calls = readFileSync(log, "utf8").split("\n");
      const at = (marker: string) => calls.findIndex((l) => l.includes(`write(1, "${marker}`));
      const first = at("first flush");
      const start = at("turns start");
      const end = at("turns end");
      const closed = at("closed ");
      expect(first).toBeGreaterThanOrEqual(0);
      expect(start).toBeGreaterThan(first);
      // A new session's first flush (on its first request's path) puts meta.json in place unsynced.
      const opening = calls.slice(first, start);
      expect(opening.some((l) => /rename(at2?)?\(.*meta\.json/.test(l))).toBe(true);
      expect(opening.filter((l) => /\b(fsync|fdatasync)\(/.test(l))).toEqual([]);
      expect(end).toBeGreaterThan(start);
      const syncing = (l: string) => /\b(fsync|fdatasync|rename|renameat2?)\(/.test(l);
      const turns = calls.slice(start, end);
      // The 20 flushes did append (each turn's pair in one write)...
      expect(turns.filter((l) => /write\(\d+, "\{\\"id\\":\\"a\d+/.test(l)).length).toBe(20);
      // ...and neither synced nor replaced a file.
      expect(turns.filter(syncing)).toEqual([]);
      // close(): the archive's fdatasync, then meta.json replaced (fsync + rename).
      const closing = calls.slice(end, closed);
      expect(closing.some((l) => /fdatasync\(/.test(l))).toBe(true);
      expect(closing.some((l) => /\bfsync\(/.test(l))).toBe(true);
      expect(closing.some((l) => /rename(at2?)?\(.*meta\.json/.test(l))).toBe(true);
      const meta = metaOf(dir);
      expect(meta.messages).toBe(41);
      expect(meta.bytes).toBe(statSync(join(dir, "messages.jsonl")).size);
    },
  );
});

describe("resume after a kill: meta.json behind the archive", () => {
  // A writer killed before its sync leaves meta.json with the counts of an earlier moment.
  async function closedSession(n: number) {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/k", model: "m", config: storeConfig(), onWarning: quiet });
    for (let i = 0; i < n; i++) store.append(msg(i));
    await store.close();
    return { home, dir: store.dir, id: store.id, file: join(store.dir, "messages.jsonl") };
  }
  const lines = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, k) => `${JSON.stringify(msg(from + k))}\n`).join("");

  test("only the lines past meta.json's bytes are read to bring its count up", async () => {
    const s = await closedSession(10);
    const before = readFileSync(s.file);
    // Lines a killed writer appended after its last sync...
    appendFileSync(s.file, lines(10, 14));
    // ...and the known part overwritten in place with same-sized garbage: read again, it would
    // count no message there. Counting only the new tail keeps meta.json's 10.
    writeFileSync(
      s.file,
      Buffer.concat([
        Buffer.alloc(before.length - 1, 0x78),
        Buffer.from("\n"),
        readFileSync(s.file).subarray(before.length),
      ]),
    );
    const { store } = await openSession({
      home: s.home,
      cwd: "/k",
      model: "m",
      config: storeConfig(),
      resume: { id: s.id },
      onWarning: quiet,
    });
    expect(store.meta().messages).toBe(14);
    expect(store.meta().bytes).toBe(statSync(s.file).size);
    await store.close();
  });

  test("an archive that did not just grow (shrunk, or cut mid-line at meta.json's bytes) is counted whole", async () => {
    const s = await closedSession(10);
    const whole = readFileSync(s.file, "utf8");
    const keep = `${whole.split("\n").slice(0, 6).join("\n")}\n`;
    writeFileSync(s.file, keep);
    let opened = await openSession({
      home: s.home,
      cwd: "/k",
      model: "m",
      config: storeConfig(),
      resume: { id: s.id },
      onWarning: quiet,
    });
    expect(opened.store.meta().messages).toBe(6);
    await opened.store.close();
    // meta.json now says 6 messages in `keep.length` bytes; the file is changed so that offset is
    // no longer a line end (a longer first line): a full count.
    writeFileSync(s.file, `${JSON.stringify(msg(0, "a much longer first message than before"))}\n${lines(1, 8)}`);
    opened = await openSession({
      home: s.home,
      cwd: "/k",
      model: "m",
      config: storeConfig(),
      resume: { id: s.id },
      onWarning: quiet,
    });
    expect(opened.store.meta().messages).toBe(8);
    await opened.store.close();
  });

  test("across segments: the known segments are skipped, the tail of the one meta.json ends in is read", async () => {
    const home = tempHome();
    const config = storeConfig({ rotateBytes: 300 });
    const first = await openSession({ home, cwd: "/k", model: "m", config, onWarning: quiet });
    for (let i = 0; i < 9; i++) first.store.append(msg(i));
    await first.store.close();
    const segments = readdirSync(first.store.dir).filter((n) => n.startsWith("messages"));
    expect(segments.length).toBeGreaterThan(2);
    // The newest segment: messages.jsonl, messages.1.jsonl, ..., the highest number.
    const last = join(first.store.dir, `messages.${segments.length - 1}.jsonl`);
    appendFileSync(last, lines(9, 11));
    const { store } = await openSession({
      home,
      cwd: "/k",
      model: "m",
      config,
      resume: { id: first.store.id },
      onWarning: quiet,
    });
    expect(store.meta().messages).toBe(11);
    const ids: string[] = [];
    for await (const m of store.readAll()) ids.push(m.id);
    expect(ids).toEqual(Array.from({ length: 11 }, (_, i) => `m${i}`));
    await store.close();
  });
});

// `synapse compact` through the compiled binary: a store of 50 sessions (live locks, a torn line,
// orphan images, compaction records over several segments, old sessions), dry runs that change no
// byte, kill -9 in the middle (twice) and a clean run after, -o json, exit codes, the progress bar.

import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "../../src/protocol/message.ts";
import { Archive } from "../../src/store/archive.ts";
import { openSession } from "../../src/store/session.ts";
import { spawnFixture, type Child } from "../store/child.ts";
import { storeConfig } from "../store/helpers.ts";
import { startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, runBinary, spawnBinary, tempHome } from "../support/binary.ts";
import { killCompactWhen } from "../support/kill-compact.ts";
import { type SessionSpec, writeSession } from "../support/session-fixture.ts";

const holders: Child[] = [];
afterAll(async () => {
  for (const h of holders) h.proc.kill("SIGKILL");
  await Promise.all(holders.map((h) => h.proc.exited));
});

const quiet = () => {};
const idOf = (i: number) => `20260102-0000${String(i).padStart(2, "0")}-c0ffee`;

/** Every message a reader of the archive sees, without taking the lock or writing anything. */
async function archived(dir: string): Promise<Message[]> {
  const archive = await Archive.open({ dir, rotateBytes: 1 << 30, onWarning: quiet });
  const out: Message[] = [];
  for await (const { message } of archive.read()) out.push(message);
  return out;
}

/** The conversation as a resume sees it: lock taken, meta checked, every message read back. */
async function resumed(home: string, id: string): Promise<{ messages: Message[]; warnings: string[] }> {
  const warnings: string[] = [];
  const { store } = await openSession({
    home,
    cwd: "/any",
    model: "",
    config: storeConfig(),
    resume: { id },
    onWarning: (m) => warnings.push(m),
  });
  const messages: Message[] = [];
  for await (const m of store.readAll()) messages.push(m);
  await store.close();
  return { messages, warnings };
}

/** path → size and content hash of every file under `root`, for "no byte changed". */
function fingerprint(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const info = statSync(path);
      if (info.isDirectory()) walk(path);
      else
        out[path.slice(root.length)] =
          `${info.size}:${info.mtimeMs}:${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
    }
  };
  walk(root);
  return out;
}

interface Store {
  home: ReturnType<typeof tempHome>;
  cwdA: string;
  cwdB: string;
  specs: SessionSpec[];
  /** What the report must say of each session. */
  expected: Map<string, { status: string; segments?: number; images?: number }>;
}

function buildStore(): Store {
  const home = tempHome();
  const cwdA = mkdtempSync(join(tmpdir(), "synapse-compact-a-"));
  const cwdB = mkdtempSync(join(tmpdir(), "synapse-compact-b-"));
  const specs: SessionSpec[] = [];
  const expected: Store["expected"] = new Map();
  for (let i = 0; i < 50; i++) {
    const id = idOf(i);
    const cwd = i % 2 === 0 ? cwdA : cwdB;
    const base = { id, cwd, turnsPerSegment: 8, outputChars: 400 };
    if (i < 20) {
      // Compaction records in several segments: everything before the last one's segment is compressed.
      const segments = 3 + (i % 3);
      specs.push({ ...base, segments, compactionIn: i % 2 ? [0, segments - 2] : [segments - 2] });
      expected.set(id, { status: "compacted", segments: segments - 2, images: 0 });
    } else if (i < 22) {
      specs.push({ ...base, segments: 4, compactionIn: [2], orphanImages: 1 });
      expected.set(id, { status: "skipped" });
    } else if (i === 22) {
      specs.push({ ...base, segments: 3, compactionIn: [1], tornLast: true });
      expected.set(id, { status: "compacted", segments: 1, images: 0 });
    } else if (i === 23) {
      specs.push({ ...base, segments: 1, images: 2, orphanImages: 3 });
      expected.set(id, { status: "compacted", segments: 0, images: 3 });
    } else if (i === 24) {
      specs.push({ ...base, segments: 3, compactionIn: [2], noMeta: true });
      expected.set(id, { status: "compacted", segments: 2, images: 0 });
    } else if (i === 25 || i === 26) {
      specs.push({ ...base, segments: 3, compactionIn: [2], updatedDaysAgo: 40 + i });
      expected.set(id, { status: "deleted" });
    } else {
      specs.push({ ...base, segments: 1 + (i % 2), images: i % 5 === 0 ? 1 : 0 });
      expected.set(id, { status: "unchanged", segments: 0, images: 0 });
    }
  }
  for (const spec of specs) writeSession(home.env.SYNAPSE_HOME!, spec);
  return { home, cwdA, cwdB, specs, expected };
}

async function lockBy(home: string, id: string): Promise<Child> {
  const holder = spawnFixture("holder.ts", [home, id]);
  holders.push(holder);
  await holder.waitFor(/^ready \d+$/);
  return holder;
}

describe("synapse compact", () => {
  test("50 sessions: the right report, locked ones untouched, every other one resumes the same", async () => {
    const store = buildStore();
    const home = store.home.env.SYNAPSE_HOME;
    const before = new Map<string, Message[]>();
    for (const spec of store.specs) before.set(spec.id, await archived(join(home!, "sessions", spec.id)));
    // One lock held by a store in a child process, one by the real binary waiting on the model.
    await lockBy(home!, idOf(20));
    const server = await startFakeLLM([{ hang: true }]);
    const running = spawnBinary({
      args: ["-r", idOf(21), "-q", "go on"],
      cwd: store.cwdB,
      env: { ...store.home.env, ...providerEnv(server.url) },
    });
    // The runner flushes the archive before each request: once the request is here, the prompt is on disk.
    const early = await Promise.race([server.waitForRequests(1).then(() => undefined), running.exited]);
    if (early !== undefined)
      throw new Error(`synapse -r exited ${early}: ${await new Response(running.stderr).text()}`);
    before.set(idOf(21), await archived(join(home!, "sessions", idOf(21))));
    const segmentsOnly = (print: Record<string, string>) =>
      Object.fromEntries(Object.entries(print).filter(([k]) => k.includes("messages")));
    const lockedPrints = [20, 21].map((i) => segmentsOnly(fingerprint(join(home!, "sessions", idOf(i)))));

    // By default, what `synapse sessions` lists: the current directory's sessions, and session 24,
    // whose directory is unknown (no meta.json).
    const mine = await runBinary({
      args: ["compact", "--dry-run", "-o", "json"],
      cwd: store.cwdA,
      env: store.home.env,
    });
    expect(mine.code).toBe(0);
    const mineIds = JSON.parse(mine.stdout)
      .sessions.map((s: any) => s.id)
      .sort();
    const listed = await runBinary({ args: ["sessions", "-o", "json"], cwd: store.cwdA, env: store.home.env });
    expect(mineIds).toEqual(
      JSON.parse(listed.stdout)
        .map((s: any) => s.id)
        .sort(),
    );
    expect(mineIds).toEqual(
      store.specs
        .filter((s) => s.cwd === store.cwdA || s.noMeta)
        .map((s) => s.id)
        .sort(),
    );

    const r = await runBinary({
      args: ["compact", "--all", "--older-than", "30", "-o", "json"],
      cwd: store.cwdB,
      env: store.home.env,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.type).toBe("compact");
    expect(report.dry_run).toBe(false);
    expect(report.sessions).toHaveLength(50);
    for (const s of report.sessions) {
      const want = store.expected.get(s.id)!;
      expect({ id: s.id, status: s.status }).toEqual({ id: s.id, status: want.status });
      if (want.segments !== undefined) expect(s.segments_compressed).toBe(want.segments);
      if (want.images !== undefined) expect(s.images_removed).toBe(want.images);
      if (s.status === "compacted") expect(s.bytes_after).toBeLessThan(s.bytes_before);
      if (s.status === "deleted") expect(s.bytes_after).toBe(0);
    }
    for (const i of [20, 21])
      expect(report.sessions.find((s: any) => s.id === idOf(i)).note).toMatch(/^in use by pid \d+$/);
    const total = report.total;
    const count = (status: string) => [...store.expected.values()].filter((e) => e.status === status).length;
    expect(total).toMatchObject({
      sessions: 50,
      compacted: count("compacted"),
      unchanged: count("unchanged"),
      skipped: 2,
      deleted: 2,
      failed: 0,
      sessions_deleted: 2,
      images_removed: 3,
    });
    expect(total.segments_compressed).toBe(
      [...store.expected.values()].reduce((n, e) => n + (e.status === "compacted" ? e.segments! : 0), 0),
    );
    expect(total.bytes_after).toBeLessThan(total.bytes_before);
    expect(r.stderr).toContain(`skipped session ${idOf(20)}: in use by pid`);

    expect(existsSync(join(home!, "sessions", idOf(25)))).toBe(false);
    expect(existsSync(join(home!, "sessions", idOf(26)))).toBe(false);
    expect([20, 21].map((i) => segmentsOnly(fingerprint(join(home!, "sessions", idOf(i)))))).toEqual(lockedPrints);
    expect(await archived(join(home!, "sessions", idOf(21)))).toEqual(before.get(idOf(21))!);
    expect(readdirSync(join(home!, "sessions", idOf(23), "images"))).toHaveLength(2);
    for (const spec of store.specs) {
      if (spec.updatedDaysAgo || store.expected.get(spec.id)!.status === "skipped") continue;
      const after = await resumed(home!, spec.id);
      expect(after.messages).toEqual(before.get(spec.id)!);
      if (spec.tornLast) expect(after.warnings.join("\n")).toContain("torn last line");
      // Compressed originals are gone; nothing is left half done.
      const names = readdirSync(join(home!, "sessions", spec.id));
      expect(names.filter((n) => n.endsWith(".tmp") || n === "lock")).toEqual([]);
    }

    // A compacted session resumes through the binary: the newest summary and what follows reach the model.
    const answer = await startFakeLLM([{ text: "resumed fine" }]);
    try {
      const id = idOf(4);
      const run = await runBinary({
        args: ["-r", id, "-q", "next step"],
        cwd: store.cwdA,
        env: { ...store.home.env, ...providerEnv(answer.url) },
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("resumed fine\n");
      const sent = JSON.stringify(answer.requests[0]!.body.messages);
      const lastSummary = before
        .get(id)!
        .filter((m) => m.compaction)
        .pop()!;
      expect(sent).toContain((lastSummary.content[0] as { text: string }).text);
      expect(sent).toContain(
        before
          .get(id)!
          .at(-1)!
          .id.replace(/.*-m(\d+)b$/, "call$1"),
      );
    } finally {
      await answer.stop();
    }

    // Again, as text: nothing left to do but the locked ones.
    const again = await runBinary({ args: ["compact", "--all"], cwd: store.cwdB, env: store.home.env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /\ntotal: 48 sessions \(0 compacted, 46 unchanged, 2 skipped, 0 deleted, 0 failed\); .* → .*; 0 segments compressed, 0 images removed, 0 sessions deleted\n$/,
    );
    expect(again.stdout).toMatch(new RegExp(`${idOf(20)}\\s+skipped\\s+in use by pid \\d+`));

    // Once the binary has ended, its session is compacted like any other.
    running.kill("SIGTERM");
    expect(await running.exited).toBe(143);
    await server.stop();
    const ended = await archived(join(home!, "sessions", idOf(21)));
    const last = await runBinary({ args: ["compact", "--session", idOf(21), "-o", "json"], env: store.home.env });
    expect(last.code).toBe(0);
    expect(JSON.parse(last.stdout).sessions).toMatchObject([
      { id: idOf(21), status: "compacted", segments_compressed: 2 },
    ]);
    expect((await resumed(home!, idOf(21))).messages).toEqual(ended);
  }, 120_000);

  test("--dry-run changes no byte and says what it would do", async () => {
    const home = tempHome();
    const root = home.env.SYNAPSE_HOME;
    const cwd = mkdtempSync(join(tmpdir(), "synapse-compact-dry-"));
    writeSession(root!, {
      id: idOf(1),
      cwd,
      segments: 4,
      turnsPerSegment: 5,
      outputChars: 200,
      compactionIn: [2],
      orphanImages: 2,
    });
    writeSession(root!, { id: idOf(2), cwd, segments: 2, turnsPerSegment: 5, outputChars: 200, updatedDaysAgo: 10 });
    writeSession(root!, {
      id: idOf(3),
      cwd: "/elsewhere",
      segments: 3,
      turnsPerSegment: 5,
      outputChars: 200,
      compactionIn: [1],
    });
    const print = fingerprint(root!);
    const r = await runBinary({ args: ["compact", "--all", "--dry-run", "--older-than", "7"], cwd, env: home.env });
    expect(r.code).toBe(0);
    expect(fingerprint(root!)).toEqual(print);
    expect(readdirSync(root!).sort()).toEqual(["sessions"]);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      new RegExp(
        `^${idOf(1)}\\s+would compact\\s+\\S+ \\S+\\s+would compress 2 segments \\(.*\\), would remove 2 images \\(.*\\)$`,
      ),
    );
    expect(lines[1]).toMatch(new RegExp(`^${idOf(2)}\\s+would delete\\s+.* → 0 B\\s+not updated for 10 days$`));
    expect(lines[2]).toMatch(
      new RegExp(`^${idOf(3)}\\s+would compact\\s+\\S+ \\S+\\s+would compress 1 segment \\(.*\\)$`),
    );
    expect(lines[3]).toMatch(
      /^total: 3 sessions \(2 to compact, 0 unchanged, 0 skipped, 1 to delete, 0 failed\); .* now; would compress 3 segments, would remove 2 images$/,
    );
  }, 60_000);

  test("kill -9 mid-compact, then again: every session stays readable and a clean run finishes the job", async () => {
    const home = tempHome();
    const root = home.env.SYNAPSE_HOME;
    const ids: string[] = [];
    // Big enough that compressing takes a while: 8 sessions × 5 segments of ~1 MB.
    for (let i = 0; i < 8; i++) {
      ids.push(idOf(i));
      writeSession(root!, {
        id: idOf(i),
        cwd: "/w",
        segments: 5,
        turnsPerSegment: 60,
        outputChars: 16_000,
        compactionIn: [3],
        images: 1,
        orphanImages: 1,
      });
    }
    const before = new Map<string, Message[]>();
    for (const id of ids) before.set(id, await archived(join(root!, "sessions", id)));
    const files = () => ids.flatMap((id) => readdirSync(join(root!, "sessions", id)).map((n) => `${id}/${n}`));

    // First kill: while the first compressed copy is being written.
    await killCompactWhen(home.env, () => files().some((f) => f.endsWith(".tmp")));
    for (const id of ids) expect(await archived(join(root!, "sessions", id))).toEqual(before.get(id)!);
    // Second kill: once a few more copies are in place.
    const done = files().filter((f) => f.endsWith(".gz")).length;
    await killCompactWhen(home.env, () => files().filter((f) => f.endsWith(".gz")).length >= done + 3);
    // A resume now takes over the lock the killed run left and reads the half-compacted archive.
    for (const id of ids) expect((await resumed(root!, id)).messages).toEqual(before.get(id)!);

    const r = await runBinary({ args: ["compact", "--all", "-o", "json"], env: home.env, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.total.failed).toBe(0);
    expect(report.total.skipped).toBe(0);
    for (const id of ids) {
      const names = readdirSync(join(root!, "sessions", id)).sort();
      expect(names).toEqual([
        "images",
        "messages.1.jsonl.gz",
        "messages.2.jsonl.gz",
        "messages.3.jsonl",
        "messages.4.jsonl",
        "messages.jsonl.gz",
        "meta.json",
      ]);
      expect(readdirSync(join(root!, "sessions", id, "images"))).toHaveLength(1);
      // meta.json caught up too, even where a killed run left it behind.
      const meta = JSON.parse(readFileSync(join(root!, "sessions", id, "meta.json"), "utf8"));
      const onDisk = names
        .filter((n) => n.startsWith("messages"))
        .reduce((sum, n) => sum + statSync(join(root!, "sessions", id, n)).size, 0);
      expect({ bytes: meta.bytes, messages: meta.messages }).toEqual({
        bytes: onDisk,
        messages: before.get(id)!.length,
      });
      expect((await resumed(root!, id)).messages).toEqual(before.get(id)!);
    }
  }, 120_000);

  test("one failing session: exit 1, the others still done", async () => {
    const home = tempHome();
    const root = home.env.SYNAPSE_HOME;
    writeSession(root!, {
      id: idOf(1),
      cwd: "/w",
      segments: 3,
      turnsPerSegment: 5,
      outputChars: 200,
      compactionIn: [2],
    });
    const bad = writeSession(root!, { id: idOf(2), cwd: "/w", segments: 1, turnsPerSegment: 5, outputChars: 200 });
    mkdirSync(join(bad.dir, "messages.1.jsonl"));
    const r = await runBinary({ args: ["compact", "--all"], env: home.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `synapse: failed session ${idOf(2)}: cannot read session archive ${join(bad.dir, "messages.1.jsonl")}`,
    );
    expect(r.stdout).toMatch(new RegExp(`^${idOf(1)}\\s+compacted\\s+.* → .*\\s+compressed 2 segments`, "m"));
    expect(existsSync(join(root!, "sessions", idOf(1), "messages.jsonl.gz"))).toBe(true);
  }, 60_000);

  test("usage errors exit 2 with one line; no API key is needed", async () => {
    const home = tempHome();
    writeSession(home.env.SYNAPSE_HOME!, { id: idOf(1), cwd: "/w", segments: 1, turnsPerSegment: 2, outputChars: 10 });
    writeSession(home.env.SYNAPSE_HOME!, { id: idOf(2), cwd: "/w", segments: 1, turnsPerSegment: 2, outputChars: 10 });
    const cases: Array<[string[], RegExp]> = [
      [["compact", "--session", idOf(1), "--all"], /--session and --all cannot be used together/],
      [["compact", "--older-than", "soon"], /--older-than needs a number of days greater than 0/],
      [["compact", "--older-than", "0"], /--older-than needs a number of days/],
      [["compact", "now"], /compact takes no arguments/],
      [["compact", "--session", "nope"], /no session nope in /],
      [["compact", "--session", "20260102"], /is ambiguous/],
      [["compact", "--session", "../x"], /not a session id/],
      [["--dry-run", "hello"], /--dry-run is an option of synapse compact/],
      [["compact", "--bogus"], /unknown option --bogus/],
    ];
    for (const [args, message] of cases) {
      const r = await runBinary({ args, env: home.env });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
    const one = await runBinary({ args: ["compact", "--session", idOf(1).slice(0, 17), "-o", "json"], env: home.env });
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout).sessions.map((s: any) => s.id)).toEqual([idOf(1)]);
    const none = await runBinary({ args: ["compact"], env: home.env });
    expect(none.code).toBe(0);
    expect(none.stderr).toMatch(/^no sessions for .* \(--all: every session\)\n$/);
  }, 60_000);

  test("a report larger than a pipe's buffer reaches a slow reader whole", async () => {
    const home = tempHome();
    for (let i = 0; i < 600; i++)
      writeSession(home.env.SYNAPSE_HOME!, {
        id: `20260103-${String(i).padStart(6, "0")}-c0ffee`,
        cwd: "/w",
        segments: 1,
        turnsPerSegment: 1,
        outputChars: 10,
      });
    // The reader starts late, so the pipe (64 KiB) fills while synapse is writing the ~100 kB.
    const proc = Bun.spawn(["bash", "-c", `${BINARY} compact --all --dry-run -o json | { sleep 0.3; cat; }`], {
      env: { ...home.env, PATH: process.env.PATH! },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(out.length).toBeGreaterThan(65_536);
    expect(JSON.parse(out).total.sessions).toBe(600);
  }, 60_000);

  test.skipIf(Bun.which("script") === null)(
    "a progress bar on a terminal when more than one session is handled",
    async () => {
      const home = tempHome();
      for (let i = 0; i < 3; i++)
        writeSession(home.env.SYNAPSE_HOME!, {
          id: idOf(i),
          cwd: "/w",
          segments: 2,
          turnsPerSegment: 2,
          outputChars: 10,
        });
      const env = Object.entries(home.env)
        .map(([k, v]) => `${k}='${v}'`)
        .join(" ");
      const proc = Bun.spawn(["script", "-qec", `env ${env} ${BINARY} compact --all`, "/dev/null"], {
        stdout: "pipe",
        stderr: "pipe",
        stdin: "pipe",
      });
      const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      expect(code).toBe(0);
      expect(out).toContain(`[${"-".repeat(24)}] 0/3 ${idOf(0)}`);
      expect(out).toMatch(/\] 2\/3 /);
      expect(out).toContain("total: 3 sessions");
    },
    60_000,
  );
});

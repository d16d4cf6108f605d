// Sessions whose meta.json is damaged, deleted or from a newer synapse while the archive is intact:
// each kind of damage against listing, `--resume <id>` and `--continue`, on real files.
import { afterAll, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  closeSync,
  readdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../src/protocol/errors.ts";
import { parseMeta } from "../../src/store/meta.ts";
import { openSession, type ResumeTarget } from "../../src/store/session.ts";
import { formatSessionTable, listSessions } from "../../src/store/sessions-list.ts";
import { msg, range, readAllIds, removeTempHomes, storeConfig, tempHome, warnings } from "./helpers.ts";

afterAll(removeTempHomes);

const quiet = () => {};
// A fixed archive mtime, so "updated = archive mtime" is checked exactly.
const ARCHIVE_TIME_S = 1_600_000_000;

type Damage = "unreadable" | "newer";
const KINDS: Array<{ name: string; damage: Damage; apply: (metaFile: string) => void }> = [
  { name: "emptied", damage: "unreadable", apply: (f) => writeFileSync(f, "") },
  { name: "garbage", damage: "unreadable", apply: (f) => writeFileSync(f, "\u0000{not json at all") },
  {
    name: "truncated JSON",
    damage: "unreadable",
    apply: (f) => writeFileSync(f, readFileSync(f, "utf8").slice(0, 40)),
  },
  { name: "not an object", damage: "unreadable", apply: (f) => writeFileSync(f, "null") },
  { name: "wrong types", damage: "unreadable", apply: (f) => rewrite(f, { id: 5, cwd: ["/p"], updated: "yesterday" }) },
  { name: "one wrong optional field", damage: "unreadable", apply: (f) => rewrite(f, { messages: "3" }) },
  { name: "format of the wrong type", damage: "unreadable", apply: (f) => rewrite(f, { format: "1" }) },
  { name: "deleted", damage: "unreadable", apply: (f) => unlinkSync(f) },
  { name: "format 2", damage: "newer", apply: (f) => rewrite(f, { format: 2 }) },
];

function rewrite(file: string, patch: Record<string, unknown>): void {
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), ...patch }));
}

/** A session in `cwd` with three messages on disk (the first user text is its title), then damaged. */
async function damagedSession(home: string, apply: (metaFile: string) => void, cwd = "/p", rotateBytes?: number) {
  const config = storeConfig(rotateBytes ? { rotateBytes } : {});
  const { store } = await openSession({ home, cwd, model: "m-old", config, onWarning: quiet });
  store.append({
    id: "q",
    role: "user",
    ts: 1_700_000_000_000,
    content: [{ type: "text", text: "  what is   the answer" }],
  });
  store.append(msg(1, "forty-two"));
  store.append(msg(2, "thanks"));
  await store.close();
  const metaFile = join(store.dir, "meta.json");
  apply(metaFile);
  const segments = readdirSync(store.dir).filter((n) => n.endsWith(".jsonl"));
  for (const s of segments) utimesSync(join(store.dir, s), ARCHIVE_TIME_S, ARCHIVE_TIME_S);
  const bytes = segments.reduce((sum, s) => sum + statSync(join(store.dir, s)).size, 0);
  return { id: store.id, dir: store.dir, metaFile, bytes };
}

const open = (home: string, resume: ResumeTarget, onWarning: (m: string) => void = quiet, cwd = "/here") =>
  openSession({ home, cwd, model: "m-new", config: storeConfig(), resume, onWarning });

describe("listing with a damaged meta.json", () => {
  for (const kind of KINDS) {
    test(`${kind.name}: still listed`, async () => {
      const home = tempHome();
      const s = await damagedSession(home, kind.apply);
      const before = existsSync(s.metaFile) ? readFileSync(s.metaFile) : undefined;
      const w = warnings();
      const list = await listSessions(home, w.push);
      expect(list.map((x) => x.id)).toEqual([s.id]);
      const [listed] = list;
      const table = formatSessionTable(list);
      expect(table).toContain(s.id);
      expect(table.split("\n")[0]).toMatch(/\sNOTE$/);
      if (kind.damage === "unreadable") {
        expect(listed).toMatchObject({
          state: "rebuilt",
          title: "what is the answer",
          cwd: "",
          model: "?",
          messages: 3,
          bytes: s.bytes,
        });
        expect(listed!.updated).toBe(ARCHIVE_TIME_S * 1000);
        expect(w.list).toEqual([`${s.metaFile} is missing or unreadable; rebuilt from messages.jsonl`]);
        expect(table).toContain("what is the answer");
      } else {
        expect(listed).toMatchObject({ state: "newer", title: "what is the answer", cwd: "/p", messages: 3 });
        expect(listed!.note).toContain("written by a newer synapse (format 2)");
        expect(table).toContain("written by a newer synapse (format 2)");
        expect(w.list).toEqual([]);
      }
      // Listing only reads: the damaged file is left as it was for resume to repair.
      expect(existsSync(s.metaFile) ? readFileSync(s.metaFile) : undefined).toEqual(before);
    });
  }

  test("a rotated archive is summarized across every segment, with one warning", async () => {
    const home = tempHome();
    const s = await damagedSession(home, (f) => unlinkSync(f), "/p", 64);
    expect(readdirSync(s.dir).filter((n) => n.endsWith(".jsonl")).length).toBeGreaterThan(1);
    const w = warnings();
    const [listed] = await listSessions(home, w.push);
    expect(listed).toMatchObject({ id: s.id, messages: 3, bytes: s.bytes, title: "what is the answer" });
    expect(w.list).toHaveLength(1);
  });

  test("a folder with neither meta.json nor archive stays hidden; good sessions sort around rebuilt ones", async () => {
    const home = tempHome();
    mkdirSync(join(home, "sessions", "20200101-000000-aaaaaa"), { recursive: true });
    const broken = await damagedSession(home, (f) => unlinkSync(f));
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
    store.append(msg(0, "fine"));
    await store.close();
    const w = warnings();
    const list = await listSessions(home, w.push);
    // The rebuilt one is dated by its (old) archive mtime, so it sorts last.
    expect(list.map((x) => x.id)).toEqual([store.id, broken.id]);
    expect(list[0]!.state).toBeUndefined();
    expect(w.list).toHaveLength(1);
    expect(await listSessions(home)).toHaveLength(2);
  });
});

describe("--resume <id> with a damaged meta.json", () => {
  for (const kind of KINDS) {
    test(`${kind.name}: ${kind.damage === "newer" ? "refused with a clear usage error" : "resumed and meta.json rewritten"}`, async () => {
      const home = tempHome();
      const s = await damagedSession(home, kind.apply);
      const w = warnings();
      if (kind.damage === "newer") {
        const before = readFileSync(s.metaFile, "utf8");
        const err = await open(home, { id: s.id }, w.push).catch((e) => e);
        expect(err).toBeInstanceOf(UsageError);
        expect(err.message).toBe(`session ${s.id} was written by a newer synapse (format 2)`);
        expect(readFileSync(s.metaFile, "utf8")).toBe(before);
        expect(existsSync(join(s.dir, "lock"))).toBe(false);
        return;
      }
      // By prefix too: the folder is found whatever meta.json holds.
      const { store, resumed } = await open(home, { id: s.id.slice(0, 17) }, w.push);
      expect(resumed).toBe(true);
      expect(store.id).toBe(s.id);
      expect(store.window().map((m) => m.id)).toEqual(["q", "m1", "m2"]);
      expect(w.list).toEqual([`${s.metaFile} is missing or unreadable; rebuilt from messages.jsonl`]);
      // Rewritten before anything is appended, complete and valid, with no temp file left.
      const parsed = parseMeta(readFileSync(s.metaFile, "utf8"));
      expect(parsed.state).toBe("ok");
      expect(parsed.state === "ok" && parsed.meta).toMatchObject({
        id: s.id,
        cwd: "/here",
        model: "m-new",
        title: "what is the answer",
        messages: 3,
        bytes: s.bytes,
      });
      expect(JSON.parse(readFileSync(s.metaFile, "utf8")).format).toBe(1);
      expect(readdirSync(s.dir).filter((n) => n.includes(".tmp"))).toEqual([]);
      store.append(msg(4, "more"));
      await store.close();

      // Repaired for good: no warning next time, counts carry on, and -c from that cwd finds it.
      const again = warnings();
      const next = await open(home, { latest: true }, again.push);
      expect(next.store.id).toBe(s.id);
      expect(next.store.meta().messages).toBe(4);
      expect(await readAllIds(next.store)).toEqual(["q", "m1", "m2", "m4"]);
      await next.store.close();
      expect(again.list).toEqual([]);
      expect((await listSessions(home, again.push))[0]!.state).toBeUndefined();
      expect(again.list).toEqual([]);
    });
  }

  test("the rebuilt meta.json replaces the damaged one by rename, never by rewriting it in place", async () => {
    const home = tempHome();
    const s = await damagedSession(home, (f) => writeFileSync(f, "garbage"));
    const inodeBefore = statSync(s.metaFile).ino;
    // A reader that opened the damaged file keeps seeing it whole: the new file is a new inode.
    const fd = openSync(s.metaFile, "r");
    try {
      const { store } = await open(home, { id: s.id });
      expect(statSync(s.metaFile).ino).not.toBe(inodeBefore);
      const buf = Buffer.alloc(32);
      expect(buf.toString("utf8", 0, readSync(fd, buf, 0, 32, 0))).toBe("garbage");
      await store.close();
    } finally {
      closeSync(fd);
    }
    expect(parseMeta(readFileSync(s.metaFile, "utf8")).state).toBe("ok");
  });

  test("a rotated archive resumes whole", async () => {
    const home = tempHome();
    const s = await damagedSession(home, (f) => writeFileSync(f, "{"), "/p", 64);
    const { store } = await open(home, { id: s.id });
    expect(await readAllIds(store)).toEqual(["q", "m1", "m2"]);
    expect(store.meta()).toMatchObject({ messages: 3, bytes: s.bytes });
    await store.close();
  });

  test("a folder with neither meta.json nor archive is no session", async () => {
    const home = tempHome();
    const id = "20200101-000000-aaaaaa";
    mkdirSync(join(home, "sessions", id), { recursive: true });
    const w = warnings();
    const err = await open(home, { id }, w.push).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toStartWith(`no session ${id}`);
    expect(w.list).toEqual([]);
    expect(readdirSync(join(home, "sessions", id))).toEqual([]);
  });
});

describe("--continue with a damaged meta.json", () => {
  for (const kind of KINDS) {
    test(`${kind.name}: ${kind.damage === "newer" ? "refused" : "not a candidate, and the error says why"}`, async () => {
      const home = tempHome();
      const s = await damagedSession(home, kind.apply, "/here");
      const w = warnings();
      const err = await open(home, { latest: true }, w.push).catch((e) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect(err.exitCode).toBe(2);
      if (kind.damage === "newer") {
        expect(err.message).toBe(`session ${s.id} was written by a newer synapse (format 2)`);
      } else {
        expect(err.message).toBe(
          `no previous session for /here; 1 session has no readable metadata (${s.id}), resume it with -r <id>`,
        );
        // -c does not repair what it cannot attribute to this directory.
        expect(existsSync(s.metaFile) && parseMeta(readFileSync(s.metaFile, "utf8")).state === "ok").toBe(false);
      }
      expect(w.list).toEqual([]);
    });
  }

  test("picks the newest readable session for the cwd and warns about newer unreadable ones", async () => {
    const home = tempHome();
    const { store: good } = await openSession({
      home,
      cwd: "/here",
      model: "m",
      config: storeConfig(),
      onWarning: quiet,
    });
    good.append(msg(0, "good"));
    await good.close();
    const goodMeta = join(good.dir, "meta.json");
    utimesSync(join(good.dir, "messages.jsonl"), ARCHIVE_TIME_S - 10, ARCHIVE_TIME_S - 10);
    writeFileSync(
      goodMeta,
      JSON.stringify({ ...JSON.parse(readFileSync(goodMeta, "utf8")), updated: (ARCHIVE_TIME_S - 10) * 1000 }),
    );
    const older = await damagedSession(home, (f) => unlinkSync(f));
    utimesSync(join(older.dir, "messages.jsonl"), ARCHIVE_TIME_S - 100, ARCHIVE_TIME_S - 100);
    const newer = await damagedSession(home, (f) => unlinkSync(f));

    const w = warnings();
    const { store } = await open(home, { latest: true }, w.push);
    expect(store.id).toBe(good.id);
    await store.close();
    expect(w.list).toEqual([
      `continuing ${good.id}; 1 newer session has no readable metadata (${newer.id}), resume it with -r <id>`,
    ]);
  });

  test("several unreadable sessions are counted, and at most three named", async () => {
    const home = tempHome();
    for (const _ of range(0, 4)) await damagedSession(home, (f) => writeFileSync(f, ""));
    const err = await open(home, { latest: true }).catch((e) => e);
    expect(err.message).toMatch(
      /^no previous session for \/here; 4 sessions have no readable metadata \([^,]+, [^,]+, [^,]+, \.\.\.\), resume them with -r <id>$/,
    );
  });
});

describe("parseMeta", () => {
  const good = { format: 1, id: "x", title: "t", cwd: "/p", model: "m", created: 1, updated: 2, messages: 3, bytes: 4 };
  const cases: Array<[string, string, "ok" | "unreadable" | "newer"]> = [
    ["complete", JSON.stringify(good), "ok"],
    ["no format (before formats existed)", JSON.stringify({ ...good, format: undefined }), "ok"],
    ["only the required fields", JSON.stringify({ id: "x", cwd: "/p", updated: 2 }), "ok"],
    ["format 2", JSON.stringify({ ...good, format: 2 }), "newer"],
    ["format 0", JSON.stringify({ ...good, format: 0 }), "unreadable"],
    ["format 1.5", JSON.stringify({ ...good, format: 1.5 }), "unreadable"],
    ["negative count", JSON.stringify({ ...good, bytes: -1 }), "unreadable"],
    ["null title", JSON.stringify({ ...good, title: null }), "unreadable"],
    ["missing cwd", JSON.stringify({ ...good, cwd: undefined }), "unreadable"],
    ["an array", "[]", "unreadable"],
    ["empty", "", "unreadable"],
  ];
  for (const [name, raw, state] of cases) test(name, () => expect(parseMeta(raw).state).toBe(state));
});

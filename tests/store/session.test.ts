// Opening, resuming and listing sessions; the window, eviction and meta.json.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../src/protocol/errors.ts";
import { openSession } from "../../src/store/session.ts";
import { formatBytes, formatSessionTable, listSessions } from "../../src/store/sessions-list.ts";
import { msg, range, readAllIds, removeTempHomes, storeConfig, tempHome } from "./helpers.ts";
import { nextMillisecond } from "../support/clock.ts";

afterAll(removeTempHomes);

const quiet = () => {};

describe("sessions", () => {
  test("ids are sortable and unique", async () => {
    const home = tempHome();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
      expect(store.id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
      ids.push(store.id);
      await store.close();
    }
    expect(new Set(ids).size).toBe(30);
    expect(ids.map((i) => i.slice(0, 15))).toEqual(ids.map((i) => i.slice(0, 15)).sort());
  });

  test("eviction by count keeps the newest in memory; every message reads back from disk", async () => {
    const home = tempHome();
    const { store } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig({ maxMessages: 10 }),
      onWarning: quiet,
    });
    for (const i of range(0, 25)) store.append(msg(i));
    expect(store.window().map((m) => m.id)).toEqual(range(15, 25).map((i) => `m${i}`));
    expect(store.get("m24")?.id).toBe("m24");
    expect(store.get("m3")).toBeUndefined();
    expect(store.stats().messages_evicted).toBe(15);
    expect(await readAllIds(store)).toEqual(range(0, 25).map((i) => `m${i}`));
    expect(store.stats().messages_archived).toBe(25);
    await store.close();
  });

  test("eviction by bytes keeps the window under maxBytes", async () => {
    const home = tempHome();
    const { store } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig({ maxBytes: 4096 }),
      onWarning: quiet,
    });
    for (const i of range(0, 40)) store.append(msg(i, "z".repeat(900)));
    const windowBytes = store.window().reduce((s, m) => s + JSON.stringify(m).length, 0);
    expect(windowBytes).toBeLessThanOrEqual(4096);
    expect(store.window().length).toBe(4);
    expect(store.window().at(-1)!.id).toBe("m39");
    expect(store.stats().messages_evicted).toBe(36);
    expect(await readAllIds(store)).toHaveLength(40);
    await store.close();
  });

  test("shrink drops the oldest from memory but not from the archive", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
    for (const i of range(0, 50)) store.append(msg(i));
    store.shrink(5);
    expect(store.window().map((m) => m.id)).toEqual(range(45, 50).map((i) => `m${i}`));
    expect(store.stats().messages_evicted).toBe(45);
    expect(await readAllIds(store)).toHaveLength(50);
    await store.close();
  });

  test("writes are debounced: nothing before flushMs, everything after", async () => {
    const home = tempHome();
    const { store } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig({ flushMs: 50 }),
      onWarning: quiet,
    });
    store.append(msg(0));
    const file = join(store.dir, "messages.jsonl");
    expect(existsSync(file)).toBe(false);
    expect(store.queued).toBe(1);
    // The queue empties when the batch is taken; the append lands a moment later.
    const written = () => existsSync(file) && readFileSync(file, "utf8").endsWith("\n");
    const deadline = Date.now() + 5000;
    while ((store.queued > 0 || !written()) && Date.now() < deadline) await Bun.sleep(10);
    expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(1);
    await store.close();
  });

  test("meta.json: title from the first user text, counts, atomic content", async () => {
    const home = tempHome();
    const { store } = await openSession({
      home,
      cwd: "/proj",
      model: "claude-x",
      config: storeConfig(),
      onWarning: quiet,
    });
    store.append({
      id: "a",
      role: "user",
      ts: 1,
      content: [{ type: "tool_result", tool_use_id: "t", content: "not a title" }],
    });
    store.append({
      id: "b",
      role: "user",
      ts: 2,
      content: [{ type: "text", text: `  Fix   the\nbug ${"in the parser ".repeat(10)}` }],
    });
    store.append({ id: "c", role: "user", ts: 3, content: [{ type: "text", text: "second prompt" }] });
    await store.flush();
    const meta = JSON.parse(readFileSync(join(store.dir, "meta.json"), "utf8"));
    expect(meta.id).toBe(store.id);
    expect(meta.cwd).toBe("/proj");
    expect(meta.model).toBe("claude-x");
    expect(meta.messages).toBe(3);
    expect(meta.bytes).toBe(readFileSync(join(store.dir, "messages.jsonl")).length);
    expect(meta.title.startsWith("Fix the bug in the parser")).toBe(true);
    expect(meta.title.length).toBeLessThanOrEqual(80);
    expect(meta.updated).toBeGreaterThanOrEqual(meta.created);
    expect(readdirSync(store.dir).filter((n) => n.includes(".tmp"))).toEqual([]);
    store.updateMeta({ title: "renamed" });
    await store.flush();
    expect(JSON.parse(readFileSync(join(store.dir, "meta.json"), "utf8")).title).toBe("renamed");
    await store.close();
  });

  test("a session that never got a message leaves nothing on disk", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
    expect(existsSync(store.dir)).toBe(true);
    await store.close();
    expect(existsSync(store.dir)).toBe(false);
    expect(await listSessions(home)).toEqual([]);
  });

  test("resume by id and by latest-for-cwd refills the window from the archive tail", async () => {
    const home = tempHome();
    const config = storeConfig({ maxMessages: 20 });
    const a = (await openSession({ home, cwd: "/a", model: "m", config, onWarning: quiet })).store;
    for (const i of range(0, 100)) a.append(msg(i));
    await a.close();
    nextMillisecond(); // b must be the newer session by its timestamps, not by chance
    const b = (await openSession({ home, cwd: "/b", model: "m", config, onWarning: quiet })).store;
    b.append(msg(0, "in b"));
    await b.close();

    const latestA = await openSession({
      home,
      cwd: "/a",
      model: "m2",
      config,
      resume: { latest: true },
      onWarning: quiet,
    });
    expect(latestA.resumed).toBe(true);
    expect(latestA.store.id).toBe(a.id);
    expect(latestA.store.window().map((m) => m.id)).toEqual(range(80, 100).map((i) => `m${i}`));
    expect(latestA.store.get("m99")?.id).toBe("m99");
    expect(latestA.store.meta().model).toBe("m2");
    latestA.store.append(msg(100));
    await latestA.store.close();

    const byId = await openSession({
      home,
      cwd: "/elsewhere",
      model: "m",
      config,
      resume: { id: a.id },
      onWarning: quiet,
    });
    expect(byId.store.meta().messages).toBe(101);
    expect(await readAllIds(byId.store)).toHaveLength(101);
    await byId.store.close();

    const byPrefix = await openSession({
      home,
      cwd: "/b",
      model: "m",
      config,
      resume: { id: b.id.slice(0, 18) },
      onWarning: quiet,
    });
    expect(byPrefix.store.id).toBe(b.id);
    await byPrefix.store.close();
  });

  test("resume errors are usage errors", async () => {
    const home = tempHome();
    const open = (resume: { id: string } | { latest: true }) =>
      openSession({ home, cwd: "/nowhere", model: "m", config: storeConfig(), resume, onWarning: quiet });
    await expect(open({ latest: true })).rejects.toThrow(new UsageError("no previous session for /nowhere"));
    await expect(open({ id: "20260101-000000-abcdef" })).rejects.toBeInstanceOf(UsageError);
    await expect(open({ id: "../../etc" })).rejects.toBeInstanceOf(UsageError);
    const err = await open({ latest: true }).catch((e) => e);
    expect(err.exitCode).toBe(2);
  });

  test("listSessions is newest first and the table shows id, updated, title, messages, size", async () => {
    const home = tempHome();
    const ids: string[] = [];
    for (const title of ["first session", "second session", "third session"]) {
      const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
      store.append({ id: "u", role: "user", ts: 1, content: [{ type: "text", text: title }] });
      store.append(msg(1, "reply"));
      await store.close();
      ids.push(store.id);
      nextMillisecond(); // newest first is decided by the millisecond a session was updated
    }
    const list = await listSessions(home);
    expect(list.map((s) => s.id)).toEqual(ids.slice().reverse());
    expect(list[0]!.title).toBe("third session");
    expect(list[0]!.messages).toBe(2);
    const table = formatSessionTable(list);
    const lines = table.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+UPDATED\s+DIRECTORY\s+TITLE\s+MESSAGES\s+SIZE$/);
    expect(lines[1]).toContain(" /p ");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(ids[2]!);
    expect(lines[1]).toContain("third session");
    expect(lines[1]).toMatch(/\s2\s+\d+ B$/);
    expect(formatSessionTable([])).toBe("no sessions\n");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5.0 MB");
  });

  test("append after close is refused", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
    store.append(msg(0));
    await store.close();
    expect(() => store.append(msg(1))).toThrow(/closed/);
  });

  test("resume removes temp files a killed writer left behind", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
    store.append(msg(0));
    await store.close();
    writeFileSync(join(store.dir, "meta.json.12345.tmp"), "{half");
    mkdirSync(join(store.dir, "images"));
    writeFileSync(join(store.dir, "images", `${"a".repeat(64)}.png.999.tmp`), "half");
    const again = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      resume: { id: store.id },
      onWarning: quiet,
    });
    expect(readdirSync(store.dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    expect(readdirSync(join(store.dir, "images"))).toEqual([]);
    await again.store.close();
  });
});

// The JSONL archive through the store: round-trip, rotation, torn and corrupt lines, tail reads, file modes.
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Archive, segmentName } from "../../src/store/archive.ts";
import { openSession } from "../../src/store/session.ts";
import { msg, range, readAllIds, removeTempHomes, storeConfig, tempHome, warnings } from "./helpers.ts";

afterAll(removeTempHomes);

describe("archive", () => {
  test("JSONL round-trip keeps every field", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: () => {} });
    const rich = {
      id: "r1",
      role: "assistant" as const,
      ts: 42,
      usage: { input_tokens: 3, output_tokens: 4 },
      stop_reason: "tool_use",
      content: [
        { type: "text" as const, text: 'héllo \n "quoted" \u2028 end' },
        { type: "tool_use" as const, id: "t1", name: "Bash", input: { command: "ls", nested: [1, null, { a: true }] } },
      ],
    };
    const result = {
      id: "r2",
      role: "user" as const,
      ts: 43,
      content: [{ type: "tool_result" as const, tool_use_id: "t1", content: "out", is_error: true }],
    };
    store.append(rich);
    store.append(result);
    await store.flush();
    const lines = readFileSync(join(store.dir, "messages.jsonl"), "utf8").split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(JSON.parse(lines[0]!)).toEqual(rich);
    const all = [];
    for await (const m of store.readAll()) all.push(m);
    expect(all).toEqual([rich, result]);
    await store.close();
  });

  test("rotation continues in numbered segments and readAll reads them in order", async () => {
    const home = tempHome();
    const { store } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig({ rotateBytes: 2048 }),
      onWarning: () => {},
    });
    for (const i of range(0, 300)) {
      store.append(msg(i, "x".repeat(40)));
      if (i % 37 === 0) await store.flush();
    }
    await store.flush();
    const segments = readdirSync(store.dir)
      .filter((n) => n.startsWith("messages"))
      .sort();
    expect(segments.length).toBeGreaterThan(5);
    expect(segments).toContain("messages.jsonl");
    expect(segments).toContain("messages.1.jsonl");
    for (const name of segments) expect(statSync(join(store.dir, name)).size).toBeLessThanOrEqual(2048);
    expect(await readAllIds(store)).toEqual(range(0, 300).map((i) => `m${i}`));
    const dir = store.dir;
    const id = store.id;
    await store.close();
    // A resumed store keeps appending to the last segment.
    const again = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig({ rotateBytes: 2048 }),
      resume: { id },
      onWarning: () => {},
    });
    again.store.append(msg(300));
    await again.store.flush();
    expect(await readAllIds(again.store)).toEqual(range(0, 301).map((i) => `m${i}`));
    expect(readdirSync(dir).filter((n) => n.startsWith("messages")).length).toBeGreaterThanOrEqual(segments.length);
    await again.store.close();
  });

  test("a torn last line is skipped with a warning naming file and line, and the next write starts a fresh line", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: () => {} });
    for (const i of range(0, 3)) store.append(msg(i));
    await store.flush();
    const id = store.id;
    const file = join(store.dir, "messages.jsonl");
    await store.close();
    appendFileSync(file, '{"id":"m3","role":"user","content":[{"type":"te');

    const w = warnings();
    const { store: again } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      resume: { id },
      onWarning: w.push,
    });
    expect(again.window().map((m) => m.id)).toEqual(["m0", "m1", "m2"]);
    expect(w.list.some((m) => m.includes(file) && m.includes("line 4"))).toBe(true);
    again.append(msg(4));
    await again.flush();
    expect(await readAllIds(again)).toEqual(["m0", "m1", "m2", "m4"]);
    await again.close();
    expect(
      readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.startsWith('{"id":"m4"')),
    ).toHaveLength(1);
  });

  test("a corrupt middle line is skipped and lines after it are still read", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: () => {} });
    for (const i of range(0, 6)) store.append(msg(i));
    await store.flush();
    const id = store.id;
    const file = join(store.dir, "messages.jsonl");
    await store.close();
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = "{this is not json";
    lines[3] = '{"hello":"a hand edit, valid JSON but no message"}';
    writeFileSync(file, lines.join("\n"));

    const w = warnings();
    const { store: again } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      resume: { id },
      onWarning: w.push,
    });
    expect(await readAllIds(again)).toEqual(["m0", "m1", "m4", "m5"]);
    expect(w.list.some((m) => m.includes(file) && m.includes("line 3"))).toBe(true);
    expect(w.list.some((m) => m.includes(file) && m.includes("line 4") && m.includes("not a message"))).toBe(true);
    // meta.json is repaired to what is readable.
    expect(again.meta().messages).toBe(4);
    await again.close();
  });

  test("tail returns the newest messages across segments within count and byte bounds", async () => {
    const home = tempHome();
    const dir = join(home, "s");
    mkdirSync(dir);
    const line = (i: number) => JSON.stringify(msg(i, "y".repeat(50), "user"));
    writeFileSync(join(dir, segmentName(0)), `${range(0, 10).map(line).join("\n")}\n`);
    writeFileSync(join(dir, segmentName(1)), `${range(10, 13).map(line).join("\n")}\n`);
    const archive = await Archive.open({ dir, rotateBytes: 1 << 20, onWarning: () => {} });
    expect((await archive.tail(5, 1 << 20)).map((a) => a.message.id)).toEqual(["m8", "m9", "m10", "m11", "m12"]);
    const oneLine = Buffer.byteLength(line(12));
    expect((await archive.tail(100, oneLine * 4)).map((a) => a.message.id)).toEqual(["m9", "m10", "m11", "m12"]);
    expect((await archive.tail(2, 1 << 20)).map((a) => a.message.id)).toEqual(["m11", "m12"]);
    expect(await archive.count()).toBe(13);
  });

  test("files are 0600 and folders 0700", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: () => {} });
    store.append(msg(0));
    await store.flush();
    await store.saveImage(new Uint8Array([1, 2, 3]), "image/png");
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(join(home, "sessions"))).toBe(0o700);
    expect(mode(store.dir)).toBe(0o700);
    expect(mode(join(store.dir, "images"))).toBe(0o700);
    expect(mode(join(store.dir, "messages.jsonl"))).toBe(0o600);
    expect(mode(join(store.dir, "meta.json"))).toBe(0o600);
    expect(mode(join(store.dir, "lock"))).toBe(0o600);
    for (const f of readdirSync(join(store.dir, "images"))) expect(mode(join(store.dir, "images", f))).toBe(0o600);
    await store.close();
  });
});

// Memory pressure's reaction lives in context/: the store only replaces messages in memory. The
// pruner that moved out of the store (its `dropToolOutputs`) must trim exactly as it did: checked
// against a frozen copy of the old code on 2,000 random windows, then on a real store.
import { afterAll, describe, expect, test } from "bun:test";
import { relieveMemoryPressure } from "../../src/context/memory-pressure.ts";
import { trimForMemory } from "../../src/context/prune.ts";
import type { ContentBlock, Message, TextBlock, ImageBlock } from "../../src/protocol/message.ts";
import { openSession } from "../../src/store/session.ts";
import { removeTempHomes, storeConfig, tempHome } from "../store/helpers.ts";

afterAll(removeTempHomes);

// ---- The old code, frozen as it stood in store/message-store.ts (withoutLargeToolOutputs and the
// index loop of dropToolOutputs over the ring buffer). Do not change: it is the reference.
const OLD_LARGE_OUTPUT_CHARS = 1024;
function oldWithoutLargeToolOutputs(message: Message): Message | undefined {
  let changed = false;
  const content = message.content.map((block) => {
    if (block.type !== "tool_result") return block;
    const text =
      typeof block.content === "string"
        ? block.content
        : block.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    if (text.length <= OLD_LARGE_OUTPUT_CHARS) return block;
    changed = true;
    const note = `${text.slice(0, 200)}\n[${text.length - 200} more characters dropped from memory under memory pressure; kept in the session archive]`;
    return { ...block, content: note };
  });
  return changed ? { ...message, content } : undefined;
}
function oldDropToolOutputs(window: readonly Message[], keepRecent: number): Message[] {
  const limit = window.length - Math.max(0, keepRecent);
  return window.map((message, i) => (i < limit ? oldWithoutLargeToolOutputs(message) : undefined) ?? message);
}
// ---- end of the frozen copy.

/** The window as the store holds it after `replaceInMemory(copies)`. */
const applied = (window: readonly Message[], copies: ReadonlyMap<string, Message>) =>
  window.map((m) => copies.get(m.id) ?? m);

/** A small seeded generator (mulberry32), so a failure names a window that can be rebuilt. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)] as T };
}

const ALPHABET = ["a", "b", " ", "\n", "é", "😀", "漢", "x"];
/** Lengths around the 1,024-character line and the 200 a trimmed output keeps. */
const LENGTHS = [0, 1, 199, 200, 201, 1023, 1024, 1025, 1026, 3000];

function randomWindow(seed: number): { window: Message[]; keepRecent: number } {
  const r = random(seed);
  const text = () => {
    const length = r.next() < 0.6 ? r.pick(LENGTHS) : r.int(4000);
    // One repeated unit keeps it cheap; a surrogate pair may straddle the cut at 200.
    const unit = r.pick(ALPHABET);
    return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  };
  const image: ImageBlock = { type: "image", image: { sha256: "0".repeat(64), mediaType: "image/png", bytes: 9 } };
  const part = (): TextBlock | ImageBlock => (r.next() < 0.2 ? image : { type: "text", text: text() });
  const block = (i: number, j: number): ContentBlock => {
    const kind = r.int(4);
    if (kind === 0) return { type: "text", text: text() };
    if (kind === 1) return { type: "tool_use", id: `t${i}-${j}`, name: "Bash", input: { command: text() } };
    const content = kind === 2 ? text() : Array.from({ length: r.int(4) }, part);
    return { type: "tool_result", tool_use_id: `t${i}-${j}`, content, ...(r.next() < 0.2 ? { is_error: true } : {}) };
  };
  const window = Array.from({ length: r.int(30) }, (_, i): Message => {
    const content = Array.from({ length: 1 + r.int(4) }, (_, j) => block(i, j));
    return { id: `m${seed}-${i}`, role: r.next() < 0.5 ? "user" : "assistant", content, ts: i };
  });
  return { window, keepRecent: r.int(12) - 2 };
}

describe("trimForMemory", () => {
  test("trims exactly as the store's old dropToolOutputs did, on 2,000 random windows", () => {
    let trimmed = 0;
    for (let seed = 1; seed <= 2000; seed++) {
      const { window, keepRecent } = randomWindow(seed);
      const copies = trimForMemory(window, keepRecent);
      const expected = oldDropToolOutputs(window, keepRecent);
      const got = applied(window, copies);
      if (!Bun.deepEquals(got, expected, true))
        throw new Error(`seed ${seed}: trimForMemory differs from the old code`);
      // Untouched messages keep their identity (the ring's byte count is per object).
      for (let i = 0; i < window.length; i++) if (!copies.has(window[i]!.id)) expect(got[i]).toBe(window[i]!);
      trimmed += copies.size;
    }
    // The windows exercise the trim, not only the messages it leaves alone.
    expect(trimmed).toBeGreaterThan(2000);
  });

  test("the input is never changed", () => {
    const { window, keepRecent } = randomWindow(7);
    const before = structuredClone(window);
    trimForMemory(window, keepRecent);
    expect(window).toEqual(before);
  });
});

const big = "o".repeat(5000);
const result = (i: number): Message => ({
  id: `r${i}`,
  role: "user",
  ts: i,
  content: [{ type: "tool_result", tool_use_id: `t${i}`, content: i === 1 ? "small" : big }],
});

describe("relieveMemoryPressure", () => {
  test("trims large outputs in memory only, sparing the newest four and the archive", async () => {
    const { store } = await openSession({
      home: tempHome(),
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      onWarning: () => {},
    });
    for (let i = 0; i < 8; i++) store.append(result(i));
    const before = store.windowBytes();
    let requested = 0;
    const relief = relieveMemoryPressure(
      { rssMb: 900, heapMb: 300 },
      { store, context: { messagesInContext: () => 8, request: () => requested++ } },
    );
    expect(relief.kept).toBe(8);
    expect(requested).toBe(1);
    expect(relief.freed).toBeGreaterThan(3 * 4000);
    expect(store.windowBytes()).toBe(before - relief.freed);
    const contents = store.window().map((m) => (m.content[0] as { content: string }).content);
    expect(contents[0]).toBe(
      `${"o".repeat(200)}\n[4800 more characters dropped from memory under memory pressure; kept in the session archive]`,
    );
    expect(contents[1]).toBe("small");
    expect(contents.slice(4)).toEqual([big, big, big, big]);
    expect(relief.message).toBe(
      `memory use is critical (RSS 900 MB, heap 300 MB): kept the newest 8 messages in memory, trimmed older tool outputs (${Math.round(relief.freed / 1024)} kB; all are on disk) and asked for compaction`,
    );
    // Nothing was lost: the archive has every output whole.
    const archived: Message[] = [];
    for await (const m of store.readAll()) archived.push(m);
    expect(archived.map((m) => (m.content[0] as { content: string }).content)).toEqual(
      Array.from({ length: 8 }, (_, i) => (i === 1 ? "small" : big)),
    );
    await store.close();
  });

  // [window length, messages in the model's context] → messages memory keeps.
  const cases: Array<[number, number, number]> = [
    [4, 0, 8],
    [12, 0, 8],
    [40, 3, 20],
    [40, 30, 30],
    [41, 0, 20],
  ];
  for (const [length, inContext, kept] of cases) {
    test(`${length} in memory, ${inContext} in context: keeps ${kept}`, async () => {
      const { store } = await openSession({
        home: tempHome(),
        cwd: "/p",
        model: "m",
        config: storeConfig(),
        onWarning: () => {},
      });
      for (let i = 0; i < length; i++) store.append(result(i));
      const relief = relieveMemoryPressure(
        { rssMb: 1, heapMb: 1 },
        { store, context: { messagesInContext: () => inContext, request: () => {} } },
      );
      expect(relief.kept).toBe(kept);
      expect(store.window()).toHaveLength(Math.min(length, kept));
      await store.close();
    });
  }
});

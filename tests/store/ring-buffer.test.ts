// The bounded message window, table-tested.
import { describe, expect, test } from "bun:test";
import { RingBuffer } from "../../src/store/ring-buffer.ts";

interface Item {
  id: string;
  size: number;
}

function ring(maxCount: number, maxBytes: number) {
  return new RingBuffer<Item>({ maxCount, maxBytes, sizeOf: (i) => i.size, keyOf: (i) => i.id });
}
const item = (id: string, size = 1): Item => ({ id, size });

describe("RingBuffer", () => {
  const cases: Array<{
    name: string;
    maxCount: number;
    maxBytes: number;
    sizes: number[];
    kept: string[];
    evicted: string[];
  }> = [
    {
      name: "under both bounds keeps all",
      maxCount: 5,
      maxBytes: 100,
      sizes: [1, 1, 1],
      kept: ["a0", "a1", "a2"],
      evicted: [],
    },
    {
      name: "count bound evicts oldest",
      maxCount: 3,
      maxBytes: 100,
      sizes: [1, 1, 1, 1, 1],
      kept: ["a2", "a3", "a4"],
      evicted: ["a0", "a1"],
    },
    {
      name: "byte bound evicts oldest",
      maxCount: 100,
      maxBytes: 10,
      sizes: [4, 4, 4, 4],
      kept: ["a2", "a3"],
      evicted: ["a0", "a1"],
    },
    {
      name: "exactly at byte bound is kept",
      maxCount: 100,
      maxBytes: 8,
      sizes: [4, 4],
      kept: ["a0", "a1"],
      evicted: [],
    },
    {
      name: "one big item evicts many",
      maxCount: 100,
      maxBytes: 10,
      sizes: [2, 2, 2, 9],
      kept: ["a3"],
      evicted: ["a0", "a1", "a2"],
    },
    {
      name: "oversized newest item is still kept",
      maxCount: 100,
      maxBytes: 10,
      sizes: [2, 50],
      kept: ["a1"],
      evicted: ["a0"],
    },
    { name: "count of one", maxCount: 1, maxBytes: 100, sizes: [1, 1, 1], kept: ["a2"], evicted: ["a0", "a1"] },
    {
      name: "wraps past initial capacity",
      maxCount: 20,
      maxBytes: 1000,
      sizes: Array(30).fill(1),
      kept: Array.from({ length: 20 }, (_, i) => `a${i + 10}`),
      evicted: Array.from({ length: 10 }, (_, i) => `a${i}`),
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const r = ring(c.maxCount, c.maxBytes);
      const evicted: string[] = [];
      c.sizes.forEach((size, i) => evicted.push(...r.push(item(`a${i}`, size)).map((x) => x.id)));
      expect(r.items().map((x) => x.id)).toEqual(c.kept);
      expect(evicted).toEqual(c.evicted);
      expect(r.count).toBe(c.kept.length);
      expect(r.bytes).toBe(r.items().reduce((s, x) => s + x.size, 0));
    });
  }

  test("index finds kept items and forgets evicted ones", () => {
    const r = ring(2, 100);
    for (const id of ["a", "b", "c"]) r.push(item(id));
    expect(r.get("a")).toBeUndefined();
    expect(r.get("b")?.id).toBe("b");
    expect(r.get("c")?.id).toBe("c");
  });

  test("a repeated key points at the newest item and survives eviction of the older one", () => {
    const r = ring(2, 100);
    const first = item("x");
    const second = item("x");
    r.push(first);
    r.push(second);
    expect(r.get("x")).toBe(second);
    r.push(item("y"));
    expect(r.get("x")).toBe(second);
  });

  test("shrink evicts oldest down to keep, and the buffer keeps working", () => {
    const r = ring(100, 1000);
    for (let i = 0; i < 50; i++) r.push(item(`a${i}`, 3));
    const evicted = r.shrink(5);
    expect(evicted.map((x) => x.id)).toEqual(Array.from({ length: 45 }, (_, i) => `a${i}`));
    expect(r.items().map((x) => x.id)).toEqual(["a45", "a46", "a47", "a48", "a49"]);
    expect(r.bytes).toBe(15);
    expect(r.get("a10")).toBeUndefined();
    for (let i = 50; i < 200; i++) r.push(item(`a${i}`, 3));
    expect(r.count).toBe(100);
    expect(r.items()[0]!.id).toBe("a100");
    expect(r.shrink(0)).toHaveLength(100);
    expect(r.count).toBe(0);
    expect(r.bytes).toBe(0);
  });

  test("update replaces in place, keeps bytes and the index true, evicts nothing", () => {
    const r = ring(10, 100);
    for (let i = 0; i < 12; i++) r.push(item(`a${i}`, 5)); // wraps: a2..a11 kept
    const freed = r.update((it, i) => (i % 2 === 0 ? { id: it.id, size: 1 } : undefined));
    expect(freed).toBe(5 * 4);
    expect(r.bytes).toBe(50 - 20);
    expect(r.count).toBe(10);
    expect(r.items().map((x) => x.size)).toEqual([1, 5, 1, 5, 1, 5, 1, 5, 1, 5]);
    expect(r.get("a2")).toEqual({ id: "a2", size: 1 });
    expect(r.get("a3")).toEqual({ id: "a3", size: 5 });
    expect(r.update(() => undefined)).toBe(0);
  });
});

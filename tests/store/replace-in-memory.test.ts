// replaceInMemory: copies stand in for messages in the window (bytes freed, window refreshed) while
// the archive keeps the originals, even for messages not yet written when the copy is made.
import { afterAll, expect, test } from "bun:test";
import { openSession } from "../../src/store/session.ts";
import { msg, removeTempHomes, storeConfig, tempHome } from "./helpers.ts";

afterAll(removeTempHomes);

test("the window holds the copies, the archive the originals", async () => {
  const { store } = await openSession({
    home: tempHome(),
    cwd: "/w",
    model: "m",
    config: storeConfig(),
    onWarning: () => undefined,
  });
  const big = msg(1, "x".repeat(50_000));
  store.append(msg(0, "task"));
  store.append(big);
  store.append(msg(2, "after"));
  const before = store.windowBytes();
  const copy = { ...big, content: [{ type: "text" as const, text: "[cleared]" }] };
  const freed = store.replaceInMemory(new Map([[big.id, copy]]));
  expect(freed).toBeGreaterThan(49_000);
  expect(store.windowBytes()).toBe(before - freed);
  expect(store.window().map((m) => m.id)).toEqual(["m0", "m1", "m2"]);
  expect(store.window()[1]).toBe(copy);
  expect(store.get("m1")).toBe(copy);
  const archived: string[] = [];
  for await (const m of store.readAll()) archived.push((m.content[0] as { text: string }).text);
  expect(archived[1]).toBe("x".repeat(50_000));
  await store.close();
});

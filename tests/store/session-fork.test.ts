// `--session-id` and `--fork-session` at the store: a chosen id, an id in use, and a fork that
// copies the history and never writes the original (nor copies its lock).
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { UsageError } from "../../src/protocol/errors.ts";
import { openSession } from "../../src/store/session.ts";
import { isCopiedFile } from "../../src/store/session-fork.ts";
import { msg, range, readAllIds, removeTempHomes, storeConfig, tempHome } from "./helpers.ts";

afterAll(removeTempHomes);

const quiet = () => {};
const open = (home: string, more: Partial<Parameters<typeof openSession>[0]> = {}) =>
  openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet, ...more });

describe("isCopiedFile", () => {
  const table: [string, boolean][] = [
    ["meta.json", true],
    ["archive-000000.jsonl", true],
    ["index.jsonl", true],
    ["lock", false],
    ["lock.guard", false],
    ["meta.json.1234.tmp", false],
  ];
  for (const [name, copied] of table) test(name, () => expect(isCopiedFile(name)).toBe(copied));
});

describe("a chosen id", () => {
  test("names the new session; an id in use is a usage error and leaves that session alone", async () => {
    const home = tempHome();
    const id = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
    const { store } = await open(home, { id });
    expect(store.id).toBe(id);
    store.append(msg(0));
    await store.close();
    const err = await open(home, { id }).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe(`session id ${id} is already in use`);
    const { store: again } = await open(home, { resume: { id } });
    expect(await readAllIds(again)).toEqual(["m0"]);
    await again.close();
  });
});

test("a folder a killed run left under that id (a dead lock, no session) does not hold the id", async () => {
  const home = tempHome();
  const id = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  mkdirSync(join(home, "sessions", id), { recursive: true });
  writeFileSync(join(home, "sessions", id, "lock"), JSON.stringify({ pid: dead.pid, host: hostname(), token: "x" }));
  const { store } = await open(home, { id });
  expect(store.id).toBe(id);
  await store.close();
});

describe("fork", () => {
  test("the fork holds the history; what it appends never reaches the original", async () => {
    const home = tempHome();
    const { store } = await open(home);
    for (const i of range(0, 4)) store.append(msg(i));
    const original = store.id;
    await store.close();
    const dir = join(home, "sessions", original);
    const before = readdirSync(dir).map((n) => [n, readFileSync(join(dir, n), "utf8")]);

    const { store: fork, resumed } = await open(home, { resume: { id: original }, fork: true });
    expect(resumed).toBe(true);
    expect(fork.id).not.toBe(original);
    expect(await readAllIds(fork)).toEqual(["m0", "m1", "m2", "m3"]);
    fork.append(msg(4));
    await fork.close();

    expect(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n), "utf8")])).toEqual(before);
    expect(existsSync(join(home, "sessions", fork.id, "lock"))).toBe(false);
    const { store: reopened } = await open(home, { resume: { id: fork.id } });
    expect(await readAllIds(reopened)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    await reopened.close();
  });
});

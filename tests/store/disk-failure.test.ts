// A full disk and a read-only directory: flush() rejects with one clear line, nothing in memory is
// lost, and the next flush after the disk recovers writes it all exactly once. Tests run as root,
// where chmod does not stop writes, so the disk is a small tmpfs when mounting is allowed.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StoreError } from "../../src/store/errors.ts";
import type { MessageStore } from "../../src/store/message-store.ts";
import { openSession } from "../../src/store/session.ts";
import { msg, range, readAllIds, removeTempHomes, storeConfig, tempHome, warnings } from "./helpers.ts";

afterAll(removeTempHomes);

const mounted: string[] = [];
const isRoot = process.getuid?.() === 0;

function sh(...cmd: string[]): boolean {
  return Bun.spawnSync(cmd, { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
}

/** A tmpfs of `size` at a fresh folder, or undefined where mounting is not allowed. */
function tmpfs(size: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), "synapse-tmpfs-"));
  if (!isRoot || !sh("mount", "-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir)) return undefined;
  mounted.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of mounted) if (sh("umount", "-l", dir)) rmSync(dir, { recursive: true, force: true });
});

async function expectAllOnce(store: MessageStore, n: number) {
  expect(await readAllIds(store)).toEqual(range(0, n).map((i) => `m${i}`));
}

describe("disk failures", () => {
  test("a full disk rejects flush with a one-line StoreError; messages stay queued and are written once space returns", async () => {
    const disk = tmpfs("64k");
    const home = disk ?? tempHome("synapse-full-");
    const w = warnings();
    const { store } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig({ flushMs: 60_000 }),
      onWarning: w.push,
    });
    store.append(msg(0));
    await store.flush();
    const file = join(store.dir, "messages.jsonl");
    if (!disk) {
      // No mount allowed: the archive becomes /dev/full, which fails every write with ENOSPC.
      renameSync(file, `${file}.real`);
      symlinkSync("/dev/full", file);
    }
    for (const i of range(1, 40)) store.append(msg(i, "f".repeat(4000)));
    const err = await store.flush().catch((e) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect(err.message).toMatch(/no space left on device \(ENOSPC\)/);
    expect(err.message).not.toContain("\n");
    expect(store.window()).toHaveLength(40);
    expect(store.queued).toBeGreaterThan(0);
    // Still failing: still kept.
    await expect(store.flush()).rejects.toBeInstanceOf(StoreError);

    if (disk) expect(sh("mount", "-o", "remount,size=2m", disk)).toBe(true);
    else {
      rmSync(file);
      renameSync(`${file}.real`, file);
    }
    await store.flush();
    expect(store.queued).toBe(0);
    await expectAllOnce(store, 40);
    expect(w.list).toEqual([]);
    await store.close();
  });

  test("a read-only directory rejects flush; messages stay queued and are written once it is writable", async () => {
    const disk = tmpfs("1m");
    if (!disk && isRoot) {
      // Root ignores modes and mounting is not allowed here: a folder where the archive file should
      // be is the remaining way to make the write fail.
      console.warn("disk-failure: tmpfs unavailable, using a directory in place of the archive file");
    }
    const home = disk ?? tempHome("synapse-ro-");
    const { store } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig({ flushMs: 60_000 }),
      onWarning: () => {},
    });
    store.append(msg(0));
    await store.flush();
    const file = join(store.dir, "messages.jsonl");
    const readOnly = () => {
      if (disk) return expect(sh("mount", "-o", "remount,ro", disk)).toBe(true);
      if (!isRoot) return Bun.spawnSync(["chmod", "-R", "a-w", store.dir]);
      renameSync(file, `${file}.real`);
      mkdirSync(file);
    };
    const writable = () => {
      if (disk) return expect(sh("mount", "-o", "remount,rw", disk)).toBe(true);
      if (!isRoot) return Bun.spawnSync(["chmod", "-R", "u+w", store.dir]);
      rmSync(file, { recursive: true });
      renameSync(`${file}.real`, file);
    };
    readOnly();
    for (const i of range(1, 10)) store.append(msg(i));
    const err = await store.flush().catch((e) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect(err.message).toMatch(/cannot .* (read-only file system|permission denied|is a directory)/);
    expect(store.window().map((m) => m.id)).toEqual(range(0, 10).map((i) => `m${i}`));
    // readAll still sees everything: the disk part, then what is queued (not in the last fallback,
    // where the archive file itself was moved aside).
    if (disk || !isRoot) await expectAllOnce(store, 10);
    writable();
    await store.flush();
    expect(store.queued).toBe(0);
    await expectAllOnce(store, 10);
    await store.close();
  });
});

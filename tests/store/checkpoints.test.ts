// File checkpoints with real files: what is saved before the agent's first write in a prompt, what
// a restore puts back, and that no link planted since makes a save or a restore reach elsewhere.
import { afterAll, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { CheckpointStore, taskCheckpoints } from "../../src/store/checkpoints.ts";
import { restoreCode } from "../../src/store/checkpoints-restore.ts";
import { pruneCheckpoints } from "../../src/store/checkpoints-sweep.ts";
import { compactSession } from "../../src/store/compact-session.ts";
import { openSession } from "../../src/store/session.ts";
import { msg, removeTempHomes, storeConfig, tempHome } from "./helpers.ts";

afterAll(removeTempHomes);

/** A session folder and a workspace, both real folders (links resolved). */
function setup() {
  const root = realpathSync(tempHome("synapse-ckpt-"));
  const session = join(root, "session");
  const ws = join(root, "ws");
  mkdirSync(session);
  mkdirSync(ws);
  return { root, ws, store: new CheckpointStore(session) };
}

/** What the agent's Write does, with the hook around it. */
async function agentWrite(store: CheckpointStore, path: string, text: string) {
  await store.beforeWrite(path);
  writeFileSync(path, text);
  await store.afterWrite(path, text);
}

describe("saving", () => {
  test("only the first write of a file in a prompt is saved; the next prompt saves again", async () => {
    const { ws, store } = setup();
    const file = join(ws, "a.txt");
    writeFileSync(file, "v0");
    await store.startTurn("p1");
    await agentWrite(store, file, "v1");
    await agentWrite(store, file, "v2");
    await store.startTurn("p2");
    await agentWrite(store, file, "v3");
    const befores = (await store.entries()).filter((e) => e.t === "before");
    expect(befores.map((e) => [e.turn, e.path])).toEqual([
      ["p1", file],
      ["p2", file],
    ]);
    const blobs = await Promise.all(befores.map((e) => store.readBlob((e as { sha: string }).sha)));
    expect(blobs.map(String)).toEqual(["v0", "v2"]);
  });

  test("a prompt found late: one turn line, written at its first write or at its end", async () => {
    const { ws, store } = setup();
    let stored: string | undefined;
    // The prompt is stored only after the turn began (hooks run first): found when asked for.
    store.beginTurn(() => stored);
    stored = "p1";
    await agentWrite(store, join(ws, "a.txt"), "1");
    await agentWrite(store, join(ws, "b.txt"), "2");
    await store.endTurn();
    store.beginTurn(() => "p2");
    await store.endTurn();
    // A write after the prompt ended (none is expected) is not put under any prompt.
    await agentWrite(store, join(ws, "c.txt"), "3");
    const entries = await store.entries();
    expect(entries.filter((e) => e.t === "turn").map((e) => e.turn)).toEqual(["p1", "p2"]);
    expect(entries.filter((e) => e.t === "before").map((e) => e.turn)).toEqual(["p1", "p1"]);
  });

  test("a sub-agent's writes join its parent's prompt, without a turn line of their own", async () => {
    const { root, ws, store } = setup();
    await store.startTurn("p1");
    const task = taskCheckpoints(join(root, "session"), "p1");
    await task.beforeWrite(join(ws, "t.txt"));
    writeFileSync(join(ws, "t.txt"), "task");
    await task.afterWrite(join(ws, "t.txt"), "task");
    const done = await restoreCode(store, "p1");
    expect(done).toEqual([{ path: join(ws, "t.txt"), status: "removed" }]);
    expect((await store.entries()).filter((e) => e.t === "turn").length).toBe(1);
  });

  test("a link at the path is not followed: nothing is read through it", async () => {
    const { root, ws, store } = setup();
    writeFileSync(join(root, "secret"), "outside");
    symlinkSync(join(root, "secret"), join(ws, "link"));
    await store.startTurn("p1");
    await store.beforeWrite(join(ws, "link"));
    expect((await store.entries()).filter((e) => e.t === "before")).toEqual([]);
    expect(readdirSync(store.folder).filter((n) => n !== "index.jsonl")).toEqual([]);
  });
});

describe("restoring", () => {
  test("edited files go back, created ones go, and a file changed outside is named and kept", async () => {
    const { ws, store } = setup();
    const [edited, created, outside] = ["edited.txt", "sub/created.txt", "outside.txt"].map((n) => join(ws, n)) as [
      string,
      string,
      string,
    ];
    writeFileSync(edited, "edited v0");
    writeFileSync(outside, "outside v0");
    await store.startTurn("p1");
    await store.startTurn("p2");
    await agentWrite(store, edited, "edited v1");
    mkdirSync(join(ws, "sub"));
    await agentWrite(store, created, "new file");
    await agentWrite(store, outside, "outside v1");
    writeFileSync(outside, "the user's own change");

    const done = await restoreCode(store, "p2");
    expect(readFileSync(edited, "utf8")).toBe("edited v0");
    expect(existsSync(created)).toBe(false);
    expect(readFileSync(outside, "utf8")).toBe("outside v0");
    const byPath = new Map(done!.map((d) => [d.path, d]));
    expect(byPath.get(edited)).toEqual({ path: edited, status: "restored" });
    expect(byPath.get(created)).toEqual({ path: created, status: "removed" });
    const named = byPath.get(outside)!;
    expect(named.changedOutside).toBe(true);
    expect(String(await store.readBlob(named.keptAs!))).toBe("the user's own change");
    // Nothing more to do, and nothing taken for an outside change: the restore is synapse's state now.
    const again = await restoreCode(store, "p2");
    expect(again!.map((d) => d.status)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(await restoreCode(store, "unknown prompt")).toBeUndefined();
  });

  test("a write that never landed (it failed, or a kill -9 came first): what is there now is kept", async () => {
    const { ws, store } = setup();
    const file = join(ws, "f.txt");
    writeFileSync(file, "v0");
    await store.startTurn("p1");
    // The snapshot was taken, the write then failed: no state of synapse's is known for the file.
    await store.beforeWrite(file);
    writeFileSync(file, "the user's own change");
    const [done] = (await restoreCode(store, "p1"))!;
    expect(readFileSync(file, "utf8")).toBe("v0");
    expect(String(await store.readBlob(done!.keptAs!))).toBe("the user's own change");
  });

  test("to before an earlier prompt: each file goes back to its state before its first write since", async () => {
    const { ws, store } = setup();
    const file = join(ws, "f.txt");
    writeFileSync(file, "0");
    await store.startTurn("p1");
    await agentWrite(store, file, "1");
    await store.startTurn("p2");
    await agentWrite(store, file, "2");
    await restoreCode(store, "p2");
    expect(readFileSync(file, "utf8")).toBe("1");
    await restoreCode(store, "p1");
    expect(readFileSync(file, "utf8")).toBe("0");
  });

  test("attack: a folder on the recorded path replaced by a link never makes a restore write outside", async () => {
    const { root, ws, store } = setup();
    const outsideDir = join(root, "outside");
    mkdirSync(outsideDir);
    writeFileSync(join(outsideDir, "a.txt"), "precious");
    mkdirSync(join(ws, "sub"));
    const file = join(ws, "sub", "a.txt");
    await store.startTurn("p1");
    await agentWrite(store, file, "agent text");
    // A command the model ran since: the folder becomes a link to a folder outside the workspace.
    rmSync(join(ws, "sub"), { recursive: true });
    symlinkSync(outsideDir, join(ws, "sub"));

    const done = await restoreCode(store, "p1");
    expect(readFileSync(join(outsideDir, "a.txt"), "utf8")).toBe("precious");
    expect(done![0]!.status).toBe("left alone");
    expect(done![0]!.why).toContain("symbolic link");
  });

  test("attack: the file replaced by a link is left alone, its target untouched", async () => {
    const { root, ws, store } = setup();
    const target = join(root, "bashrc");
    writeFileSync(target, "precious");
    const file = join(ws, "a.txt");
    writeFileSync(file, "before");
    await store.startTurn("p1");
    await agentWrite(store, file, "after");
    rmSync(file);
    symlinkSync(target, file);

    const done = await restoreCode(store, "p1");
    expect(readFileSync(target, "utf8")).toBe("precious");
    expect(done![0]!.status).toBe("left alone");
  });
});

describe("bounds", () => {
  test("a live session keeps the last 100 prompts' checkpoints; older snapshots are removed", async () => {
    const { ws, store } = setup();
    const file = join(ws, "f.txt");
    for (let i = 0; i < 125; i++) {
      await store.startTurn(`p${i}`);
      await agentWrite(store, file, `v${i}`);
    }
    const turns = (await store.entries()).filter((e) => e.t === "turn").map((e) => e.turn);
    expect(turns.length).toBeLessThanOrEqual(105);
    expect(turns.at(-1)).toBe("p124");
    const blobs = readdirSync(store.folder).filter((n) => n !== "index.jsonl");
    // p0 found no file (nothing to copy); every prompt still kept saved one snapshot.
    expect(blobs.length).toBe(turns.length);
    // What compact does: down to 100, nothing unreferenced left.
    const sweep = await pruneCheckpoints(store.folder);
    expect((await store.entries()).filter((e) => e.t === "turn").length).toBe(100);
    expect(sweep.removed).toBe(blobs.length - 100);
  });
});

describe("synapse compact", () => {
  test("removes snapshots no kept prompt refers to, and keeps the rest", async () => {
    const home = tempHome();
    const { store: session } = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      onWarning: () => {},
    });
    session.append(msg(0, "prompt", "user"));
    const store = new CheckpointStore(session.dir);
    const ws = realpathSync(tempHome("synapse-ckpt-ws-"));
    const file = join(ws, "f.txt");
    writeFileSync(file, "kept");
    await store.startTurn("m0");
    await agentWrite(store, file, "new");
    const orphan = await store.saveBlob(Buffer.from("no prompt names this"));
    await session.close();

    const dry = await compactSession(session.id, { home, dryRun: true, now: Date.now() });
    expect(dry.checkpointsRemoved).toBe(1);
    expect(existsSync(join(store.folder, orphan))).toBe(true);
    const report = await compactSession(session.id, { home, dryRun: false, now: Date.now() });
    expect(report.status).toBe("compacted");
    expect(report.checkpointsRemoved).toBe(1);
    expect(existsSync(join(store.folder, orphan))).toBe(false);
    await restoreCode(store, "m0");
    expect(readFileSync(file, "utf8")).toBe("kept");
  });
});

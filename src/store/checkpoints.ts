// File checkpoints of a session (`/rewind`): before the agent's first Write or Edit of a file in a
// prompt, its bytes (or its absence) are saved content-addressed under the session's
// `checkpoints/` folder, as images are, and the index (checkpoints-index.ts) says which prompt and
// path they belong to. Files are opened without following a link, and paths are recorded with
// their folders resolved, so a link planted later on the way is noticed at restore.

import { constants } from "node:fs";
import { appendFile, type FileHandle, lstat, open, readFile, realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { sha256Hex } from "../runtime/portable.ts";
import { writeFileAtomic } from "./atomic-write.ts";
import { storeError } from "./errors.ts";
import { CHECKPOINT_TURNS, type IndexEntry, indexLine, parseIndex } from "./checkpoints-index.ts";
import { pruneCheckpoints } from "./checkpoints-sweep.ts";
import { ensurePrivateDir } from "./paths.ts";

export const CHECKPOINTS_FOLDER = "checkpoints";
export const INDEX_FILE = "index.jsonl";
/** Larger files are not copied: the index says so, and a restore names them. */
export const SNAPSHOT_MAX_BYTES = 16 << 20;
// The index is rewritten down to CHECKPOINT_TURNS prompts once it holds this many more.
const PRUNE_SLACK = 20;
const SHA256 = /^[0-9a-f]{64}$/;

/** The path with its existing folders resolved (links included), so it names the file itself. */
export async function canonicalPath(path: string): Promise<string> {
  const rest = [basename(path)];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    try {
      return join(await realpath(dir), ...rest);
    } catch {
      if (dirname(dir) === dir) return path;
      rest.unshift(basename(dir));
    }
  }
}

/** What is at `path` now, never through a link: a regular file's bytes, nothing, or something else. */
export async function readNoFollow(
  path: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<{ bytes: Buffer; mode: number } | null | "link" | "not a file" | "too large"> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP") return "link";
    if (code === "ENXIO") return "not a file";
    throw err;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return "not a file";
    if (info.size > maxBytes) return "too large";
    return { bytes: await handle.readFile(), mode: info.mode & 0o7777 };
  } finally {
    await handle.close();
  }
}

export class CheckpointStore {
  readonly folder: string;
  readonly indexPath: string;
  private turn: string | undefined;
  // A prompt whose id is found on its first write (or at its end): see beginTurn.
  private pending: (() => string | undefined) | undefined;
  private seen = new Set<string>();
  private turns: number | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(sessionDir: string) {
    this.folder = join(sessionDir, CHECKPOINTS_FOLDER);
    this.indexPath = join(this.folder, INDEX_FILE);
  }

  /**
   * A prompt starts whose message may not be stored yet: `prompt()` finds its id, at its first
   * write or at `endTurn`, whichever comes first.
   */
  beginTurn(prompt: () => string | undefined): void {
    this.turn = undefined;
    this.pending = prompt;
    this.seen = new Set();
  }

  /** The prompt is over: one without writes is still a point to rewind to. */
  async endTurn(): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    const id = pending?.();
    if (id !== undefined) await this.startTurn(id);
    this.turn = undefined;
  }

  /** A sub-agent's writes belong to its parent's prompt, whose line the parent wrote. */
  joinTurn(promptId: string): void {
    this.pending = undefined;
    this.turn = promptId;
    this.seen = new Set();
  }

  /**
   * The prompt's id once its line is in the index (written now if it was pending): a sub-agent
   * starting joins it. Undefined outside a prompt.
   */
  async currentTurn(): Promise<string | undefined> {
    const id = this.pending?.();
    if (id !== undefined) await this.startTurn(id);
    await this.settled();
    return this.turn;
  }

  /** A new prompt: the next first write of each file is saved again, under it. */
  startTurn(promptId: string): Promise<void> {
    this.pending = undefined;
    this.turn = promptId;
    this.seen = new Set();
    return this.serial(async () => {
      this.turns ??= (await this.entries()).filter((e) => e.t === "turn").length;
      await this.append({ t: "turn", turn: promptId, ts: Date.now() });
      if (++this.turns >= CHECKPOINT_TURNS + PRUNE_SLACK) {
        await pruneCheckpoints(this.folder, CHECKPOINT_TURNS, false);
        this.turns = CHECKPOINT_TURNS;
      }
    });
  }

  /** Before the agent writes `path`: its content is saved when this is the prompt's first write of it. */
  async beforeWrite(path: string): Promise<void> {
    const id = this.pending?.();
    if (id !== undefined) await this.startTurn(id);
    const turn = this.turn;
    if (turn === undefined) return;
    return this.serial(async () => {
      const file = await canonicalPath(path);
      if (this.seen.has(file)) return;
      const found = await readNoFollow(file, SNAPSHOT_MAX_BYTES).catch((err) => {
        throw storeError("save a checkpoint of", file, err);
      });
      // A link or a device: the write refuses it anyway, and there is nothing to put back.
      if (found === "link" || found === "not a file") return;
      this.seen.add(file);
      if (found === "too large") {
        await this.append({ t: "before", turn, path: file, sha: null, skipped: "larger than 16 MiB" });
      } else if (found === null) {
        await this.append({ t: "before", turn, path: file, sha: null });
      } else {
        const sha = await this.saveBlob(found.bytes);
        await this.append({ t: "before", turn, path: file, sha, mode: found.mode });
      }
    });
  }

  /** After the agent wrote `text` to `path`: the state it left, to tell later outside changes apart. */
  afterWrite(path: string, text: string): Promise<void> {
    if (this.turn === undefined) return Promise.resolve();
    return this.serial(async () => {
      const sha = await sha256Hex(Buffer.from(text, "utf8"));
      await this.append({ t: "after", path: await canonicalPath(path), sha });
    });
  }

  async entries(): Promise<IndexEntry[]> {
    const text = await readFile(this.indexPath, "utf8").catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") return "";
      throw storeError("read checkpoint index", this.indexPath, err);
    });
    return parseIndex(text);
  }

  /** Saves bytes under their hash (once), returning the hash. */
  async saveBlob(bytes: Uint8Array): Promise<string> {
    const sha = await sha256Hex(bytes);
    const path = join(this.folder, sha);
    const existing = await lstat(path).catch(() => undefined);
    if (existing?.isFile() && existing.size === bytes.byteLength) return sha;
    await ensurePrivateDir(this.folder);
    // A crash never leaves half a snapshot under its final (trusted) name.
    await writeFileAtomic(path, bytes).catch((err) => {
      throw storeError("save checkpoint", path, err);
    });
    return sha;
  }

  async readBlob(sha: string): Promise<Buffer> {
    // A hash comes from the index: never let it name a path outside the folder.
    if (!SHA256.test(sha)) throw new Error(`not a checkpoint hash: ${JSON.stringify(sha)}`);
    const path = join(this.folder, sha);
    const bytes = await readFile(path).catch((err) => {
      throw storeError("read checkpoint", path, err);
    });
    if ((await sha256Hex(bytes)) !== sha) throw storeError("read checkpoint", path, new Error("its content changed"));
    return bytes;
  }

  /** Appends index lines, outside of any turn (a restore's record of what it did). */
  record(entries: readonly IndexEntry[]): Promise<void> {
    return this.serial(async () => {
      for (const entry of entries) await this.append(entry);
    });
  }

  /** Waits for every queued write of the index. */
  settled(): Promise<void> {
    return this.serial(async () => undefined);
  }

  private async append(entry: IndexEntry): Promise<void> {
    await ensurePrivateDir(this.folder);
    // An append reaches the page cache before the agent's write goes on: it survives kill -9.
    await appendFile(this.indexPath, indexLine(entry), { mode: 0o600 }).catch((err) => {
      throw storeError("write checkpoint index", this.indexPath, err);
    });
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task);
    this.chain = run.catch(() => undefined);
    return run;
  }
}

/**
 * The Write/Edit hook of a sub-agent (in its worker thread) of prompt `turn`: its own store on the
 * parent session's folder, appending to the same index (one short line per append).
 */
export function taskCheckpoints(sessionDir: string, turn: string) {
  const store = new CheckpointStore(sessionDir);
  store.joinTurn(turn);
  return {
    beforeWrite: (path: string) => store.beforeWrite(path),
    afterWrite: (path: string, text: string) => store.afterWrite(path, text),
  };
}

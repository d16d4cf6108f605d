// Writes session folders as synapse leaves them on disk (meta.json, JSONL segments, images), with
// compaction records written directly as archive lines, for the `synapse compact` tests and bench.

import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CompactionInfo, Message } from "../../src/protocol/message.ts";

export interface SessionSpec {
  id: string;
  cwd: string;
  /** Number of archive segments; each holds `turnsPerSegment` turns (prompt or tool call, then result). */
  segments: number;
  turnsPerSegment: number;
  /** Characters of each tool output. */
  outputChars: number;
  /** Segment indexes that end with a compaction record. */
  compactionIn?: number[];
  /** Images referenced by a message (in segment 0) and images on disk that nothing references. */
  images?: number;
  orphanImages?: number;
  /** Leaves a torn (unterminated) line at the end of the last segment. */
  tornLast?: boolean;
  /** meta.json's `updated`, days before now. */
  updatedDaysAgo?: number;
  /** Leave meta.json out (a session known only by its archive). */
  noMeta?: boolean;
}

export interface WrittenSession {
  dir: string;
  /** Ids of the messages a reader sees, in order. */
  ids: string[];
  bytes: number;
}

const DAY = 86_400_000;

function segmentFile(index: number): string {
  return index === 0 ? "messages.jsonl" : `messages.${index}.jsonl`;
}

// Tool output that compresses roughly like real command output: words, paths and numbers. Kept to
// 256 distinct texts per size, so a gigabyte for the bench is quick to write; deflate's 32 KiB
// window does not reach back to the previous copy of the same text.
const outputs = new Map<string, string>();
function output(seed: number, chars: number): string {
  const key = `${seed % 256}:${chars}`;
  let text = outputs.get(key);
  if (text === undefined) outputs.set(key, (text = makeOutput(seed % 256, chars)));
  return text;
}

function makeOutput(seed: number, chars: number): string {
  const words = [
    "src/store/archive.ts",
    "error",
    "warning:",
    "function",
    "return",
    "const",
    "0x1f",
    "passed",
    "tests/e2e",
    "import",
  ];
  let text = "";
  let n = seed * 2654435761;
  while (text.length < chars) {
    n = (n * 1103515245 + 12345) >>> 0;
    text += words[n % words.length] + (n % 7 === 0 ? "\n" : " ") + (n % 13 === 0 ? `${String(n % 100000)} ` : "");
  }
  return text.slice(0, chars);
}

export function writeSession(home: string, spec: SessionSpec): WrittenSession {
  const dir = join(home, "sessions", spec.id);
  mkdirSync(join(dir, "images"), { recursive: true, mode: 0o700 });
  const ids: string[] = [];
  let ts = Date.now() - (spec.updatedDaysAgo ?? 0) * DAY - 3_600_000;
  let k = 0;
  const imageRefs: Array<{ sha256: string; mediaType: string; bytes: number }> = [];
  for (let i = 0; i < (spec.images ?? 0) + (spec.orphanImages ?? 0); i++) {
    const bytes = Buffer.from(`fake png ${spec.id} ${i} `.repeat(200));
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    writeFileSync(join(dir, "images", `${sha256}.png`), bytes);
    if (i < (spec.images ?? 0)) imageRefs.push({ sha256, mediaType: "image/png", bytes: bytes.length });
  }
  let firstId = "";
  for (let s = 0; s < spec.segments; s++) {
    const lines: string[] = [];
    const add = (m: Message) => {
      lines.push(JSON.stringify(m));
      ids.push(m.id);
      if (!firstId) firstId = m.id;
    };
    for (let t = 0; t < spec.turnsPerSegment; t++, k++) {
      if (k === 0) {
        const content: Message["content"] = [{ type: "text", text: `task for ${spec.id}: fix the build` }];
        for (const image of imageRefs) content.push({ type: "image", image });
        add({ id: `${spec.id}-m${k}a`, role: "user", content, ts: ts++ });
      } else {
        add({
          id: `${spec.id}-m${k}a`,
          role: "assistant",
          content: [{ type: "tool_use", id: `call${k}`, name: "Bash", input: { command: `make step${k}` } }],
          ts: ts++,
        });
        add({
          id: `${spec.id}-m${k}b`,
          role: "user",
          content: [{ type: "tool_result", tool_use_id: `call${k}`, content: output(k, spec.outputChars) }],
          ts: ts++,
        });
      }
    }
    if (spec.compactionIn?.includes(s)) {
      const lastId = ids[ids.length - 1]!;
      const compaction: CompactionInfo = {
        trigger: "auto",
        firstId,
        lastId,
        count: ids.length,
        tokensBefore: 170_000,
        tokensAfter: 20_000,
        keptIds: [],
      };
      add({
        id: `${spec.id}-c${s}`,
        role: "user",
        content: [{ type: "text", text: `summary up to ${lastId}: the task, files touched, next steps` }],
        ts: ts++,
        isSummary: true,
        compaction,
      });
    }
    writeFileSync(join(dir, segmentFile(s)), `${lines.join("\n")}\n`, { mode: 0o600 });
  }
  const last = join(dir, segmentFile(spec.segments - 1));
  if (spec.tornLast) appendFileSync(last, `{"id":"${spec.id}-torn","role":"user","content":[{"type":"te`);
  let bytes = 0;
  for (let s = 0; s < spec.segments; s++) bytes += statSync(join(dir, segmentFile(s))).size;
  const updated = Date.now() - (spec.updatedDaysAgo ?? 0) * DAY;
  if (!spec.noMeta) {
    const meta = {
      format: 1,
      id: spec.id,
      title: `task for ${spec.id}: fix the build`,
      cwd: spec.cwd,
      model: "claude-test",
      created: updated - 3_600_000,
      updated,
      messages: ids.length,
      bytes,
    };
    writeFileSync(join(dir, "meta.json"), `${JSON.stringify(meta, null, 2)}\n`, { mode: 0o600 });
  }
  for (let s = 0; s < spec.segments; s++) utimesSync(join(dir, segmentFile(s)), new Date(updated), new Date(updated));
  return { dir, ids, bytes };
}

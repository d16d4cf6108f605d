// Store benchmark: appends 1,000,000 messages of about 1 kB to a real session archive in a temp
// folder, flushing every 1,000 (a "turn"), and samples the heap throughout: it should stay flat,
// since the window is bounded and the archive streams to disk. Usage: bun bench/store.ts [count]

import "./temp-root.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoreConfig } from "../src/config/config.ts";
import type { Message } from "../src/protocol/message.ts";
import { openSession } from "../src/store/session.ts";

export interface StoreBenchResult {
  messages: number;
  seconds: number;
  messagesPerSecond: number;
  archiveMb: number;
  segments: number;
  heapMb: { first: number; peak: number; last: number };
  peakRssMb: number;
  readAllPerSecond: number;
}

const DEFAULTS: StoreConfig = {
  maxMessages: 400,
  maxBytes: 8 * 1024 * 1024,
  flushMs: 200,
  rotateBytes: 64 * 1024 * 1024,
  contextMaxImages: 5,
  contextMaxImageBytes: 16 << 20,
};
const TURN = 1_000;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function message(i: number, filler: string): Message {
  return {
    id: `m${i}`,
    role: i % 2 === 0 ? "user" : "assistant",
    ts: 1_700_000_000_000 + i,
    content: [{ type: "text", text: `${i} ${filler}` }],
  };
}

export async function main(count = 1_000_000): Promise<StoreBenchResult> {
  const home = mkdtempSync(join(tmpdir(), "synapse-bench-store-"));
  // ~1 kB serialized: the envelope is ~100 bytes.
  const filler = "lorem ipsum ".repeat(77);
  const samples: number[] = [];
  let peakRss = 0;
  const sample = () => {
    const usage = process.memoryUsage();
    samples.push(usage.heapUsed);
    peakRss = Math.max(peakRss, usage.rss);
  };
  try {
    const { store } = await openSession({
      home,
      cwd: home,
      model: "bench",
      config: DEFAULTS,
      onWarning: (m) => console.error(m),
    });
    const start = performance.now();
    for (let i = 0; i < count; i++) {
      store.append(message(i, filler));
      if ((i + 1) % TURN === 0) {
        await store.flush();
        if ((i + 1) % (TURN * 20) === 0) sample();
      }
    }
    await store.flush();
    const seconds = (performance.now() - start) / 1000;
    sample();
    const meta = store.meta();
    const segments = (await import("../src/store/archive.ts").then((a) => a.listSegments(store.dir))).length;

    const readStart = performance.now();
    let read = 0;
    for await (const _ of store.readAll()) {
      read++;
      if (read % 100_000 === 0) sample();
    }
    const readSeconds = (performance.now() - readStart) / 1000;
    if (read !== count) throw new Error(`read back ${read} of ${count} messages`);
    await store.close();

    const result: StoreBenchResult = {
      messages: count,
      seconds: Math.round(seconds * 100) / 100,
      messagesPerSecond: Math.round(count / seconds),
      archiveMb: mb(meta.bytes),
      segments,
      heapMb: { first: mb(samples[0]!), peak: mb(Math.max(...samples)), last: mb(samples.at(-1)!) },
      peakRssMb: mb(peakRss),
      readAllPerSecond: Math.round(read / readSeconds),
    };
    console.log(
      `store: appended ${count.toLocaleString()} messages (~1 kB) in ${result.seconds} s = ${result.messagesPerSecond.toLocaleString()} msg/s`,
    );
    console.log(
      `store: archive ${result.archiveMb} MB in ${segments} segment(s); readAll ${result.readAllPerSecond.toLocaleString()} msg/s`,
    );
    console.log(
      `store: heap first ${result.heapMb.first} MB, peak ${result.heapMb.peak} MB, last ${result.heapMb.last} MB (${samples.length} samples); peak RSS ${result.peakRssMb} MB`,
    );
    return result;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const count = process.argv[2] ? Number(process.argv[2]) : undefined;
  await main(count);
}

// `synapse compact --all` over about 1 GB of generated archives (sessions of 8 MB segments with a
// compaction record in the last one, so all but the last segment of each session are compressed):
// MB/s and the binary's peak RSS (aim: streaming, under 150 MB). Every session is checked to read
// back the same messages (a digest of each message, in order) before any figure is printed.
// Usage: bun bench/compact.ts [total MB, default 1024]

import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Archive } from "../src/store/archive.ts";
import { BINARY } from "../tests/support/binary.ts";
import { writeSession } from "../tests/support/session-fixture.ts";
import { measure } from "./measure.ts";

export interface CompactBenchResult {
  archiveMb: number;
  compressedInMb: number;
  afterMb: number;
  seconds: number;
  scannedMbPerSecond: number;
  compressedMbPerSecond: number;
  peakRssMb: number;
  sessions: number;
  segmentsCompressed: number;
}

const SEGMENT_TURNS = 480; // × ~16.5 kB per turn ≈ 8 MB per segment
const SEGMENTS = 4;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** One digest per session over every message it reads back, in order. */
async function digest(dir: string): Promise<string> {
  const archive = await Archive.open({ dir, rotateBytes: 1 << 30, onWarning: () => {} });
  const hash = createHash("sha256");
  for await (const { message } of archive.read()) hash.update(JSON.stringify(message)).update("\n");
  return hash.digest("hex");
}

function build(home: string, sessions: number): string[] {
  const ids: string[] = [];
  for (let i = 0; i < sessions; i++) {
    const id = `20260101-0000${String(i % 100).padStart(2, "0")}-${String(i).padStart(6, "0")}`;
    writeSession(home, {
      id,
      cwd: "/bench",
      segments: SEGMENTS,
      turnsPerSegment: SEGMENT_TURNS,
      outputChars: 16_000,
      compactionIn: [SEGMENTS - 1],
    });
    ids.push(id);
  }
  return ids;
}

async function run(home: string, ids: string[]) {
  const before = new Map<string, string>();
  for (const id of ids) before.set(id, await digest(join(home, "sessions", id)));
  const measured = await measure([BINARY, "compact", "--all", "-o", "json"], {
    env: { SYNAPSE_HOME: home, HOME: home },
  });
  if (measured.code !== 0) throw new Error(`synapse compact exited ${measured.code}: ${measured.stderr}`);
  const report = JSON.parse(measured.stdout);
  if (report.total.failed !== 0 || report.total.compacted !== ids.length)
    throw new Error(`unexpected report: ${JSON.stringify(report.total)}`);
  if (report.total.segments_compressed !== ids.length * (SEGMENTS - 1))
    throw new Error(`compressed ${report.total.segments_compressed} segments`);
  for (const id of ids) {
    if ((await digest(join(home, "sessions", id))) !== before.get(id))
      throw new Error(`session ${id} reads differently after compact`);
  }
  return { measured, report };
}

export async function main(totalMb = 1024): Promise<CompactBenchResult> {
  // First a small store: the result must be right before anything is timed.
  const small = mkdtempSync(join(tmpdir(), "synapse-bench-compact-check-"));
  try {
    await run(small, build(small, 2));
  } finally {
    rmSync(small, { recursive: true, force: true });
  }

  const home = mkdtempSync(join(tmpdir(), "synapse-bench-compact-"));
  try {
    const sessions = Math.max(1, Math.round(totalMb / (8 * SEGMENTS)));
    const ids = build(home, sessions);
    const { measured, report } = await run(home, ids);
    const t = report.total;
    const compressedIn = report.sessions.reduce((n: number, s: { segment_bytes: number }) => n + s.segment_bytes, 0);
    const seconds = measured.wallMs / 1000;
    const result: CompactBenchResult = {
      archiveMb: mb(t.bytes_before),
      compressedInMb: mb(compressedIn),
      afterMb: mb(t.bytes_after),
      seconds: Math.round(seconds * 100) / 100,
      scannedMbPerSecond: Math.round(mb(t.bytes_before) / seconds),
      compressedMbPerSecond: Math.round(mb(compressedIn) / seconds),
      peakRssMb: Math.round(measured.peakRssMb),
      sessions,
      segmentsCompressed: t.segments_compressed,
    };
    console.log(
      `compact --all: ${result.sessions} sessions, ${result.archiveMb} MB → ${result.afterMb} MB ` +
        `(${result.segmentsCompressed} segments, ${result.compressedInMb} MB compressed) in ${result.seconds} s: ` +
        `${result.scannedMbPerSecond} MB/s of archive, ${result.compressedMbPerSecond} MB/s compressed; peak RSS ${result.peakRssMb} MB`,
    );
    return result;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.main) await main(Number(process.argv[2] ?? 1024));

// `synapse compact`: picks the sessions, compacts them one by one (store/compact-session.ts), shows
// a progress bar on a terminal, and prints the report as a table or one JSON object.

import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "../config/config.ts";
import { EXIT, UsageError } from "../protocol/errors.ts";
import { inertJson, inertLine } from "../render/inert.ts";
import { printErr, printOut } from "./output/print.ts";
import { removeAbandonedSessions } from "../store/abandoned-sessions.ts";
import { compactSession, emptyTrash, type CompactReport } from "../store/compact-session.ts";
import { isSessionId, sessionsRoot } from "../store/paths.ts";
import { formatBytes, listSessions, sessionsFor } from "../store/sessions-list.ts";
import type { CompactSelection } from "./args.ts";
import { terminalFacts } from "./terminal.ts";
import { itemAt } from "../text/checked-index.ts";

const DAY_MS = 86_400_000;

export async function runCompactCommand(config: Config, selection: CompactSelection): Promise<number> {
  // Folders of runs killed before their first message were never sessions: no report lists them.
  if (!selection.dryRun) await removeAbandonedSessions(config.home);
  const ids = await selectSessions(config, selection);
  // stream-json asks for machine output too: the report is one object either way.
  const json = config.outputFormat !== "text";
  if (ids.length === 0) {
    const where = selection.all ? `in ${config.home}` : `for ${config.cwd} (--all: every session)`;
    if (json) await printOut(`${inertJson(jsonReport([], selection.dryRun))}\n`);
    else await printErr(`no sessions ${where}\n`);
    return EXIT.ok;
  }
  if (!selection.dryRun) await emptyTrash(config.home);
  const progress =
    ids.length > 1 && !config.quiet && terminalFacts().errIsTTY ? new ProgressBar(ids.length) : undefined;
  const reports: CompactReport[] = [];
  const now = Date.now();
  const olderThanMs = selection.olderThanDays === undefined ? undefined : selection.olderThanDays * DAY_MS;
  for (const id of ids) {
    progress?.show(reports.length, id);
    const report = await compactSession(id, { home: config.home, dryRun: selection.dryRun, olderThanMs, now });
    reports.push(report);
    if (report.status === "skipped" || report.status === "failed") {
      progress?.clear();
      const label = report.status === "skipped" ? "skipped" : "failed";
      await printErr(`synapse: ${label} session ${id}: ${inertLine(report.note ?? "")}\n`);
    }
  }
  progress?.clear();
  await printOut(
    json ? `${inertJson(jsonReport(reports, selection.dryRun))}\n` : formatReport(reports, selection.dryRun),
  );
  return reports.some((r) => r.status === "failed") ? EXIT.failed : EXIT.ok;
}

/**
 * --session (exact id or unique prefix), --all, or by default what `synapse sessions` lists: the
 * sessions of the current directory and those whose directory is unknown (damaged meta.json).
 */
async function selectSessions(config: Config, selection: CompactSelection): Promise<string[]> {
  const root = sessionsRoot(config.home);
  const names = (await readdir(root).catch(() => [] as string[])).filter(isSessionId).sort();
  if (selection.session !== undefined) {
    const id = selection.session;
    if (!isSessionId(id)) throw new UsageError(`not a session id: "${inertLine(id)}"`);
    if (names.includes(id)) return [id];
    const matches = names.filter((n) => n.startsWith(id));
    if (matches.length === 1) return matches;
    if (matches.length > 1) throw new UsageError(`session id "${id}" is ambiguous: ${matches.slice(0, 5).join(", ")}`);
    throw new UsageError(`no session ${id} in ${root}`);
  }
  if (selection.all) {
    const folders: string[] = [];
    for (const name of names)
      if ((await stat(join(root, name)).catch(() => undefined))?.isDirectory()) folders.push(name);
    return folders;
  }
  return sessionsFor(await listSessions(config.home), config.cwd)
    .map((s) => s.id)
    .sort();
}

interface Totals {
  sessions: number;
  compacted: number;
  unchanged: number;
  skipped: number;
  deleted: number;
  failed: number;
  bytesBefore: number;
  bytesAfter: number;
  segmentsCompressed: number;
  imagesRemoved: number;
  taskTranscripts: number;
  taskSegments: number;
}

function totalsOf(reports: readonly CompactReport[]): Totals {
  const t: Totals = {
    sessions: reports.length,
    compacted: 0,
    unchanged: 0,
    skipped: 0,
    deleted: 0,
    failed: 0,
    bytesBefore: 0,
    bytesAfter: 0,
    segmentsCompressed: 0,
    imagesRemoved: 0,
    taskTranscripts: 0,
    taskSegments: 0,
  };
  for (const r of reports) {
    t[r.status]++;
    t.bytesBefore += r.bytesBefore;
    t.bytesAfter += r.bytesAfter;
    t.segmentsCompressed += r.segmentsCompressed;
    t.imagesRemoved += r.imagesRemoved;
    t.taskTranscripts += r.taskTranscripts;
    t.taskSegments += r.taskSegments;
  }
  return t;
}

function jsonReport(reports: readonly CompactReport[], dryRun: boolean) {
  const t = totalsOf(reports);
  return {
    type: "compact",
    dry_run: dryRun,
    sessions: reports.map((r) => ({
      id: r.id,
      status: r.status,
      ...(r.note !== undefined ? { note: r.note } : {}),
      bytes_before: r.bytesBefore,
      bytes_after: r.bytesAfter,
      segments_compressed: r.segmentsCompressed,
      segment_bytes: r.segmentBytes,
      images_removed: r.imagesRemoved,
      image_bytes: r.imageBytes,
      checkpoints_removed: r.checkpointsRemoved,
      checkpoint_bytes: r.checkpointBytes,
      task_transcripts: r.taskTranscripts,
      task_segments_compressed: r.taskSegments,
    })),
    total: {
      sessions: t.sessions,
      compacted: t.compacted,
      unchanged: t.unchanged,
      skipped: t.skipped,
      deleted: t.deleted,
      failed: t.failed,
      bytes_before: t.bytesBefore,
      bytes_after: t.bytesAfter,
      segments_compressed: t.segmentsCompressed,
      images_removed: t.imagesRemoved,
      task_transcripts: t.taskTranscripts,
      task_segments_compressed: t.taskSegments,
      sessions_deleted: t.deleted,
    },
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** One line per session, then the total. */
export function formatReport(reports: readonly CompactReport[], dryRun: boolean): string {
  const would = dryRun ? "would " : "";
  const rows = reports.map((r) => {
    const sizes =
      r.status === "skipped"
        ? ""
        : dryRun && r.status !== "deleted"
          ? formatBytes(r.bytesBefore)
          : `${formatBytes(r.bytesBefore)} → ${formatBytes(r.bytesAfter)}`;
    let what: string;
    switch (r.status) {
      case "skipped":
      case "failed":
        what = inertLine(r.note ?? "");
        break;
      case "deleted":
        what = r.note ?? "";
        break;
      default: {
        const parts: string[] = [];
        const inTasks =
          r.taskSegments > 0 ? `; ${r.taskSegments} in ${plural(r.taskTranscripts, "sub-agent transcript")}` : "";
        if (r.segmentsCompressed > 0)
          parts.push(
            `${dryRun ? "would compress" : "compressed"} ${plural(r.segmentsCompressed, "segment")} ` +
              `(${formatBytes(r.segmentBytes)}${inTasks})`,
          );
        if (r.imagesRemoved > 0)
          parts.push(
            `${dryRun ? "would remove" : "removed"} ${plural(r.imagesRemoved, "image")} (${formatBytes(r.imageBytes)})`,
          );
        if (r.checkpointsRemoved > 0)
          parts.push(
            `${dryRun ? "would remove" : "removed"} ${plural(r.checkpointsRemoved, "file checkpoint")} ` +
              `(${formatBytes(r.checkpointBytes)})`,
          );
        what = parts.length > 0 ? parts.join(", ") : "nothing to do";
      }
    }
    const status =
      dryRun && (r.status === "compacted" || r.status === "deleted")
        ? `would ${r.status === "compacted" ? "compact" : "delete"}`
        : r.status;
    return [r.id, status, sizes, what];
  });
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => itemAt(row, i).length)));
  const lines = rows.map((row) =>
    row
      .map((cell, i) => (i < 3 ? cell.padEnd(itemAt(widths, i)) : cell))
      .join("  ")
      .trimEnd(),
  );
  const t = totalsOf(reports);
  const counts = [
    `${t.compacted} ${dryRun ? "to compact" : "compacted"}`,
    `${t.unchanged} unchanged`,
    `${t.skipped} skipped`,
    `${t.deleted} ${dryRun ? "to delete" : "deleted"}`,
    `${t.failed} failed`,
  ].join(", ");
  const sizes = dryRun
    ? `${formatBytes(t.bytesBefore)} now`
    : `${formatBytes(t.bytesBefore)} → ${formatBytes(t.bytesAfter)}`;
  const compressed = plural(t.segmentsCompressed, "segment");
  const images = plural(t.imagesRemoved, "image");
  const work = `${would}compress ${compressed}, ${would}remove ${images}`;
  const done = `${compressed} compressed, ${images} removed, ${plural(t.deleted, "session")} deleted`;
  lines.push(`total: ${plural(t.sessions, "session")} (${counts}); ${sizes}; ${dryRun ? work : done}`);
  return `${lines.join("\n")}\n`;
}

/** `[#####-----] 12/50 <id>` redrawn in place on stderr. */
class ProgressBar {
  private static readonly WIDTH = 24;
  constructor(private readonly total: number) {}

  show(done: number, id: string): void {
    const filled = Math.round((done / this.total) * ProgressBar.WIDTH);
    const bar = "#".repeat(filled) + "-".repeat(ProgressBar.WIDTH - filled);
    void printErr(`\r\x1b[2K[${bar}] ${done}/${this.total} ${id}`);
  }

  clear(): void {
    void printErr("\r\x1b[2K");
  }
}

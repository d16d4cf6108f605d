// The JavaScript search behind Grep when ripgrep cannot run here: the same walk, ignore rules and
// output, with a JavaScript regular expression and without `type` and `multiline`.

import { readFile, stat } from "node:fs/promises";
import { isBinary } from "./binary.ts";
import { clipAround, type GrepCollector } from "./grep-output.ts";
import { ToolError } from "./types.ts";
import { walkFiles } from "./walk.ts";
import { itemAt } from "../text/checked-index.ts";

/** Bigger files are skipped: they are logs or data, and would be read whole. */
export const MAX_GREP_FILE_BYTES = 10 * 1024 * 1024;
const PARALLEL_FILES = 16;

export interface FallbackSearch {
  pattern: string;
  ignoreCase: boolean;
  before: number;
  after: number;
  /** Decides by path whether a file is searched (the glob option). */
  wanted(path: string): boolean;
}

export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? "i" : "");
  } catch (err) {
    throw new ToolError(`Invalid regular expression ${JSON.stringify(pattern)}: ${(err as Error).message}`);
  }
}

interface FileHit {
  lineNumber: number;
  text: string;
  isMatch: boolean;
}

/** The lines of one file to report (matches and their context), or null when it is skipped. */
async function searchFile(
  path: string,
  regex: RegExp,
  whole: RegExp | null,
  search: FallbackSearch,
): Promise<FileHit[] | null> {
  const info = await stat(path).catch(() => null);
  // Reading a FIFO would wait forever; a device may never end.
  if (!info?.isFile() || info.size > MAX_GREP_FILE_BYTES) return null;
  const bytes = await readFile(path).catch(() => null);
  if (!bytes || isBinary(bytes)) return null;
  const text = new TextDecoder("utf-8").decode(bytes);
  if (whole && !whole.test(text)) return [];
  const all = text.split("\n");
  // A final newline ends the last line; it does not start an empty one.
  if (all[all.length - 1] === "") all.pop();
  const line = (i: number) => (itemAt(all, i).endsWith("\r") ? itemAt(all, i).slice(0, -1) : itemAt(all, i));
  const hits: FileHit[] = [];
  let shownUpTo = -1;
  for (let i = 0; i < all.length; i++) {
    if (!regex.test(line(i))) continue;
    for (let j = Math.max(shownUpTo + 1, i - search.before); j < i; j++)
      hits.push({ lineNumber: j + 1, text: clipAround(line(j), 0), isMatch: false });
    hits.push({ lineNumber: i + 1, text: clipAround(line(i), regex), isMatch: true });
    shownUpTo = i;
    for (let j = i + 1; j <= Math.min(all.length - 1, i + search.after); j++) {
      if (regex.test(line(j))) break;
      hits.push({ lineNumber: j + 1, text: clipAround(line(j), 0), isMatch: false });
      shownUpTo = j;
    }
  }
  return hits;
}

function report(collector: GrepCollector, path: string, hits: FileHit[]): boolean {
  if (hits.length === 0) return true;
  if (collector.mode === "files_with_matches") return collector.addFile(path);
  if (collector.mode === "count") return collector.addCount(path, hits.filter((h) => h.isMatch).length);
  return hits.every((h) => collector.addLine(path, h.lineNumber, h.text, h.isMatch));
}

/** Searches one file or a tree into `collector`; throws ToolError when interrupted. */
export async function fallbackGrep(
  target: string,
  isFile: boolean,
  cwd: string,
  signal: AbortSignal,
  search: FallbackSearch,
  collector: GrepCollector,
): Promise<void> {
  const regex = compilePattern(search.pattern, search.ignoreCase);
  // A whole-text test rules out most files cheaply. Lookbehind can see across a newline there and
  // miss a line-start match, so such patterns skip the shortcut.
  const whole = regex.source.includes("(?<") ? null : new RegExp(regex.source, `${regex.flags}m`);
  if (isFile) {
    const hits = await searchFile(target, regex, whole, search);
    if (hits) report(collector, target, hits);
    return;
  }
  let batch: string[] = [];
  let full = false;
  const flush = async () => {
    const results = await Promise.all(batch.map((f) => searchFile(f, regex, whole, search)));
    results.forEach((hits, i) => {
      if (!full && hits && !report(collector, itemAt(batch, i), hits)) full = true;
    });
    batch = [];
  };
  for await (const file of walkFiles(target, { signal, cwd })) {
    if (!search.wanted(file)) continue;
    batch.push(file);
    if (batch.length >= PARALLEL_FILES) await flush();
    if (full) break;
  }
  if (!full) await flush();
  if (signal.aborted) throw new ToolError("Grep interrupted");
}

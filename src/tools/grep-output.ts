// What Grep returns, whichever engine searched: results gathered up to the cap, files in path
// order, and a note when the cap cut the search short.

import { boundaryBefore } from "../text/code-point.ts";
import { entryOf, itemAt } from "../text/checked-index.ts";
import type { GrepResponse } from "../protocol/hook-events.ts";

export const MAX_GREP_LINE_CHARS = 300;

export type GrepMode = "content" | "files_with_matches" | "count";

/**
 * A long line is cut to a window around its match (at the UTF-16 index `at`, or where `regex`
 * first matches), so the match itself is always shown.
 */
export function clipAround(line: string, match: RegExp | number): string {
  if (line.length <= MAX_GREP_LINE_CHARS) return line;
  const at = typeof match === "number" ? Math.min(Math.max(0, match), line.length) : Math.max(0, line.search(match));
  // Both cuts move back off the middle of a surrogate pair: half an emoji is invalid text.
  const start = boundaryBefore(line, Math.max(0, Math.min(at - 100, line.length - MAX_GREP_LINE_CHARS)));
  const end = boundaryBefore(line, start + MAX_GREP_LINE_CHARS);
  return `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
}

/** Orders paths as a depth-first walk with sorted directories would: segment by segment. */
export function comparePaths(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return itemAt(x, i) < itemAt(y, i) ? -1 : 1;
  }
  return x.length - y.length;
}

interface FileEntry {
  lines: string[];
  lastLine: number;
  /** count mode: the file's matching lines. */
  count?: number;
}

export class GrepCollector {
  /** Set when something beyond the cap was found (and not kept). */
  truncated = false;
  private readonly files = new Map<string, FileEntry>();
  private entries = 0;

  constructor(
    readonly mode: GrepMode,
    readonly limit: number,
    readonly opts: { context: boolean },
  ) {}

  get size(): number {
    return this.entries;
  }

  private take(): boolean {
    if (this.entries >= this.limit) {
      this.truncated = true;
      return false;
    }
    this.entries++;
    return true;
  }

  /** files_with_matches: one matching file. Returns false once the cap is reached. */
  addFile(name: string): boolean {
    const path = printablePath(name);
    if (this.files.has(path)) return true;
    if (!this.take()) return false;
    this.files.set(path, { lines: [], lastLine: 0 });
    return true;
  }

  /** count: a file and its number of matching lines. */
  addCount(name: string, count: number): boolean {
    const path = printablePath(name);
    if (!this.take()) return false;
    this.files.set(path, { lines: [`${path}:${count}`], lastLine: 0, count });
    return true;
  }

  /** content: one line (already clipped), a match or a context line. */
  addLine(name: string, lineNumber: number, text: string, isMatch: boolean): boolean {
    const path = printablePath(name);
    let entry = this.files.get(path);
    if (entry && entry.lastLine >= lineNumber) return true;
    if (!this.take()) return false;
    if (!entry) {
      entry = { lines: [], lastLine: 0 };
      this.files.set(path, entry);
    }
    // Like rg: "--" between groups of lines that are not next to each other.
    if (this.opts.context && entry.lines.length && lineNumber > entry.lastLine + 1) entry.lines.push("--");
    const sep = isMatch ? ":" : "-";
    // Always numbered: the permission screen (hideProtectedLines) finds the path by the number.
    entry.lines.push(`${path}${sep}${lineNumber}${sep}${text}`);
    entry.lastLine = lineNumber;
    return true;
  }

  /** Files in path order, and the lines shown for them. */
  private shown(): { paths: string[]; lines: string[] } {
    const paths = [...this.files.keys()].sort(comparePaths);
    const out: string[] = [];
    for (const path of paths) {
      const entry = entryOf(this.files, path);
      if (this.mode === "files_with_matches") out.push(path);
      else {
        if (this.opts.context && out.length) out.push("--");
        out.push(...entry.lines);
      }
    }
    return { paths, lines: out };
  }

  /** Claude Code's Grep `tool_response` (PostToolUse hooks): what format() shows, as fields. */
  response(): GrepResponse {
    const { paths, lines } = this.shown();
    const facts: GrepResponse = { mode: this.mode, numFiles: paths.length, filenames: paths };
    if (this.mode !== "files_with_matches") {
      facts.content = lines.join("\n");
      facts.numLines = lines.length;
    }
    if (this.mode === "count") {
      facts.numMatches = [...this.files.values()].reduce((sum, e) => sum + (e.count ?? 0), 0);
    }
    if (this.truncated) facts.appliedLimit = this.limit;
    return facts;
  }

  format(): string {
    const { paths, lines: out } = this.shown();
    if (paths.length === 0) return "No matches found";
    if (this.truncated) {
      const unit = this.mode === "content" ? (this.opts.context ? "lines" : "matches") : "files";
      out.push(
        `(truncated: showing the first ${this.limit} ${unit}; ` +
          "narrow the pattern, path, glob or type, or set head_limit)",
      );
    }
    return out.join("\n");
  }
}

/**
 * A path as one output line shows it: control characters (a newline in a file's name) become `?`,
 * as `ls` shows them. Otherwise `docs/a<newline>b.md:1:text` would print as two lines, and the
 * permission screen, which reads each line's path, would judge the second as `b.md`, outside a
 * `Read(docs/**)` deny rule.
 */
export function printablePath(path: string): string {
  return path.replace(/[\u0000-\u001f\u007f]/g, "?");
}

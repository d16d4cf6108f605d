// The Grep tool: lines matching a JavaScript regular expression, as `path:line:text`, across a
// tree (skipping `.git`, gitignored and binary files) or in one file. Expected failures throw
// ToolError.

import { stat } from "node:fs/promises";
import { basename } from "node:path";
import description from "./grep.md" with { type: "text" };
import { boundaryBefore } from "../text/code-point.ts";
import { isBinary } from "./binary.ts";
import { notRegularMessage } from "./files.ts";
import { resolveToolPath } from "./paths.ts";
import { ToolError, type JsonSchema, type Tool } from "./types.ts";
import { walkFiles } from "./walk.ts";

export const MAX_GREP_MATCHES = 200;
export const MAX_GREP_LINE_CHARS = 300;
/** Bigger files are skipped (and counted): they are logs or data, and would be read whole. */
export const MAX_GREP_FILE_BYTES = 10 * 1024 * 1024;
const PARALLEL_FILES = 16;

export interface GrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  ignore_case?: boolean;
}

const inputSchema: JsonSchema = {
  type: "object",
  properties: {
    pattern: { type: "string", description: "JavaScript regular expression to search for" },
    path: { type: "string", description: "File or directory to search (default: the working directory)" },
    glob: { type: "string", description: 'Only search files matching this glob, e.g. "*.ts" or "src/**/*.{js,jsx}"' },
    ignore_case: { type: "boolean", description: "Match case-insensitively" },
  },
  required: ["pattern"],
  additionalProperties: false,
};

export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? "i" : "");
  } catch (err) {
    throw new ToolError(`Invalid regular expression ${JSON.stringify(pattern)}: ${(err as Error).message}`);
  }
}

/** A long line is cut to a window around its match, so the match itself is always shown. */
export function clipAround(line: string, regex: RegExp): string {
  if (line.length <= MAX_GREP_LINE_CHARS) return line;
  const at = Math.max(0, line.search(regex));
  // Both cuts move back off the middle of a surrogate pair: half an emoji is invalid text.
  const start = boundaryBefore(line, Math.max(0, Math.min(at - 100, line.length - MAX_GREP_LINE_CHARS)));
  const end = boundaryBefore(line, start + MAX_GREP_LINE_CHARS);
  return `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
}

type FileResult = { lines: string[] } | { skipped: "binary" | "large" };

interface Search {
  regex: RegExp;
  /** The same pattern in multiline mode, tried on a whole file first; null when unsafe. */
  whole: RegExp | null;
}

/**
 * A whole-text test rules out most files cheaply. Lookbehind can see across a newline there and
 * miss a line-start match, so such patterns skip the shortcut.
 */
function makeSearch(regex: RegExp): Search {
  return { regex, whole: regex.source.includes("(?<") ? null : new RegExp(regex.source, regex.flags + "m") };
}

async function searchFile(path: string, { regex, whole }: Search, max: number): Promise<FileResult> {
  const info = await stat(path).catch(() => null);
  // Reading a FIFO would wait forever; a device may never end.
  if (!info?.isFile()) return { lines: [] };
  if (info.size > MAX_GREP_FILE_BYTES) return { skipped: "large" };
  const bytes = await Bun.file(path).bytes().catch(() => null);
  if (!bytes) return { lines: [] };
  if (isBinary(bytes)) return { skipped: "binary" };
  const text = new TextDecoder("utf-8").decode(bytes);
  if (whole && !whole.test(text)) return { lines: [] };
  const lines: string[] = [];
  const all = text.split("\n");
  // A final newline ends the last line; it does not start an empty one.
  if (all[all.length - 1] === "") all.pop();
  for (let i = 0; i < all.length && lines.length < max; i++) {
    const line = all[i]!.endsWith("\r") ? all[i]!.slice(0, -1) : all[i]!;
    if (regex.test(line)) lines.push(`${path}:${i + 1}:${clipAround(line, regex)}`);
  }
  return { lines };
}

/** Filters by name when the glob has no `/` (like ripgrep's -g), else by path below the root. */
function fileFilter(glob: string | undefined, root: string): (path: string) => boolean {
  if (!glob) return () => true;
  const matcher = new Bun.Glob(glob.replace(/^(\.\/)+/, ""));
  if (!glob.includes("/")) return (path) => matcher.match(basename(path));
  return (path) => matcher.match(path.slice(root.length + 1));
}

export const grepTool: Tool<GrepInput> = {
  name: "Grep",
  description,
  inputSchema,
  readOnly: true,
  async execute(input, ctx) {
    if (input.pattern === "") throw new ToolError('"pattern" is empty; give a regular expression to search for');
    const search = makeSearch(compilePattern(input.pattern, input.ignore_case === true));
    const target = resolveToolPath(ctx.cwd, input.path ?? ".");
    const info = await stat(target).catch(() => null);
    if (!info) throw new ToolError(`Path not found: ${target}`);
    if (!info.isFile() && !info.isDirectory()) throw new ToolError(notRegularMessage("search", target, info));

    if (info.isFile()) {
      const result = await searchFile(target, search, MAX_GREP_MATCHES + 1);
      if ("skipped" in result) {
        throw new ToolError(`Cannot search ${target}: ${result.skipped === "binary" ? "binary file" : `larger than ${MAX_GREP_FILE_BYTES / 1024 / 1024} MB`}`);
      }
      return { content: format(result.lines, 0) };
    }

    const wanted = fileFilter(input.glob, target);
    const matches: string[] = [];
    let skippedLarge = 0;
    let batch: string[] = [];
    const flush = async () => {
      const results = await Promise.all(batch.map((f) => searchFile(f, search, MAX_GREP_MATCHES + 1 - matches.length)));
      batch = [];
      for (const r of results) {
        if ("skipped" in r) skippedLarge += r.skipped === "large" ? 1 : 0;
        else matches.push(...r.lines);
      }
    };
    for await (const file of walkFiles(target, { signal: ctx.signal, cwd: ctx.cwd })) {
      if (!wanted(file)) continue;
      batch.push(file);
      if (batch.length >= PARALLEL_FILES) await flush();
      if (matches.length > MAX_GREP_MATCHES) break;
    }
    if (matches.length <= MAX_GREP_MATCHES) await flush();
    if (ctx.signal.aborted) throw new ToolError("Grep interrupted");
    return { content: format(matches, skippedLarge) };
  },
};

function format(matches: string[], skippedLarge: number): string {
  const notes: string[] = [];
  if (matches.length > MAX_GREP_MATCHES) {
    notes.push(`(truncated: showing the first ${MAX_GREP_MATCHES} matches; narrow the pattern, path or glob)`);
  }
  if (skippedLarge > 0) {
    notes.push(`(skipped ${skippedLarge} file${skippedLarge === 1 ? "" : "s"} over ${MAX_GREP_FILE_BYTES / 1024 / 1024} MB)`);
  }
  const body = matches.length === 0 ? "No matches found" : matches.slice(0, MAX_GREP_MATCHES).join("\n");
  return [body, ...notes].join("\n");
}

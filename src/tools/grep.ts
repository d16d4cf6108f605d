// The Grep tool: ripgrep's search with the options models know from Claude Code's Grep (output
// modes, context lines, file types, multiline, head_limit), streamed from rg and cut at the cap;
// the JavaScript search when rg cannot run. Expected failures throw ToolError.

import { open, stat } from "node:fs/promises";
import { basename } from "node:path";
import * as z from "zod/mini";
import description from "./grep.md" with { type: "text" };
import { isBinary, SNIFF_BYTES } from "./binary.ts";
import { notRegularMessage, openPinned, openPinnedFolder } from "./files.ts";
import { fallbackGrep, MAX_GREP_FILE_BYTES } from "./grep-fallback.ts";
import { clipAround, GrepCollector, type GrepMode, MAX_GREP_LINE_CHARS } from "./grep-output.ts";
import { resolveToolPath } from "./paths.ts";
import { runRipgrep } from "./ripgrep-process.ts";
import { engineFor } from "./search-engine.ts";
import { about, defineTool, toolInput, type ToolInputOf } from "./input-schema.ts";
import { ToolError, type ToolContext } from "./types.ts";
import { runtime } from "../runtime/runtime.ts";
import { itemAt } from "../text/checked-index.ts";

export { clipAround, MAX_GREP_FILE_BYTES, MAX_GREP_LINE_CHARS };
/** Entries returned when head_limit is not given (lines for content, files otherwise). */
export const MAX_GREP_MATCHES = 200;
export const MAX_HEAD_LIMIT = 1000;
const MAX_CONTEXT_LINES = 50;

const lines = (text: string) => z.optional(z.int().check(about(text)));
// Built on the first call's check, not at load (defineTool).
const input = () =>
  toolInput({
    pattern: z.string().check(about("Regular expression to search for (Rust regex syntax, as in ripgrep)")),
    path: z.optional(z.string().check(about("File or directory to search (default: the working directory)"))),
    glob: z.optional(
      z.string().check(about('Only search files matching this glob, e.g. "*.ts" or "src/**/*.{js,jsx}"')),
    ),
    type: z.optional(z.string().check(about('Only search files of this ripgrep type, e.g. "ts", "py", "rust", "go"'))),
    output_mode: z.optional(
      z
        .enum(["files_with_matches", "content", "count"] satisfies GrepMode[])
        .check(
          about(
            "files_with_matches (default): matching file paths; content: matching lines; " +
              "count: matching lines per file",
          ),
        ),
    ),
    "-A": lines("Lines to show after each match (content mode)"),
    "-B": lines("Lines to show before each match (content mode)"),
    "-C": lines("Lines to show before and after each match (content mode)"),
    "-i": z.optional(z.boolean().check(about("Match case-insensitively (same as ignore_case)"))),
    ignore_case: z.optional(z.boolean().check(about("Match case-insensitively"))),
    multiline: z.optional(z.boolean().check(about("Let the pattern span lines; . also matches newlines"))),
    head_limit: lines(
      `Return at most this many lines (content) or files (default ${MAX_GREP_MATCHES}, at most ${MAX_HEAD_LIMIT})`,
    ),
  });
type GrepInput = ToolInputOf<ReturnType<typeof input>>;

interface Query {
  pattern: string;
  target: string;
  isFile: boolean;
  mode: GrepMode;
  ignoreCase: boolean;
  before: number;
  after: number;
  multiline: boolean;
  limit: number;
  glob?: string;
  type?: string;
}

function count(
  input: GrepInput,
  name: "-A" | "-B" | "-C" | "head_limit",
  min: number,
  max: number,
): number | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (value < min || value > max) throw new ToolError(`"${name}" must be between ${min} and ${max} (got ${value})`);
  return value;
}

/** Filters by name when the glob has no `/` (like ripgrep's -g), else by path below the root. */
export function fileFilter(glob: string | undefined, root: string): (path: string) => boolean {
  if (!glob) return () => true;
  const match = runtime.globMatcher(glob.replace(/^(\.\/)+/, ""));
  if (!glob.includes("/")) return (path) => match(basename(path));
  return (path) => path.length > root.length && match(path.slice(root.length + 1));
}

const decoder = new TextDecoder("utf-8");

/** rg's JSON carries text as `text`, or as base64 `bytes` when it is not valid UTF-8 (shown as U+FFFD). */
function jsonText(data: { text?: string; bytes?: string }): string {
  if (data.text !== undefined) return data.text;
  return decoder.decode(Buffer.from(data.bytes ?? "", "base64"));
}

/** The UTF-16 index of a byte offset into `text`. */
function utf16Index(text: string, byteOffset: number): number {
  return decoder.decode(Buffer.from(text, "utf8").subarray(0, byteOffset)).length;
}

function ripgrepArgs(q: Query): string[] {
  // --hidden: hidden files are searched (only .git is skipped); --no-require-git: .gitignore
  // applies outside a repository too; --engine auto: PCRE2 for look-around and backreferences.
  const args = [
    "--no-config",
    "--hidden",
    "--no-require-git",
    "--glob",
    "!.git",
    "--max-filesize",
    "10M",
    "--engine",
    "auto",
    "--crlf",
  ];
  if (q.ignoreCase) args.push("--ignore-case");
  if (q.multiline) args.push("--multiline", "--multiline-dotall");
  if (q.type) args.push("--type", q.type);
  // A glob on file names becomes a file type: unlike --glob, a type never overrides .gitignore.
  // The exact glob is still checked on every path rg reports (fileFilter).
  const last = q.glob
    ?.replace(/^(\.\/)+/, "")
    .split("/")
    .at(-1);
  if (!q.type && last && !last.includes("**")) args.push("--type-add", `synapseglob:${last}`, "--type", "synapseglob");
  if (q.mode === "files_with_matches") args.push("--files-with-matches", "--null");
  else if (q.mode === "count") args.push("--count", "--null", "--with-filename");
  else args.push("--json", "--before-context", String(q.before), "--after-context", String(q.after));
  args.push("--regexp", q.pattern, "--", q.target);
  return args;
}

interface JsonLine {
  type: string;
  data: {
    path?: { text?: string; bytes?: string };
    lines?: { text?: string; bytes?: string };
    line_number?: number;
    submatches?: Array<{ start: number }>;
  };
}

function addJsonRecord(
  record: Buffer,
  wanted: (path: string) => boolean,
  collector: GrepCollector,
  shown: (path: string) => string,
): boolean {
  const event = JSON.parse(record.toString("utf8")) as JsonLine;
  if (event.type !== "match" && event.type !== "context") return true;
  const path = shown(jsonText(event.data.path ?? {}));
  if (!wanted(path)) return true;
  // A multiline match spans lines: each is shown with its own number.
  const lines = jsonText(event.data.lines ?? {})
    .replace(/\r?\n$/, "")
    .split("\n");
  const first = event.data.line_number ?? 0;
  const start = event.data.submatches?.[0]?.start;
  for (let i = 0; i < lines.length; i++) {
    const text = itemAt(lines, i).endsWith("\r") ? itemAt(lines, i).slice(0, -1) : itemAt(lines, i);
    const at = i === 0 && start !== undefined && text.length > MAX_GREP_LINE_CHARS ? utf16Index(text, start) : 0;
    if (!collector.addLine(path, first + i, clipAround(text, at), event.type === "match")) return false;
  }
  return true;
}

/** How rg names a file handed to it open (ripgrep-process.ts `pinnedFd`). */
const PINNED_FILE = "/proc/self/fd/3";

/**
 * The target already opened and judged (files.ts `openPinned`, `openPinnedFolder`), so a link
 * swapped in after the permission check is not followed: a file is handed to rg open; a folder is
 * rg's working directory (`/proc/self/fd/N`, entered before rg starts), searched as `.`, so its
 * parents' .gitignore files still apply. Either way the target's own name is shown.
 */
type Pin = { file: number } | { folder: string };

function pinnedSearch(q: Query, pin: Pin | undefined): { target: string; shown: (path: string) => string } {
  if (!pin) return { target: q.target, shown: (p) => p };
  if ("file" in pin) return { target: PINNED_FILE, shown: (p) => (p === PINNED_FILE ? q.target : p) };
  return { target: ".", shown: (p) => (p === "." ? q.target : p.startsWith("./") ? q.target + p.slice(1) : p) };
}

async function ripgrepSearch(
  rgPath: string,
  q: Query,
  ctx: ToolContext,
  collector: GrepCollector,
  pin?: Pin,
): Promise<void> {
  const wanted = fileFilter(q.glob, q.target);
  const { target, shown } = pinnedSearch(q, pin);
  let partial = Buffer.alloc(0);
  const outcome = await runRipgrep(rgPath, ripgrepArgs({ ...q, target }), {
    cwd: pin && "folder" in pin ? pin.folder : ctx.cwd,
    signal: ctx.signal,
    timeoutMs: ctx.limits.shell.commandTimeoutMs,
    env: ctx.limits.shell.env,
    separator: q.mode === "files_with_matches" ? 0 : 0x0a,
    ...(pin && "file" in pin ? { pinnedFd: pin.file } : {}),
    onRecord(record) {
      if (q.mode === "content") return addJsonRecord(record, wanted, collector, shown);
      if (q.mode === "files_with_matches") {
        const path = shown(decoder.decode(record));
        return !wanted(path) || collector.addFile(path);
      }
      // `path NUL count`, one a line; a path with a newline in it spans records: joined again.
      const whole = Buffer.concat([partial, record]);
      const nul = whole.lastIndexOf(0);
      partial = nul < 0 ? Buffer.concat([whole, Buffer.from("\n")]) : Buffer.alloc(0);
      if (nul < 0) return true;
      const path = shown(decoder.decode(whole.subarray(0, nul)));
      return !wanted(path) || collector.addCount(path, Number(whole.subarray(nul + 1).toString()));
    },
  });
  if (outcome.stopped === "aborted") throw new ToolError("Grep interrupted");
  if (outcome.stopped === "timeout") {
    throw new ToolError(
      `Grep stopped after ${ctx.limits.shell.commandTimeoutMs / 1000} s (the command timeout); ` +
        "narrow the path, glob or type",
    );
  }
  // Exit 2 with results means some files could not be read; without any, the search itself failed.
  if (outcome.code === 2 && collector.size === 0) {
    const message = outcome.stderr.replace(/^rg: /, "");
    if (/regex parse error|error parsing|PCRE2/i.test(message)) {
      throw new ToolError(`Invalid regular expression ${JSON.stringify(q.pattern)}: ${message}`);
    }
    throw new ToolError(`Search failed: ${message || "ripgrep exited with status 2"}`);
  }
}

async function checkSingleFile(target: string, size: number): Promise<void> {
  if (size > MAX_GREP_FILE_BYTES)
    throw new ToolError(`Cannot search ${target}: larger than ${MAX_GREP_FILE_BYTES / 1024 / 1024} MB`);
  const handle = await open(target, "r");
  try {
    const head = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    if (isBinary(head.subarray(0, bytesRead))) throw new ToolError(`Cannot search ${target}: binary file`);
  } finally {
    await handle.close();
  }
}

export const grepTool = defineTool({
  name: "Grep",
  description,
  input,
  readOnly: true,
  async execute(input, ctx) {
    if (input.pattern === "") throw new ToolError('"pattern" is empty; give a regular expression to search for');
    const context = count(input, "-C", 0, MAX_CONTEXT_LINES) ?? 0;
    const mode = input.output_mode ?? "files_with_matches";
    const target = resolveToolPath(ctx.cwd, input.path ?? ".");
    const q: Query = {
      pattern: input.pattern,
      target,
      isFile: false,
      mode,
      ignoreCase: input.ignore_case === true || input["-i"] === true,
      before: mode === "content" ? (count(input, "-B", 0, MAX_CONTEXT_LINES) ?? context) : 0,
      after: mode === "content" ? (count(input, "-A", 0, MAX_CONTEXT_LINES) ?? context) : 0,
      multiline: input.multiline === true,
      limit: count(input, "head_limit", 1, MAX_HEAD_LIMIT) ?? MAX_GREP_MATCHES,
      glob: input.glob || undefined,
      type: input.type || undefined,
    };
    const info = await stat(target).catch(() => null);
    if (!info) throw new ToolError(`Path not found: ${target}`);
    if (!info.isFile() && !info.isDirectory()) throw new ToolError(notRegularMessage("search", target, info));
    if (info.isFile()) {
      q.isFile = true;
      // A file named outright is searched whatever the glob says (as before).
      q.glob = undefined;
      await checkSingleFile(target, info.size);
    }
    if (ctx.signal.aborted) throw new ToolError("Grep interrupted");

    const collector = new GrepCollector(mode, q.limit, { context: q.before + q.after > 0 });
    const engine = await engineFor(ctx);
    if (engine.kind === "ripgrep") {
      // The target is opened here and judged by what opened (a link swapped in after the check is
      // refused); rg searches what is open. /proc missing: searched by name, as before.
      const pinned = q.isFile
        ? await openPinned(target, ctx, "Grep", "search")
        : await openPinnedFolder(target, ctx, "Grep");
      const pin: Pin | undefined =
        pinned.through === target ? undefined : q.isFile ? { file: pinned.handle.fd } : { folder: pinned.through };
      try {
        await ripgrepSearch(engine.path, q, ctx, collector, pin);
      } finally {
        await pinned.handle.close();
      }
    } else {
      if (q.type || q.multiline) {
        throw new ToolError(
          `"${q.type ? "type" : "multiline"}" needs ripgrep, which cannot run here (${engine.reason}); ` +
            "use glob or a one-line pattern",
        );
      }
      const search = {
        pattern: q.pattern,
        ignoreCase: q.ignoreCase,
        before: q.before,
        after: q.after,
        wanted: fileFilter(q.glob, target),
      };
      await fallbackGrep(target, q.isFile, ctx.cwd, ctx.signal, search, collector);
    }
    return { content: collector.format(), hookResponse: collector.response() };
  },
});

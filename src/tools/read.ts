// The Read tool: a text file as numbered lines (a window of it for long files), or an image the
// model can look at. Expected failures throw ToolError.

import { createReadStream } from "node:fs";
import { open, readdir, readFile, stat } from "node:fs/promises";
import * as z from "zod/mini";
import description from "./read.md" with { type: "text" };
import { codePointCount, codePointIndex } from "../text/code-point.ts";
import { imageMediaType, isBinary, SNIFF_BYTES } from "./binary.ts";
import { openPinned, requireRegular } from "./files.ts";
import { notFoundMessage, resolveToolPath } from "./paths.ts";
import { about, defineTool, toolInput } from "./input-schema.ts";
import { ToolError, type ToolContext, type ToolResult } from "./types.ts";

export const DEFAULT_READ_LIMIT = 2000;
/** Characters (code points), so the cut never halves an emoji and the count is the one people see. */
export const MAX_LINE_CHARS = 2000;
/** Keeps one Read from flooding the context even when every line is long (UTF-16 units). */
export const MAX_READ_OUTPUT_CHARS = 100_000;
const DIR_LISTING_MAX = 50;

// Built on the first call's check, not at load (defineTool).
const input = () =>
  toolInput({
    path: z.string().check(about("File to read, absolute or relative to the working directory")),
    offset: z.optional(z.int().check(about("1-based line number to start at (default 1)"))),
    limit: z.optional(z.int().check(about(`How many lines to read (default ${DEFAULT_READ_LIMIT})`))),
  });

/** `cat -n` style: the number right-aligned in six columns, a tab, the line. */
export function numberLine(n: number, text: string): string {
  return `${String(n).padStart(6)}\t${text}`;
}

/** `dropped`: characters of the line already let go of while it streamed in. */
function clipLine(line: string, dropped: number): string {
  // A line no longer than the limit in UTF-16 units cannot be longer in characters.
  if (dropped === 0 && line.length <= MAX_LINE_CHARS) return line;
  const chars = codePointCount(line) + dropped;
  if (chars <= MAX_LINE_CHARS) return line;
  return `${line.slice(0, codePointIndex(line, MAX_LINE_CHARS))}… [line truncated: ${chars} chars]`;
}

interface Window {
  lines: string[];
  /** Line number of the first collected line. */
  first: number;
  total: number;
}

/**
 * An unfinished line longer than this keeps only its first MAX_LINE_CHARS + 1 characters (a
 * minified file can be one line); the rest is only counted.
 */
const PENDING_MAX = 1_000_000;

/**
 * Streams the file so a huge log costs memory only for the window asked for; lines after the
 * window are only counted. Invalid UTF-8 decodes to U+FFFD instead of throwing.
 */
async function readWindow(
  path: string,
  offset: number,
  limit: number,
  signal: AbortSignal,
  text?: string,
): Promise<Window> {
  const decoder = new TextDecoder("utf-8");
  const lines: string[] = [];
  let chars = 0;
  let full = false;
  let total = 0;
  let pending = "";
  let dropped = 0;
  const take = (raw: string) => {
    total++;
    const before = dropped;
    dropped = 0;
    if (full || total < offset) return;
    const line = clipLine(raw.endsWith("\r") ? raw.slice(0, -1) : raw, before);
    if (lines.length >= limit || (lines.length > 0 && chars + line.length > MAX_READ_OUTPUT_CHARS)) {
      full = true;
      return;
    }
    lines.push(line);
    chars += line.length + 8;
  };
  const consume = (text: string) => {
    let nl = text.indexOf("\n");
    if (nl < 0) {
      pending += text;
    } else {
      take(pending + text.slice(0, nl));
      let start = nl + 1;
      for (nl = text.indexOf("\n", start); nl >= 0; nl = text.indexOf("\n", start)) {
        take(text.slice(start, nl));
        start = nl + 1;
      }
      pending = text.slice(start);
    }
    if (pending.length > PENDING_MAX) {
      const keep = codePointIndex(pending, MAX_LINE_CHARS + 1);
      dropped += codePointCount(pending, keep);
      pending = pending.slice(0, keep);
    }
  };
  // The editor's buffer when there is one (editor-files.ts), else the file, streamed.
  const chunks =
    text !== undefined
      ? [new TextEncoder().encode(text)]
      : (createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>);
  for await (const chunk of chunks) {
    if (signal.aborted) throw new ToolError("Read interrupted");
    consume(decoder.decode(chunk, { stream: true }));
  }
  consume(decoder.decode());
  if (pending !== "") take(pending);
  return { lines, first: offset, total };
}

/** Up to the first `n` bytes (fewer when the file is shorter). */
async function readHead(path: string, n: number): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    const buffer = new Uint8Array(n);
    const { bytesRead } = await handle.read(buffer, 0, n, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function describeDirectory(path: string): Promise<string> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  const names = entries
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort()
    .slice(0, DIR_LISTING_MAX);
  const more = entries.length > DIR_LISTING_MAX ? `\n… and ${entries.length - DIR_LISTING_MAX} more` : "";
  const listing = names.length > 0 ? `\nIt contains:\n${names.join("\n")}${more}` : "\nIt is empty.";
  return `${path} is a directory, not a file. Read one of its files, or use Glob to find files in it.${listing}`;
}

async function readImage(
  path: string,
  through: string,
  mediaType: string,
  size: number,
  ctx: ToolContext,
): Promise<ToolResult> {
  const saveImage = ctx.services.saveImage;
  if (!saveImage)
    throw new ToolError(
      `Cannot read ${path}: image file (${mediaType}, ${size} bytes), and images cannot be shown here`,
    );
  // A bigger image could never be sent: each request carries at most this many image bytes.
  const budget = ctx.limits.maxImageBytes;
  const tooBig = (bytes: number) =>
    new ToolError(
      `Cannot read ${path}: the image is ${bytes} bytes, ` +
        `over the ${formatBytes(budget)} of images one request may carry ` +
        "(SYNAPSE_CONTEXT_MAX_IMAGE_BYTES), so the model could never see it. Make a smaller copy first " +
        "(e.g. `convert in.png -resize 50% out.png`) and read that.",
    );
  if (size > budget) throw tooBig(size);
  const bytes = await readFile(through);
  if (bytes.length > budget) throw tooBig(bytes.length);
  const image = await saveImage(bytes, mediaType);
  return {
    content: [
      { type: "text", text: `Image: ${path} (${mediaType}, ${bytes.length} bytes)` },
      { type: "image", image },
    ],
    hookResponse: { type: "image", file: { filePath: path, type: mediaType, originalSize: bytes.length } },
  };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Number((bytes / 1024 / 1024).toFixed(1))} MiB` : `${bytes} bytes`;
}

function checkRange(name: string, value: number | undefined, min: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (value < min) throw new ToolError(`"${name}" must be at least ${min} (got ${value})`);
  return value;
}

export const readTool = defineTool({
  name: "Read",
  description,
  input,
  readOnly: true,
  async execute(input, ctx) {
    // offset 0 is read as "from the start", as the models that send it mean.
    const offset = Math.max(1, checkRange("offset", input.offset, 0) ?? 1);
    const limit = checkRange("limit", input.limit, 1) ?? DEFAULT_READ_LIMIT;
    const path = resolveToolPath(ctx.cwd, input.path);

    const info = await stat(path).catch(() => null);
    if (!info) throw new ToolError(notFoundMessage(path));
    if (info.isDirectory()) throw new ToolError(await describeDirectory(path));
    requireRegular("read", path, info);

    // Everything below reads the file opened here, whatever happens to its name meanwhile.
    const pinned = await openPinned(path, ctx, "Read");
    try {
      const { size } = await pinned.handle.stat();
      return await readOpened(path, pinned.through, size, offset, limit, ctx);
    } finally {
      await pinned.handle.close();
    }
  },
});

/** Reads `path` (as the call named it) through `through`, the file already opened and judged. */
async function readOpened(
  path: string,
  through: string,
  size: number,
  offset: number,
  limit: number,
  ctx: ToolContext,
): Promise<ToolResult> {
  // Files in /proc and /sys say they are empty (size 0) yet have content: read regardless.
  const head = await readHead(through, SNIFF_BYTES);
  if (head.length === 0) return { content: `(${path} is empty)`, hookResponse: textResponse(path, [], 1, 0) };
  const mediaType = imageMediaType(head);
  if (mediaType) return readImage(path, through, mediaType, Math.max(size, head.length), ctx);
  if (isBinary(head)) throw new ToolError(`Cannot read ${path}: binary file${size > 0 ? ` (${size} bytes)` : ""}`);

  const fromEditor = ctx.services.editorFiles?.read;
  const editorText = fromEditor ? await fromEditor(path) : undefined;
  const { lines, first, total } = await readWindow(through, offset, limit, ctx.signal, editorText);
  if (lines.length === 0) {
    throw new ToolError(
      `offset ${offset} is past the end of ${path}, which has ${total} line${total === 1 ? "" : "s"}`,
    );
  }
  const body = lines.map((line, i) => numberLine(first + i, line)).join("\n");
  const last = first + lines.length - 1;
  const remaining = total - last;
  const more = `${remaining} more line${remaining === 1 ? "" : "s"}`;
  const note = remaining > 0 ? `\n… ${more}; use offset=${last + 1} to read on` : "";
  return { content: body + note, hookResponse: textResponse(path, lines, first, total) };
}

/** The window as PostToolUse hooks get it: the lines read, without their numbers. */
function textResponse(path: string, lines: string[], first: number, total: number): ToolResult["hookResponse"] {
  const file = { filePath: path, content: lines.join("\n"), numLines: lines.length, startLine: first };
  return { type: "text", file: { ...file, totalLines: total } };
}

// The Edit tool: replaces an exact piece of a file, refusing when the piece is missing or
// ambiguous, and keeping the file's CRLF line endings. Expected failures throw ToolError.

import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import * as z from "zod/mini";
import description from "./edit.md" with { type: "text" };
import { isBinary } from "./binary.ts";
import { fileInTheWay, makeFoldersFor, openPinned, requireRegular } from "./files.ts";
import { readTextThrough, writeTextThrough } from "./editor-files.ts";
import { notFoundMessage, resolveToolPath } from "./paths.ts";
import { about, defineTool, toolInput } from "./input-schema.ts";
import { changeDisplay } from "./line-diff.ts";
import { editResponse } from "./response-facts.ts";
import { ToolError, type ToolContext } from "./types.ts";

// Built on the first call's check, not at load (defineTool).
const input = () =>
  toolInput({
    path: z.string().check(about("File to edit, absolute or relative to the working directory")),
    old_string: z.string().check(about("Exact text to replace (empty to create a new file)")),
    new_string: z.string().check(about("Text to put in its place")),
    replace_all: z.optional(z.boolean().check(about("Replace every occurrence instead of requiring exactly one"))),
  });

const SNIPPET_CONTEXT = 3;
const SNIPPET_MAX_LINES = 30;

export interface EditOutcome {
  content: string;
  count: number;
  /** Where the first replacement starts in the new content, and the text put there. */
  at: number;
  inserted: string;
}

const toCrlf = (s: string) => s.replace(/\r?\n/g, "\r\n");
const toLf = (s: string) => s.replace(/\r\n/g, "\n");

function usesCrlf(text: string): boolean {
  const crlf = text.split("\r\n").length - 1;
  return crlf > 0 && crlf * 2 >= text.split("\n").length - 1;
}

function indexesOf(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

/**
 * The (old, new) pairs to try, most likely first: models write `\n`, so in a CRLF file both sides
 * are converted; in an LF file a pasted CRLF old_string is converted back.
 */
function candidates(content: string, oldText: string, newText: string): Array<[string, string]> {
  if (usesCrlf(content))
    return [
      [toCrlf(oldText), toCrlf(newText)],
      [oldText, newText],
    ];
  const pairs: Array<[string, string]> = [[oldText, newText]];
  if (oldText.includes("\r\n")) pairs.push([toLf(oldText), toLf(newText)]);
  return pairs;
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** Why old_string might have missed, in words that help the model fix its next call. */
function missHints(content: string, oldText: string): string[] {
  const hints: string[] = [];
  if (/^\s*\d+\t/m.test(oldText) && !/^\s*\d+\t/m.test(content)) {
    hints.push("old_string seems to contain line-number prefixes from Read output; leave them out.");
  }
  const firstLine = oldText
    .split(/\r?\n/)
    .find((l) => l.trim() !== "")
    ?.trim();
  const at = firstLine
    ? content
        .split("\n")
        .map((l, i) => (l.trim() === firstLine ? i + 1 : 0))
        .filter((n) => n > 0)
        .slice(0, 5)
    : [];
  const where = at.length > 0 ? ` (its first line is at line ${at.join(", ")})` : "";
  if (squash(content).includes(squash(oldText))) {
    hints.push(
      `It does match when whitespace is ignored${where}, so indentation, tabs vs spaces or trailing spaces differ.`,
    );
  } else if (at.length > 0) {
    hints.push(`Its first line appears at line ${at.join(", ")}, but the text after it differs.`);
  }
  hints.push("Read the file again and copy the text exactly.");
  return hints;
}

/** The pure core of Edit: the new content, or a ToolError saying why not. */
export function applyEdit(
  content: string,
  oldText: string,
  newText: string,
  replaceAll: boolean,
  path = "the file",
): EditOutcome {
  for (const [o, n] of candidates(content, oldText, newText)) {
    const found = indexesOf(content, o);
    const first = found[0];
    if (first === undefined) continue;
    if (found.length > 1 && !replaceAll) {
      const lines = found.slice(0, 10).map((i) => lineAt(content, i));
      throw new ToolError(
        `old_string matches ${found.length} times in ${path} ` +
          `(at lines ${lines.join(", ")}${found.length > 10 ? ", …" : ""}). ` +
          "Include more surrounding lines to make it unique, or set replace_all to true to change every one.",
      );
    }
    // split/join rather than String.replace, whose `$&`-style patterns would mangle new_string.
    const updated = replaceAll
      ? content.split(o).join(n)
      : content.slice(0, first) + n + content.slice(first + o.length);
    return { content: updated, count: found.length, at: first, inserted: n };
  }
  throw new ToolError([`old_string was not found in ${path}.`, ...missHints(content, oldText)].join(" "));
}

/** The edited region with a few lines around it, numbered like Read's output. */
export function snippet(content: string, at: number, inserted: string): string {
  const lines = content.split("\n");
  const first = lineAt(content, at);
  const last = first + inserted.split("\n").length - 1;
  const from = Math.max(1, first - SNIPPET_CONTEXT);
  const to = Math.min(lines.length, last + SNIPPET_CONTEXT, from + SNIPPET_MAX_LINES - 1);
  const shown = lines.slice(from - 1, to).map((l, i) => `${String(from + i).padStart(6)}\t${l.replace(/\r$/, "")}`);
  if (to < last + SNIPPET_CONTEXT && to < lines.length) shown.push("     …");
  return shown.join("\n");
}

async function createFile(path: string, text: string, ctx: ToolContext): Promise<string> {
  const blocker = await fileInTheWay(dirname(path));
  if (blocker) throw new ToolError(`Cannot create ${path}: ${blocker} is not a directory`);
  const judge = { ...ctx, tool: "Edit" };
  await makeFoldersFor(path, judge, "create");
  await writeTextThrough(ctx.services, path, text, "create", judge);
  return `Created ${path} (${Buffer.byteLength(text)} bytes)`;
}

async function readText(path: string, ctx: ToolContext): Promise<string> {
  // The file opened is the one judged (files.ts): a link swapped in after the check is not read.
  const pinned = await openPinned(path, ctx, "Edit", "edit");
  let bytes: Buffer;
  try {
    bytes = await pinned.handle.readFile();
  } finally {
    await pinned.handle.close();
  }
  if (isBinary(bytes)) throw new ToolError(`Cannot edit ${path}: binary file (${bytes.length} bytes)`);
  try {
    // The BOM is kept in the string so it is written back unchanged.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ToolError(`Cannot edit ${path}: it is not valid UTF-8, and editing it as text would corrupt it`);
  }
}

export const editTool = defineTool({
  name: "Edit",
  description,
  input,
  readOnly: false,
  async execute(input, ctx) {
    if (ctx.signal.aborted) throw new ToolError("Edit interrupted");
    const { old_string: oldText, new_string: newText } = input;
    if (oldText === newText)
      throw new ToolError("old_string and new_string are identical; there is nothing to change.");
    const path = resolveToolPath(ctx.cwd, input.path);

    const info = await stat(path).catch(() => null);
    if (!info) {
      if (oldText === "") {
        const display = changeDisplay(path, "", newText, true);
        const content = await createFile(path, newText, ctx);
        return { content, display, hookResponse: editResponse(path, input, null, display) };
      }
      throw new ToolError(`${notFoundMessage(path)}\nTo create a file, use Write (or Edit with an empty old_string).`);
    }
    requireRegular("edit", path, info);
    // Checked on disk (binary, UTF-8) and then taken as the editor holds it, unsaved changes and all.
    const onDisk = await readText(path, ctx);
    const content = await readTextThrough(ctx.services, path, async () => onDisk);
    if (oldText === "") {
      if (content !== "") {
        throw new ToolError(
          `old_string is empty but ${path} already has content; ` +
            "give the text to replace, or use Write to replace the whole file.",
        );
      }
      await writeTextThrough(ctx.services, path, newText, "edit", { ...ctx, tool: "Edit" });
      const display = changeDisplay(path, "", newText, false);
      return {
        content: `Wrote ${Buffer.byteLength(newText)} bytes into empty file ${path}`,
        display,
        hookResponse: editResponse(path, input, "", display),
      };
    }

    const outcome = applyEdit(content, oldText, newText, input.replace_all === true, path);
    await writeTextThrough(ctx.services, path, outcome.content, "edit", { ...ctx, tool: "Edit" });
    const what = outcome.count === 1 ? "1 replacement" : `${outcome.count} replacements (first shown)`;
    const display = changeDisplay(path, content, outcome.content, false);
    return {
      content: `Edited ${path}: ${what}\n${snippet(outcome.content, outcome.at, outcome.inserted)}`,
      display,
      hookResponse: editResponse(path, input, content, display),
    };
  },
});

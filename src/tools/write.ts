// The Write tool: creates or overwrites a whole file, making parent directories as needed.
// Expected failures throw ToolError.

import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import * as z from "zod/mini";
import description from "./write.md" with { type: "text" };
import { errorText, fileInTheWay, makeFoldersFor, readRegularFile, requireRegular } from "./files.ts";
import { writeTextThrough } from "./editor-files.ts";
import { isBinary } from "./binary.ts";
import { changeDisplay } from "./line-diff.ts";
import { writeResponse } from "./response-facts.ts";
import { brokenLinkMessage, resolveToolPath } from "./paths.ts";
import { about, defineTool, toolInput } from "./input-schema.ts";
import { ToolError } from "./types.ts";

// Built on the first call's check, not at load (defineTool).
const input = () =>
  toolInput({
    path: z.string().check(about("File to write, absolute or relative to the working directory")),
    content: z.string().check(about("The complete new content of the file")),
  });

/** Larger files are not read back for the view's diff. */
const DIFF_READ_MAX = 1 << 20;

/** Lines as an editor counts them: a trailing newline ends the last line, it does not start one. */
export function countLines(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

export const writeTool = defineTool({
  name: "Write",
  description,
  input,
  readOnly: false,
  async execute(input, ctx) {
    if (ctx.signal.aborted) throw new ToolError("Write interrupted");
    const path = resolveToolPath(ctx.cwd, input.path);

    const before = await stat(path).catch(() => null);
    if (before?.isDirectory()) throw new ToolError(`${path} is a directory; give a file path to write`);
    if (before) requireRegular("write", path, before);
    // The old text, for the view's diff only: a file too large or not text is not diffed.
    const readable = before && before.size <= DIFF_READ_MAX;
    const old = readable ? await readRegularFile(path, "write").catch(() => undefined) : undefined;
    const blocker = before ? null : await fileInTheWay(dirname(path));
    if (blocker) throw new ToolError(`Cannot write ${path}: ${blocker} is not a directory`);
    try {
      const judge = { ...ctx, tool: "Write" };
      await makeFoldersFor(path, judge, "write");
      await writeTextThrough(ctx.services, path, input.content, "write", judge);
    } catch (err) {
      if (err instanceof ToolError) throw err;
      const broken = (err as NodeJS.ErrnoException).code === "ENOENT" ? brokenLinkMessage(path) : null;
      throw new ToolError(`Cannot write ${path}: ${broken ?? errorText(err)}`);
    }
    const bytes = Buffer.byteLength(input.content);
    const lines = countLines(input.content);
    const verb = before ? "Updated" : "Created";
    const diffable = !before || (old !== undefined && !isBinary(old));
    const display = diffable ? changeDisplay(path, old?.toString("utf8") ?? "", input.content, !before) : undefined;
    const text = diffable ? old?.toString("utf8") : undefined;
    return {
      content: `${verb} ${path} (${bytes} bytes, ${lines} line${lines === 1 ? "" : "s"})`,
      display,
      hookResponse: writeResponse(path, input.content, !before, text, display),
    };
  },
});

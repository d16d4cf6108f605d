// The Glob tool: files whose path matches a glob pattern, newest first, skipping `.git` and
// gitignored files; listed by `rg --files` (the JavaScript walk when rg cannot run), keeping only
// the newest ones in memory. Expected failures throw ToolError.

import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import * as z from "zod/mini";
import description from "./glob.md" with { type: "text" };
import { openPinnedFolder } from "./files.ts";
import { printablePath } from "./grep-output.ts";
import { resolveToolPath } from "./paths.ts";
import { runRipgrep } from "./ripgrep-process.ts";
import { engineFor } from "./search-engine.ts";
import { about, defineTool, toolInput } from "./input-schema.ts";
import { ToolError } from "./types.ts";
import type { GlobResponse } from "../protocol/hook-events.ts";
import { walkFiles } from "./walk.ts";
import { runtime } from "../runtime/runtime.ts";
import { itemAt } from "../text/checked-index.ts";

export const MAX_GLOB_RESULTS = 100;

// Built on the first call's check, not at load (defineTool).
const input = () =>
  toolInput({
    pattern: z.string().check(about('Glob pattern, e.g. "**/*.ts" or "src/**/*.{js,jsx}"')),
    path: z.optional(z.string().check(about("Directory to search in (default: the working directory)"))),
  });

const GLOB_CHARS = /[*?[\]{}\\]/;

/**
 * Splits a pattern into the literal directories it starts with and the rest, so `src/**\/*.ts`
 * walks only `src`; also bounds the depth when the rest has no `**`.
 */
export function splitPattern(pattern: string): { prefix: string; rest: string; maxDepth?: number } {
  const segs = pattern.replace(/^(\.\/)+/, "").split("/");
  let i = 0;
  while (i < segs.length - 1 && !GLOB_CHARS.test(itemAt(segs, i))) i++;
  const prefix = segs.slice(0, i).join("/") || (pattern.startsWith("/") ? "/" : "");
  const restSegs = segs.slice(i);
  const rest = restSegs.join("/");
  return { prefix, rest, maxDepth: rest.includes("**") ? undefined : restSegs.length - 1 };
}

/** The newest `max` files seen so far, and how many were seen: memory stays flat on any tree. */
export class NewestFiles {
  total = 0;
  private readonly items: Array<{ path: string; mtime: number }> = [];

  constructor(private readonly max: number) {}

  private before(a: { path: string; mtime: number }, b: { path: string; mtime: number }): boolean {
    return a.mtime > b.mtime || (a.mtime === b.mtime && a.path < b.path);
  }

  add(path: string, mtime: number): void {
    this.total++;
    const item = { path, mtime };
    const items = this.items;
    if (items.length === this.max && !this.before(item, itemAt(items, items.length - 1))) return;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.before(itemAt(items, mid), item)) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, item);
    if (items.length > this.max) items.pop();
  }

  paths(): string[] {
    return this.items.map((i) => i.path);
  }
}

function mtimeOf(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

export const globTool = defineTool({
  name: "Glob",
  description,
  input,
  readOnly: true,
  async execute(input, ctx) {
    const started = performance.now();
    if (input.pattern.trim() === "") throw new ToolError('"pattern" is empty; give a glob such as "**/*.ts"');
    const base = resolveToolPath(ctx.cwd, input.path ?? ".");
    const info = await stat(base).catch(() => null);
    if (!info) throw new ToolError(`Directory not found: ${base}`);
    if (!info.isDirectory()) throw new ToolError(`${base} is a file, not a directory; use Read to look at it`);

    const { prefix, rest, maxDepth } = splitPattern(input.pattern.trim());
    const root = isAbsolute(prefix) ? prefix : join(base, prefix);
    const rootInfo = await stat(root).catch(() => null);
    if (!rootInfo?.isDirectory())
      return { content: `No files found (${root} is not a directory)`, hookResponse: globResponse([], 0, started) };

    const matches = runtime.globMatcher(rest);
    const strip = root === "/" ? 1 : root.length + 1;
    const newest = new NewestFiles(MAX_GLOB_RESULTS);
    const consider = (file: string) => {
      if (matches(file.slice(strip))) newest.add(file, mtimeOf(file));
    };

    const engine = await engineFor(ctx);
    if (engine.kind === "ripgrep") {
      const args = ["--files", "--null", "--no-config", "--hidden", "--no-require-git", "--glob", "!.git"];
      if (maxDepth !== undefined) args.push("--max-depth", String(maxDepth + 1));
      // The last segment, as a file type, lets rg skip other names without overriding .gitignore
      // (a --glob would); the whole pattern is still matched here.
      const last = rest.split("/").at(-1) ?? rest;
      if (last && !last.includes("**")) args.push("--type-add", `synapseglob:${last}`, "--type", "synapseglob");
      // The folder is opened and judged first, and rg lists the open folder (its working directory,
      // as `.`): a folder swapped for a link after the permission check is refused (files.ts).
      const pinned = await openPinnedFolder(root, ctx, "Glob");
      const listed = pinned.through === root ? root : ".";
      args.push("--", listed);
      const named = (file: string) => (listed === "." ? root.replace(/\/$/, "") + file.slice(1) : file);
      const outcome = await runRipgrep(engine.path, args, {
        cwd: listed === "." ? pinned.through : ctx.cwd,
        signal: ctx.signal,
        timeoutMs: ctx.limits.shell.commandTimeoutMs,
        env: ctx.limits.shell.env,
        separator: 0,
        onRecord(record) {
          consider(named(record.toString("utf8")));
          return true;
        },
      }).finally(() => pinned.handle.close());
      if (outcome.stopped === "timeout") {
        throw new ToolError(
          `Glob stopped after ${ctx.limits.shell.commandTimeoutMs / 1000} s (the command timeout); ` +
            "use a more specific pattern or path",
        );
      }
      if (outcome.code === 2 && newest.total === 0 && outcome.stderr)
        throw new ToolError(`Glob failed: ${outcome.stderr.replace(/^rg: /, "")}`);
    } else {
      for await (const file of walkFiles(root, { signal: ctx.signal, cwd: ctx.cwd, maxDepth })) consider(file);
    }
    if (ctx.signal.aborted) throw new ToolError("Glob interrupted");
    const hookResponse = globResponse(newest.paths(), newest.total, started);
    if (newest.total === 0) return { content: "No files found", hookResponse };

    const note =
      newest.total > MAX_GLOB_RESULTS
        ? `\n(truncated: showing ${MAX_GLOB_RESULTS} of ${newest.total} files, newest first; ` +
          "use a more specific pattern or path)"
        : "";
    // One line a path, as the permission screen reads them (a newline in a name would split one).
    return { content: newest.paths().map(printablePath).join("\n") + note, hookResponse };
  },
});

/** Claude Code's Glob `tool_response`: the paths shown, newest first, and how many matched in all. */
function globResponse(filenames: string[], total: number, started: number): GlobResponse {
  const durationMs = Math.round(performance.now() - started);
  const truncated = total > filenames.length;
  return { filenames, numFiles: filenames.length, truncated, totalMatches: total, countIsComplete: true, durationMs };
}

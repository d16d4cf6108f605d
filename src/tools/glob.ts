// The Glob tool: files whose path matches a glob pattern, newest first, skipping `.git` and
// gitignored files. Expected failures throw ToolError.

import { stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import description from "./glob.md" with { type: "text" };
import { resolveToolPath } from "./paths.ts";
import { ToolError, type JsonSchema, type Tool } from "./types.ts";
import { walkFiles } from "./walk.ts";

export const MAX_GLOB_RESULTS = 100;

export interface GlobInput {
  pattern: string;
  path?: string;
}

const inputSchema: JsonSchema = {
  type: "object",
  properties: {
    pattern: { type: "string", description: 'Glob pattern, e.g. "**/*.ts" or "src/**/*.{js,jsx}"' },
    path: { type: "string", description: "Directory to search in (default: the working directory)" },
  },
  required: ["pattern"],
  additionalProperties: false,
};

const GLOB_CHARS = /[*?[\]{}\\]/;

/**
 * Splits a pattern into the literal directories it starts with and the rest, so `src/**\/*.ts`
 * walks only `src`; also bounds the depth when the rest has no `**`.
 */
export function splitPattern(pattern: string): { prefix: string; rest: string; maxDepth?: number } {
  const segs = pattern.replace(/^(\.\/)+/, "").split("/");
  let i = 0;
  while (i < segs.length - 1 && !GLOB_CHARS.test(segs[i]!)) i++;
  const prefix = segs.slice(0, i).join("/") || (pattern.startsWith("/") ? "/" : "");
  const restSegs = segs.slice(i);
  const rest = restSegs.join("/");
  return { prefix, rest, maxDepth: rest.includes("**") ? undefined : restSegs.length - 1 };
}

async function mtimes(paths: string[]): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  const BATCH = 256;
  for (let i = 0; i < paths.length; i += BATCH) {
    const batch = paths.slice(i, i + BATCH);
    const stats = await Promise.all(batch.map((p) => stat(p).catch(() => null)));
    batch.forEach((p, j) => times.set(p, stats[j]?.mtimeMs ?? 0));
  }
  return times;
}

export const globTool: Tool<GlobInput> = {
  name: "Glob",
  description,
  inputSchema,
  readOnly: true,
  async execute(input, ctx) {
    if (input.pattern.trim() === "") throw new ToolError('"pattern" is empty; give a glob such as "**/*.ts"');
    const base = resolveToolPath(ctx.cwd, input.path ?? ".");
    const info = await stat(base).catch(() => null);
    if (!info) throw new ToolError(`Directory not found: ${base}`);
    if (!info.isDirectory()) throw new ToolError(`${base} is a file, not a directory; use Read to look at it`);

    const { prefix, rest, maxDepth } = splitPattern(input.pattern.trim());
    const root = isAbsolute(prefix) ? prefix : join(base, prefix);
    const rootInfo = await stat(root).catch(() => null);
    if (!rootInfo?.isDirectory()) return { content: `No files found (${root} is not a directory)` };

    const glob = new Bun.Glob(rest);
    const found: string[] = [];
    const strip = root === "/" ? 1 : root.length + 1;
    for await (const file of walkFiles(root, { signal: ctx.signal, cwd: ctx.cwd, maxDepth })) {
      if (glob.match(file.slice(strip))) found.push(file);
    }
    if (ctx.signal.aborted) throw new ToolError("Glob interrupted");
    if (found.length === 0) return { content: "No files found" };

    const times = await mtimes(found);
    found.sort((a, b) => times.get(b)! - times.get(a)! || (a < b ? -1 : 1));
    const shown = found.slice(0, MAX_GLOB_RESULTS).join("\n");
    const note =
      found.length > MAX_GLOB_RESULTS
        ? `\n(truncated: showing ${MAX_GLOB_RESULTS} of ${found.length} files, newest first; use a more specific pattern or path)`
        : "";
    return { content: shown + note };
  },
};

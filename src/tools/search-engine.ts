// Picks the engine behind Grep and Glob once per process: ripgrep (unpacked from the binary into
// the cache folder when it is embedded there) or, when ripgrep cannot run, the JavaScript search.

import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { type RipgrepAsset, ripgrepAsset } from "./ripgrep-asset.ts";
import type { SearchEngine, ToolContext } from "./types.ts";

export type { SearchEngine } from "./types.ts";

/**
 * Writes the embedded rg to `cacheDir` unless an identical copy is there. The name is the asset's
 * own (Bun names assets by a hash of their content), so a binary carrying another rg never uses
 * this one's copy. Each process writes a private temp file and renames it into place: a second
 * process racing on first use either sees no file or a whole one, never half of one.
 */
export function unpackRipgrep(asset: RipgrepAsset, cacheDir: string): string {
  // Bun leaves a trailing dot on an asset without an extension.
  const target = join(cacheDir, basename(asset.path).replace(/\.$/, ""));
  const size = statSync(asset.path).size;
  const existing = statSync(target, { throwIfNoEntry: false });
  if (existing?.isFile() && existing.size === size && (existing.mode & 0o100) !== 0) return target;
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temp, readFileSync(asset.path), { mode: 0o700 });
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  return target;
}

/** `rg --version`'s number, which also proves the file can run here (not noexec, right CPU). */
export async function ripgrepVersion(path: string): Promise<string> {
  // Loaded on first use: node:child_process would otherwise load at every start, tools or not.
  const { execFile } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    execFile(path, ["--version"], { timeout: 10_000, env: {} }, (err, stdout) => {
      if (err) return reject(err);
      const version = /^ripgrep (\S+)/.exec(stdout)?.[1];
      if (!version) return reject(new Error(`unexpected output from ${path} --version`));
      resolve(version);
    });
  });
}

export async function resolveEngine(asset: RipgrepAsset | null, cacheDir: string): Promise<SearchEngine> {
  if (!asset) return { kind: "javascript", reason: `no ripgrep is built in for ${process.platform}-${process.arch}` };
  let path = asset.path;
  if (asset.embedded) {
    try {
      path = unpackRipgrep(asset, cacheDir);
    } catch (err) {
      return {
        kind: "javascript",
        reason: `ripgrep could not be unpacked into ${cacheDir}: ${(err as Error).message}`,
      };
    }
  }
  try {
    return { kind: "ripgrep", path, version: await ripgrepVersion(path) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "EACCES" ? "permission denied (is the folder mounted noexec?)" : (err as Error).message;
    return { kind: "javascript", reason: `ripgrep could not run from ${path}: ${why}` };
  }
}

const engines = new Map<string, Promise<SearchEngine>>();

/** The engine for this process, decided on first use and kept. */
export function searchEngine(cacheDir: string): Promise<SearchEngine> {
  let engine = engines.get(cacheDir);
  if (!engine) {
    engine = resolveEngine(ripgrepAsset, cacheDir);
    engines.set(cacheDir, engine);
  }
  return engine;
}

let fallbackNoticeGiven = false;

/** The engine a tool call uses; the first fall back to JavaScript in a process is told to the user once. */
export async function engineFor(ctx: ToolContext): Promise<SearchEngine> {
  const engine = await (ctx.services.searchEngine?.() ?? searchEngine(ctx.limits.cacheDir));
  if (engine.kind === "javascript" && !fallbackNoticeGiven && ctx.warn) {
    fallbackNoticeGiven = true;
    ctx.warn(`Grep and Glob use the slower built-in search: ${engine.reason}`);
  }
  return engine;
}

// The absolute path a shell word or a file tool's input names, with `~` and `$HOME` put in.

import { isAbsolute, resolve } from "node:path";
import type { Word } from "./shell-parse.ts";

/** What a shell word names as a path, when it could be one. */
export function wordPath(text: string, cwd: string, home: string): string {
  const t = text.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, "~");
  if (t === "~" || t.startsWith("~/")) return home + t.slice(1);
  return isAbsolute(t) ? resolve(t) : resolve(cwd, t);
}

/**
 * A word's text with a leading `$HOME`/`${HOME}` (also quoted) put in; null when otherwise dynamic,
 * or a tilde form this does not resolve (`~+` is the shell's folder, `~-` the previous one, `~user`).
 */
export function homeExpanded(w: Word, home: string): string | null {
  const text = w.text.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, home);
  if (/^~[^/]/.test(text) && !/^['"\\]/.test(w.raw)) return null;
  return w.dynamic && /[$`]/.test(text) ? null : text;
}

export function resolveInput(cwd: string, path: string, home: string): string {
  const p = path.trim();
  if (p === "~" || p.startsWith("~/")) return home + p.slice(1);
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/** The file or folder a file tool call touches. */
export function targetPath(tool: string, input: Record<string, unknown>, cwd: string, home: string): string {
  const path = typeof input.path === "string" && input.path.trim() ? input.path : ".";
  const base = resolveInput(cwd, path, home);
  if (tool === "Glob" && typeof input.pattern === "string") {
    // The pattern's literal folders say where the search really starts: `/etc/**`, `../x/*.ts`.
    const pattern = input.pattern.trim();
    const segments = pattern.split("/");
    const literal: string[] = [];
    for (const seg of segments.slice(0, -1)) {
      if (/[*?[\]{}]/.test(seg)) break;
      literal.push(seg);
    }
    if (pattern.startsWith("/") || pattern.startsWith("~")) return resolveInput(cwd, literal.join("/") || "/", home);
    if (literal.length) return resolve(base, literal.join("/"));
  }
  return base;
}

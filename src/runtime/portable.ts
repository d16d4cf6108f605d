// Helpers that replaced Bun-only calls with what Bun and Deno both offer, equally fast, so they
// need no per-runtime branch.

import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The first executable `name` on `path` (a PATH value), or `name` itself when it holds a slash. */
export function which(name: string, path: string): string | null {
  const candidates = name.includes("/")
    ? [name]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, name));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // not there, or not executable
    }
  }
  return null;
}

/** SHA-256 as lowercase hex, through Web Crypto (node:crypto costs ~5 ms to load in the binary). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The programs synapse runs for itself (bash, bwrap, mkfifo, ps, git, setpriv, ...) are found once,
// at start, on a trusted PATH: a model that writes `./bin/mkfifo` or `~/.local/bin/ps` and puts it
// first on a command's PATH must not get synapse to run it (with synapse's own environment).
// System folders come first; the user's PATH entries follow only when absolute and outside the
// working directory, for tools installed elsewhere (Nix, Homebrew on Linux).

import { resolve, sep } from "node:path";
import { which } from "./portable.ts";

export const SYSTEM_PATH_DIRS: readonly string[] = [
  "/usr/local/sbin",
  "/usr/local/bin",
  "/usr/sbin",
  "/usr/bin",
  "/sbin",
  "/bin",
];
/** The same folders as a PATH value, for helpers run with no environment of synapse's. */
export const SYSTEM_PATH = SYSTEM_PATH_DIRS.join(":");

/**
 * The folders searched, in order: the system's, then the caller's PATH entries that are absolute and
 * not under `cwd`.
 */
export function trustedPathDirs(pathValue: string | undefined, cwd: string): string[] {
  const root = resolve(cwd);
  const extra = (pathValue ?? "")
    .split(":")
    .filter((d) => d.startsWith("/"))
    .map((d) => resolve(d))
    .filter((d) => d !== root && !d.startsWith(root + sep));
  return [...new Set([...SYSTEM_PATH_DIRS, ...extra])];
}

const found = new Map<string, string | null>();
let dirs: string[] | null = null;

/** Fixes the trusted folders once (at start, before any command runs); later calls change nothing. */
export function initTrustedPath(pathValue: string | undefined, cwd: string): void {
  if (dirs === null) dirs = trustedPathDirs(pathValue, cwd);
}

/** The absolute path of `name` on the trusted PATH (remembered), or null when it is not there. */
export function trustedBinary(name: string): string | null {
  if (name.includes("/")) return name;
  if (found.has(name)) return found.get(name) ?? null;
  if (dirs === null) dirs = trustedPathDirs(process.env.PATH, process.cwd());
  const path = which(name, dirs.join(":"));
  found.set(name, path);
  return path;
}

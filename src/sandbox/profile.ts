// The bubblewrap command line for a sandbox profile. Pure: which paths exist is decided by the
// caller (profile-paths.ts), so every rule here is covered by a table-driven test.

import type { ConfinedMode } from "./types.ts";

export interface SandboxProfile {
  mode: ConfinedMode;
  network: boolean;
  /** Workspace roots (cwd and every --add-dir), absolute and real: writable in workspace-write. */
  roots: readonly string[];
  /** Paths inside the roots that stay read-only even there (`.git/hooks`, `.git/config`, `.synapse`, a `.git` file). */
  readOnly: readonly string[];
  /**
   * Writable folders holding read-only parts (`.git`): bound onto themselves, so each is a mount
   * point, which the kernel refuses to rename or remove. Renaming its parent would carry a
   * read-only `.git/config` away and leave a writable one in its place.
   */
  pinned?: readonly string[];
  /** Folders to hide (an empty read-only tmpfs over each): credential stores, synapse's own data. */
  hiddenDirs: readonly string[];
  /** Files to hide (/dev/null bound over each). */
  hiddenFiles: readonly string[];
  /**
   * Files inside hidden folders shown read-only, when they exist (a hook's own session transcript,
   * its `transcript_path`): the rest of the folder stays hidden.
   */
  shown?: readonly string[];
  /** The shell pool's folder (init script, request files, output fifos): visible, read-only. */
  poolDir?: string;
}

/**
 * The one writable folder inside the pool's: a shell due for replacement writes its exported
 * state there for its task's next shell. Nothing outside the sandbox runs what it holds.
 */
export const POOL_CARRY_DIR = "carry";

/**
 * bwrap's options, ending in `--`; the program to run follows. Mounts apply in order, so the
 * writable roots come after the read-only root file system, and what is hidden or kept read-only
 * inside them comes after the roots.
 *
 * No `--new-session`: the pool already starts bwrap with setsid, so the sandbox has no
 * controlling terminal (no TIOCSTI, no /dev/tty), and keeping that one session lets the pool and
 * its watchdog find and kill everything inside by the session id they know (bwrap's pid).
 */
export function bwrapArgs(p: SandboxProfile): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  // Bound read-only too in read-only mode: a root under /tmp would vanish under the private /tmp.
  for (const root of p.roots) args.push(p.mode === "workspace-write" ? "--bind" : "--ro-bind", root, root);
  if (p.mode === "workspace-write") for (const dir of p.pinned ?? []) args.push("--bind", dir, dir);
  for (const path of p.readOnly) args.push("--ro-bind", path, path);
  for (const dir of p.hiddenDirs) {
    args.push("--tmpfs", dir);
    // Bound while the empty tmpfs is still writable (its mount point is made there), then sealed.
    for (const file of p.shown ?? []) if (file.startsWith(`${dir}/`)) args.push("--ro-bind-try", file, file);
    args.push("--remount-ro", dir);
  }
  for (const file of p.hiddenFiles) args.push("--ro-bind", "/dev/null", file);
  if (p.poolDir) {
    const carry = `${p.poolDir}/${POOL_CARRY_DIR}`;
    args.push("--ro-bind", p.poolDir, p.poolDir, "--bind", carry, carry);
  }
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!p.network) args.push("--unshare-net");
  args.push("--die-with-parent", "--");
  return args;
}

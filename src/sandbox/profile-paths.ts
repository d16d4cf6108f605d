// Which paths a sandbox profile names, read from the file system: bubblewrap refuses to mount
// over a path that does not exist, so only existing ones are listed, by their real paths (a
// symlinked ~/.aws is hidden where it really is).

import { lstatSync, realpathSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import type { SandboxProfile } from "./profile.ts";
import type { ConfinedMode } from "./types.ts";

/** Credential stores of the home folder, as the permission policy lists them. */
export const CREDENTIAL_STORES: readonly string[] = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".config/gcloud",
  ".netrc",
  ".docker/config.json",
  ".kube",
  ".config/gh",
  ".azure",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
];

/**
 * Sockets that would let a command act outside the sandbox: a network namespace does not cover
 * Unix sockets in the file system (checked: a socket under /var/tmp answered from inside). The
 * per-user runtime folders hold the session bus (`systemd-run --user` runs anything, unconfined),
 * the gpg and ssh agents, Wayland, rootless Docker and Podman; the rest are the system's daemons.
 */
export const HOST_SOCKETS: readonly string[] = [
  "/run/user",
  "/run/docker.sock",
  "/run/podman/podman.sock",
  "/run/containerd/containerd.sock",
  "/run/dbus/system_bus_socket",
  "/run/snapd.socket",
  "/var/run/docker.sock",
];

/** The same in the home folder (Docker Desktop's socket). */
export const HOME_SOCKETS: readonly string[] = [".docker/run"];

/** Inside each workspace root: what a command could use to run code outside the sandbox later. */
export const READ_ONLY_IN_ROOT: readonly string[] = [".git/hooks", ".git/config", ".synapse"];

export interface ProfileSources {
  mode: ConfinedMode;
  network: boolean;
  /** cwd and every --add-dir. */
  roots: readonly string[];
  homeDir: string;
  /** Synapse's own folders (user config, SYNAPSE_HOME with sessions and history). */
  ownDirs: readonly string[];
  /** HOST_SOCKETS unless given (tests). */
  hostSockets?: readonly string[];
}

function real(path: string): { path: string; dir: boolean } | null {
  try {
    const path2 = realpathSync(path);
    return { path: path2, dir: lstatSync(path2).isDirectory() };
  } catch {
    return null;
  }
}

const within = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

export function collectProfile(src: ProfileSources): Omit<SandboxProfile, "poolDir"> {
  const roots = [...new Set(src.roots.map((r) => real(r)?.path ?? resolve(r)))];
  const readOnly = roots
    .flatMap((root) => READ_ONLY_IN_ROOT.map((name) => real(join(root, name))?.path ?? null))
    .filter((p): p is string => p !== null && roots.some((root) => within(p, root)));
  // A `.git` file (a linked worktree's, a submodule's) names the folder git takes its config and
  // hooks from: rewritten (`gitdir: evil`), it would send the user's next `git status` to one a
  // command made. Bound read-only, it can be neither rewritten nor replaced.
  const gitFiles = roots
    .map((root) => real(join(root, ".git")))
    .filter((p): p is { path: string; dir: boolean } => p?.dir === false && roots.some((root) => within(p.path, root)))
    .map((p) => p.path);
  // The folders holding those parts (`.git`), so a command cannot rename them away (profile.ts).
  const pinned = roots
    .flatMap((root) => READ_ONLY_IN_ROOT.filter((n) => n.includes("/")).map((n) => real(join(root, dirname(n)))))
    .filter((p): p is { path: string; dir: boolean } => p?.dir === true)
    .map((p) => p.path)
    .filter((p) => roots.some((root) => p !== root && within(p, root)));
  const inHome = [...CREDENTIAL_STORES, ...HOME_SOCKETS].map((name) => join(src.homeDir, name));
  const hidden = [...inHome, ...src.ownDirs, ...(src.hostSockets ?? HOST_SOCKETS)]
    .map(real)
    .filter((p): p is { path: string; dir: boolean } => p !== null)
    // A folder the user made a workspace root (or one holding a root) stays visible: hiding it
    // would hide the workspace itself.
    .filter((p) => !roots.some((root) => within(root, p.path)));
  const dedupe = (list: string[]) => [...new Set(list)];
  return {
    mode: src.mode,
    network: src.network,
    roots,
    readOnly: dedupe([...readOnly, ...gitFiles]),
    pinned: dedupe(pinned),
    hiddenDirs: dedupe(hidden.filter((p) => p.dir).map((p) => p.path)),
    hiddenFiles: dedupe(hidden.filter((p) => !p.dir).map((p) => p.path)),
  };
}

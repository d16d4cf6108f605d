// Whether bubblewrap can confine commands here: it must be on the trusted PATH (or where
// SYNAPSE_BWRAP says) and actually start a sandbox like the pool's (no user namespaces, or a
// container that forbids them, makes it fail). Asked once per process; the answer is the
// SandboxState everything else reads.

import type { SandboxConfig } from "../config/config.ts";
import { runtime } from "../runtime/runtime.ts";
import { which } from "../runtime/portable.ts";
import { trustedBinary } from "../runtime/trusted-path.ts";
import { bwrapArgs } from "./profile.ts";
import { sandboxWarning, type SandboxState } from "./types.ts";

const cache = new Map<string, Promise<SandboxState>>();

/** The sandbox state for this configuration, probed at most once per process. */
export function sandboxState(config: SandboxConfig, env: Readonly<Record<string, string>> = {}): Promise<SandboxState> {
  const key = `${config.mode}|${config.network}|${config.bwrapPath ?? ""}`;
  let state = cache.get(key);
  if (!state) {
    state = probe(config, env);
    cache.set(key, state);
  }
  return state;
}

async function probe(config: SandboxConfig, env: Readonly<Record<string, string>>): Promise<SandboxState> {
  const { mode, network } = config;
  if (mode === "full-access") return { kind: "none", mode, reason: "full-access" };
  if (process.platform !== "linux") return { kind: "none", mode, reason: `no sandbox on ${process.platform} yet` };
  const bwrap = config.bwrapPath ? which(config.bwrapPath, "") : trustedBinary("bwrap");
  if (!bwrap) {
    const reason = config.bwrapPath ? `${config.bwrapPath} not found` : "bwrap not found (install bubblewrap)";
    return { kind: "none", mode, reason };
  }
  const truePath = trustedBinary("true");
  if (!truePath) return { kind: "none", mode, reason: "true not found on the trusted PATH" };
  const failure = await tryStart(bwrap, truePath, network, env);
  return failure === null ? { kind: "bwrap", mode, network, bwrap } : { kind: "none", mode, reason: failure };
}

/** Starts `true` in a sandbox with the pool's namespaces; null when it ran, else bwrap's complaint. */
async function tryStart(
  bwrap: string,
  truePath: string,
  network: boolean,
  env: Readonly<Record<string, string>>,
): Promise<string | null> {
  // The pool's own options (namespaces, mounts) with nothing to bind: what works here works there.
  const profile = {
    mode: "workspace-write" as const,
    network,
    roots: [],
    readOnly: [],
    hiddenDirs: [],
    hiddenFiles: [],
  };
  const argv = [bwrap, ...bwrapArgs(profile), truePath];
  try {
    const proc = runtime.spawn(argv, { env: { ...env }, stdout: "ignore", stderr: "pipe", newSession: true });
    const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    if (code === 0) return null;
    const line = err.trim().split("\n")[0] ?? "";
    return `bwrap cannot start a sandbox here: ${line || `exit ${code}`}`;
  } catch (err) {
    return `bwrap cannot start: ${(err as Error).message}`;
  }
}

let warned = false;

/** The warning for this state, the first time a session of this process asks; null after that. */
export function sandboxWarningOnce(state: SandboxState): string | null {
  const message = sandboxWarning(state);
  if (message === null || warned) return null;
  warned = true;
  return message;
}

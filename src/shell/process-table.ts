// Finds and signals the processes a shell session started. Commands run in their own process
// groups inside the shell's session, so "everything this shell started" is "every process whose
// session id is the shell's pid" — even after the shell itself is gone.

import { readdirSync, readFileSync } from "node:fs";
import { runtime } from "../runtime/runtime.ts";
import { trustedBinary } from "../runtime/trusted-path.ts";

export interface ProcessInfo {
  pid: number;
  pgid: number;
  sid: number;
  /** Zombies have exited and only wait to be reaped. */
  zombie: boolean;
  /** Start time in clock ticks since boot (/proc stat field 22); -1 where it cannot be read. */
  start: number;
}

/**
 * A session as synapse created it: its id (the leader's pid) and the leader's start time. Linux
 * frees a pid only once no process uses it as pid, group or session, so once every member of a
 * session is gone its id can be taken by an unrelated process that calls setsid (a tmux server, a
 * daemon); the start time tells that session apart from ours, which must then be left alone.
 */
export interface SessionIdentity {
  sid: number;
  start: number;
}

const HAS_PROC = (() => {
  try {
    readFileSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
})();

/** A snapshot of the process table (Linux /proc, else `ps`). Synchronous: usable in exit handlers. */
export function listProcesses(): ProcessInfo[] {
  return HAS_PROC ? fromProc() : fromPs();
}

function fromProc(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of readdirSync("/proc")) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "latin1");
    } catch {
      continue; // exited while we looked
    }
    // The command name sits in parentheses and may itself contain spaces or ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.push({
      pid: Number(name),
      zombie: fields[0] === "Z",
      pgid: Number(fields[2]),
      sid: Number(fields[3]),
      start: Number(fields[19]),
    });
  }
  return out;
}

function fromPs(): ProcessInfo[] {
  const ps = runtime.spawnSync([trustedBinary("ps") ?? "/bin/ps", "-A", "-o", "pid=,pgid=,sess=,stat="]);
  const out: ProcessInfo[] = [];
  for (const line of new TextDecoder().decode(ps.stdout).split("\n")) {
    const [pid, pgid, sid, stat] = line.trim().split(/\s+/);
    if (!pid || !stat) continue;
    out.push({ pid: Number(pid), pgid: Number(pgid), sid: Number(sid), zombie: stat.startsWith("Z"), start: -1 });
  }
  return out;
}

/** A process's start time (see ProcessInfo.start); -1 when it is gone or cannot be read. */
export function processStart(pid: number): number {
  if (!HAS_PROC) return -1;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  } catch {
    return -1;
  }
}

/**
 * Live (non-zombie) members of the session led (or once led) by `session`; none when its id now
 * belongs to another process's session (see SessionIdentity).
 */
export function sessionMembers(session: SessionIdentity, table: ProcessInfo[] = listProcesses()): ProcessInfo[] {
  const sid = session.sid;
  if (session.start >= 0) {
    const leader = table.find((p) => p.pid === sid);
    if (leader && leader.start >= 0 && leader.start !== session.start) return [];
  }
  return table.filter((p) => p.sid === sid && !p.zombie);
}

/** Sends `signal` to each process, and to each one's whole group; already-gone targets are fine. */
export function signalAll(
  targets: ProcessInfo[],
  signal: NodeJS.Signals,
  spareGroups: ReadonlySet<number> = new Set(),
): void {
  const groups = new Set<number>();
  for (const p of targets) {
    if (spareGroups.has(p.pgid)) continue;
    // Signalling the group too catches children forked after the snapshot was taken.
    if (p.pgid !== p.sid) groups.add(p.pgid);
    send(p.pid, signal);
  }
  for (const g of groups) send(-g, signal);
}

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: it is already gone.
  }
}

/**
 * A process's pid and process group as its own PID namespace numbers them (the last fields of
 * /proc/<pid>/status's NSpid and NSpgid; 0 for a group outside that namespace), or null when it
 * is gone or the kernel does not say. A sandboxed shell reports its jobs in these numbers.
 */
export function namespaceIds(pid: number): { pid: number; pgid: number } | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "latin1");
  } catch {
    return null;
  }
  const last = (name: string) => {
    const at = status.indexOf(`\n${name}:`);
    if (at === -1) return Number.NaN;
    const line = status.slice(at + name.length + 2, status.indexOf("\n", at + 1));
    return Number(line.trim().split(/\s+/).pop());
  };
  const ids = { pid: last("NSpid"), pgid: last("NSpgid") };
  return Number.isNaN(ids.pid) || Number.isNaN(ids.pgid) ? null : ids;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it just is not ours.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

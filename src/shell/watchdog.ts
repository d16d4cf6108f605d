// A watchdog per pooled shell that kills the shell's whole session once synapse is gone, even
// after `kill -9`, when no exit handler runs. Without it the shells, their commands and their
// background jobs would be reparented to init and run forever.

import { runtime } from "../runtime/runtime.ts";
import { SYSTEM_PATH_DIRS, trustedBinary } from "../runtime/trusted-path.ts";

/**
 * The watchdog's bash script (`bash watchdog.sh SID`). Its stdin is a pipe (a socket pair) whose
 * other end only synapse holds (Bun opens it close-on-exec, so no other child inherits it): when
 * synapse dies, however it dies, the kernel closes that end and `read` sees end-of-file at once.
 * No polling of the synapse pid is needed, hence no pid-reuse question about it.
 *
 * The session id is a pid, and Linux frees a pid number only once no process uses it as pid,
 * group or session. So while the session has members its id cannot be reused. Once the session
 * is empty it could be, by an unrelated process calling setsid; the watchdog then must not act on
 * it. Every 2 s (a `read` timeout, no fork) it checks that the shell, identified by its start
 * time, still lives; once the shell is gone it looks for members left (background jobs) and exits
 * when there are none. The pool also stops it at once when it sees the session end.
 *
 * Only bash builtins and /proc are used while guarding; `ps` stands in where there is no /proc,
 * `sleep` only between kill rounds.
 */
export const WATCHDOG_SCRIPT = `sid=$1 born= r=
# Sets REPLY to a process's start time (stat field 22): a pid later given to another process has
# another one. Without /proc, being alive is all that can be told.
__started() {
  builtin local l
  if [[ -r /proc/self/stat ]]; then
    builtin read -r l < "/proc/$1/stat" 2>/dev/null || return 1
    l=\${l##*) }
    builtin set -- $l
    REPLY=\${20}
  else
    builtin kill -0 "$1" 2>/dev/null && REPLY=alive
  fi
}
# Whether the session has live members; with "kill" as $1, SIGKILLs each and its process group.
__sweep() {
  builtin local mode=$1 f l found=1 pid pgid sess state
  if [[ -r /proc/self/stat ]]; then
    for f in /proc/[0-9]*/stat; do
      builtin read -r l < "$f" 2>/dev/null || continue
      l=\${l##*) }
      builtin set -- $l
      [[ $4 == "$sid" && $1 != [ZX] ]] || continue
      found=0
      [[ $mode == kill ]] || return 0
      f=\${f#/proc/}
      builtin kill -KILL "\${f%/stat}" "-$3" 2>/dev/null
    done
  else
    while builtin read -r pid pgid sess state; do
      [[ $sess == "$sid" && $state != Z* ]] || continue
      found=0
      [[ $mode == kill ]] || return 0
      builtin kill -KILL "$pid" "-$pgid" 2>/dev/null
    done < <(ps -A -o pid=,pgid=,sess=,stat= 2>/dev/null)
  fi
  return $found
}
__started "$sid" || exit 0
born=$REPLY
while :; do
  builtin read -r -t 2 _
  r=$?
  # A line: nothing is ever sent; ignore it.
  ((r == 0)) && continue
  if ((r > 128)); then
    __started "$sid" && [[ $REPLY == "$born" ]] && continue
    __sweep || exit 0
    continue
  fi
  # End of input: synapse is gone. A leader with another start time means the pid was reused,
  # which cannot happen while our session has members: nothing of ours is left.
  __started "$sid" && [[ $REPLY != "$born" ]] && exit 0
  # Rounds, because a process may fork while the table is read; a process stuck in the kernel
  # (state D) must not keep the watchdog forever.
  for ((r = 0; r < 100; r++)); do
    # Each round: once the session has emptied, its id may already name someone else's session.
    __started "$sid" && [[ $REPLY != "$born" ]] && exit 0
    __sweep kill || exit 0
    sleep 0.02 2>/dev/null
  done
  exit 0
done
`;

/** One running watchdog. */
export interface Watchdog {
  readonly pid: number;
  readonly exited: Promise<unknown>;
  /** SIGKILL; for when its session has surely ended, or is being killed by the pool itself. */
  stop(): void;
}

/**
 * Starts the watchdog for the session led by `sid`. detached: its own session, so the shell's
 * session walks (kills, survivor checks) never see it, and no terminal signal reaches it.
 * unref: a watchdog guarding the background jobs of a retired shell must not keep synapse alive.
 */
export function startWatchdog(scriptPath: string, sid: number, env: Readonly<Record<string, string>>): Watchdog {
  const proc = runtime.spawn([trustedBinary("bash") ?? "/bin/bash", "--noprofile", "--norc", scriptPath, String(sid)], {
    cwd: "/",
    // The same environment as the shells (no process of ours outside synapse holds the keys), but
    // the system PATH: it runs `ps` and `sleep` outside any sandbox, after synapse is gone.
    env: { ...env, PATH: SYSTEM_PATH_DIRS.join(":") },
    stdin: "pipe",
    stdout: "ignore",
    stderr: "ignore",
    newSession: true,
  });
  proc.unref();
  return {
    pid: proc.pid,
    exited: proc.exited,
    stop() {
      try {
        proc.kill("SIGKILL");
      } catch {
        // already gone
      }
    },
  };
}

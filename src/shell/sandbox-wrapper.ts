// What a sandboxed shell runs as: bubblewrap's first process (pid 1 inside) ends the whole sandbox,
// background jobs included, as soon as the program it started exits. A pooled shell's jobs must
// outlive the shell (as they do unsandboxed: a dev server started before the shell was retired),
// so bwrap starts this small bash (pid 2), which runs the pooled shell (pid 3) and outlives it
// while jobs remain.
//
// When the shell exits and jobs remain, it prints "\x01TOKEN exit STATUS\0" on the shell's stdout
// (bwrap itself still runs, so the pool learns of the shell's end from this record), then waits
// for the jobs. With none left it just exits with the shell's status, and so does bwrap.

/** `bash -c SANDBOX_WRAPPER BASH TOKEN`: $0 is the shell to run, $1 the record token. */
export const SANDBOX_WRAPPER = `"$0" --noprofile --norc
s=$?
__left() {
  builtin local f
  for f in /proc/[0-9]*; do
    f=\${f#/proc/}
    ((f == 1 || f == $$)) || return 0
  done
  return 1
}
if __left; then
  builtin printf '\\1%s exit %s\\0' "$1" "$s"
  while __left; do sleep 1; done
fi
exit "$s"
`;

/** Namespace pid of the wrapper and of the pooled shell (a fresh PID namespace counts from 1). */
export const WRAPPER_NS_PID = 2;
export const SHELL_NS_PID = 3;

/** The body of a record that says the sandboxed shell exited: its status, else null. */
export function exitRecordStatus(body: string): number | null {
  return /^exit \d+$/.test(body) ? Number(body.slice(5)) : null;
}

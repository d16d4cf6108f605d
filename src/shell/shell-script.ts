// The bash side of a pooled shell: the init script each shell sources once, the small script
// written for each command, and the parser for the record a shell prints when a command ends.

/** Traps a command may set; cleared before the next command so none reaches it. */
const TRAPS = [
  "EXIT ERR DEBUG RETURN HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2",
  "PIPE ALRM TERM CONT URG XCPU XFSZ VTALRM PROF WINCH IO SYS",
].join(" ");

/**
 * Each shell sources this once (`source init.sh REQUEST_FILE TOKEN`). For every command the pool
 * writes a script to REQUEST_FILE (see commandScript) and sends RUN_LINE, which sources it and
 * then calls __sy_p. That prints on stdout: the output of `trap -p` (empty unless the command set
 * a trap), the record "\x01TOKEN STATUS\n", "\x04" when the shell lost its limits (below), then —
 * only when a background job was started — "\x03" and the job pids one a line, then "\x02", the
 * final directory, "\0".
 *
 * - `set -m` gives every job its own process group, so a command can be killed as a whole
 *   without killing the shell, and the shell can tell its background jobs apart.
 * - Options a command changed are put back at once (a string compare tells). Traps are cleared
 *   before the next command when `trap -p` printed anything.
 * - The open-files and processes limits are put back too: with `ulimit -n 5` left in place no
 *   later command could even open its output pipe. Plain `ulimit -n 5` lowers the hard limit as
 *   well, which only root can raise again: "\x04" then tells the pool to replace the shell.
 *   (The shell's own stderr goes nowhere, so its complaint needs no redirection, which would
 *   cost more system calls than the limits themselves.)
 * - Our names are readonly, so a command cannot break the machinery by reusing them.
 */
export const INIT_SCRIPT = `set -m
set +o history 2>/dev/null
__sy_r=$1 __synapse_tok=$2 __synapse_v= __synapse_bang= __synapse_opts= __synapse_o0= __synapse_env0=
__synapse_umask= __synapse_vars0= __synapse_reset= __synapse_untrap= __synapse_limits=
__synapse_opts=$(builtin set +o; builtin shopt -p)
__synapse_o0="$-:$SHELLOPTS:$BASHOPTS"
__synapse_env0=$(builtin export -p)
__synapse_umask=$(builtin umask)
__synapse_limits=(-n "$(builtin ulimit -Sn)" -u "$(builtin ulimit -Su)")
builtin ulimit -S "\${__synapse_limits[@]}" 2>/dev/null || __synapse_limits=(-n "$(builtin ulimit -Sn)")
builtin mapfile -t __synapse_v < <(builtin compgen -v)
__synapse_vars0=" \${__synapse_v[*]} "
__synapse_v=
__sy_p() {
  builtin local status=$? __synapse_lost=
  [[ "$-:$SHELLOPTS:$BASHOPTS" == "$__synapse_o0" ]] || { builtin eval "$__synapse_opts"; builtin set -m; } 2>/dev/null
  builtin ulimit -S "\${__synapse_limits[@]}" || __synapse_lost=$'\\4'
  builtin trap -p
  if [[ "$!" == "$__synapse_bang" ]]; then
    builtin printf "\\1%s %s\\n%s\\2%s\\0" "$__synapse_tok" "$status" "$__synapse_lost" "$PWD"
  else
    __synapse_bang=$!
    builtin printf "\\1%s %s\\n%s\\3" "$__synapse_tok" "$status" "$__synapse_lost"
    builtin jobs -p
    builtin printf "\\2%s\\0" "$PWD"
  fi
}
__synapse_untrap='builtin trap - ${TRAPS} 2>/dev/null'
__synapse_reset='IFS=$'"'"' \\t\\n'"'"'
for __synapse_v in $(builtin compgen -v); do
  case "$__synapse_vars0" in *" $__synapse_v "*) ;; *) builtin unset -v "$__synapse_v";; esac
done 2>/dev/null
builtin eval "$__synapse_env0" 2>/dev/null
for __synapse_v in $(builtin compgen -A function); do builtin unset -f "$__synapse_v"; done 2>/dev/null
builtin unalias -a 2>/dev/null
builtin umask "$__synapse_umask"
__synapse_v='
builtin readonly __sy_r __synapse_tok __synapse_opts __synapse_o0 __synapse_env0 __synapse_umask
builtin readonly __synapse_vars0 __synapse_reset __synapse_untrap __synapse_limits
builtin readonly -f __sy_p
`;

/**
 * Sent on the shell's stdin for every command. Bash reads a pipe one byte per read(2) (half the
 * system calls of a short command went there), hence the two terse names: `__sy_r` holds the
 * request file's path, which `.` reads in one go, and `__sy_p` prints the record. Calling it
 * outside the sourced file keeps a stray `return` in a command from skipping it.
 */
export const RUN_LINE = '. "$__sy_r";__sy_p\n';

export interface CommandScript {
  command: string;
  cwd: string;
  fifo: string;
  /** The last command left traps: clear them first. */
  clearTraps: boolean;
  /** Another task used this shell last: clear its variables, functions and aliases first. */
  resetTask: boolean;
}

/**
 * The request file for one command. The command runs through `eval` so that a syntax error in it
 * fails that command alone. Its stdin is /dev/null (a command reading stdin would otherwise
 * swallow the requests that follow) and its stdout/stderr go to the output fifo, never to the
 * shell's stdout, which carries only records. NUL cannot be in a bash string, so it is dropped.
 */
export function commandScript(c: CommandScript): string {
  // All on the first line, so bash's "line N" in an error is the line of the command itself.
  const pre =
    (c.clearTraps ? 'builtin eval "$__synapse_untrap";' : "") + (c.resetTask ? 'builtin eval "$__synapse_reset";' : "");
  const command = quoteForShell(c.command.replaceAll("\0", ""));
  const cd = `builtin cd -- ${quoteForShell(c.cwd)}`;
  return `${pre}{ ${cd} && builtin eval ${command}\n} </dev/null >${quoteForShell(c.fifo)} 2>&1\n`;
}

export function quoteForShell(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export function sourceLine(initPath: string, requestPath: string, token: string): string {
  return `builtin source ${quoteForShell(initPath)} ${quoteForShell(requestPath)} ${token}\n`;
}

export interface ShellRecord {
  status: number;
  /** The command lowered a limit the shell cannot raise again: it must not run another. */
  limitsLost: boolean;
  /** Pids (= process groups) of background jobs; null when none was started since the last record. */
  jobs: number[] | null;
  pwd: string;
}

/** Parses the text between "\x01TOKEN " and the terminating NUL. */
export function parseRecord(body: string): ShellRecord {
  const nl = body.indexOf("\n");
  const dirAt = body.indexOf("\x02", nl);
  const jobsAt = body.indexOf("\x03", nl);
  const jobs =
    jobsAt === -1 || jobsAt > dirAt
      ? null
      : body
          .slice(jobsAt + 1, dirAt)
          .split("\n")
          .filter(Boolean)
          .map(Number);
  const limitsLost = body.charCodeAt(nl + 1) === 4;
  return { status: Number(body.slice(0, nl)), limitsLost, jobs, pwd: dirAt === -1 ? "" : body.slice(dirAt + 1) };
}

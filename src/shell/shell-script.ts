// The bash side of a pooled shell: an init script each shell sources once, and the one-line
// request that runs a command. Bash reads a pipe one byte per read(2), so the per-command text on
// stdin is kept tiny; the command itself comes from a request file, read in one go by `mapfile`.

/** Traps a command may set; all are cleared after every command so none reaches the next one. */
const TRAPS = "EXIT ERR DEBUG RETURN HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM CONT URG XCPU XFSZ VTALRM PROF WINCH IO SYS";

/**
 * After `source init.sh REQUEST_FILE TOKEN`, each line `builtin eval "$__synapse_step"` runs the
 * command described by REQUEST_FILE (NUL-separated: directory, output fifo, command text) and
 * then prints one record on stdout: "\x01TOKEN STATUS\n", the pids of live background jobs (one
 * a line), the final working directory and "\n", then "\0".
 *
 * - `set -m` gives every job its own process group, so a command can be killed as a whole
 *   without killing the shell, and the shell can tell its background jobs apart.
 * - The command's stdin is /dev/null (a command that reads stdin would otherwise swallow the
 *   requests that follow) and its stdout/stderr go to a per-command fifo, never to the shell's
 *   stdout, which carries only records.
 * - Options and traps the command changed are put back; exported variables stay (the pool only
 *   hands a shell to another task after `__synapse_reset`).
 */
export const INIT_SCRIPT = `set -m
set +o history 2>/dev/null
__synapse_req=$1 __synapse_tok=$2 __synapse_s=0 __synapse_v= __synapse_r=
__synapse_opts=$(builtin set +o; builtin shopt -p)
__synapse_o0="$-:$SHELLOPTS:$BASHOPTS"
__synapse_env0=$(builtin export -p)
__synapse_umask=$(builtin umask)
builtin mapfile -t __synapse_v < <(builtin compgen -v)
__synapse_vars0=" \${__synapse_v[*]} "
__synapse_v=
__synapse_step='builtin jobs >/dev/null 2>&1
builtin mapfile -d "" -t __synapse_r <"$__synapse_req"
{ builtin cd -- "\${__synapse_r[0]}" && builtin eval "\${__synapse_r[2]}"
} </dev/null >"\${__synapse_r[1]}" 2>&1
__synapse_s=$?
[[ "$-:$SHELLOPTS:$BASHOPTS" == "$__synapse_o0" ]] || { builtin eval "$__synapse_opts"; builtin set -m; } 2>/dev/null
builtin trap - ${TRAPS} 2>/dev/null
builtin printf "\\1%s %s\\n" "$__synapse_tok" "$__synapse_s"
builtin jobs -p
builtin pwd
builtin printf "\\0"'
__synapse_reset='IFS=$'"'"' \\t\\n'"'"'
for __synapse_v in $(builtin compgen -v); do
  case "$__synapse_vars0" in *" $__synapse_v "*) ;; *) builtin unset -v "$__synapse_v";; esac
done 2>/dev/null
builtin eval "$__synapse_env0" 2>/dev/null
for __synapse_v in $(builtin compgen -A function); do builtin unset -f "$__synapse_v"; done
builtin unalias -a 2>/dev/null
builtin umask "$__synapse_umask"
__synapse_v='
builtin readonly __synapse_req __synapse_tok __synapse_opts __synapse_o0 __synapse_env0 __synapse_umask __synapse_vars0 __synapse_step __synapse_reset
`;

export const RUN_LINE = 'builtin eval "$__synapse_step"\n';
/** Same, after clearing what an earlier task left in the shell (variables, functions, aliases). */
export const RESET_AND_RUN_LINE = 'builtin eval "$__synapse_reset"; builtin eval "$__synapse_step"\n';

export function quoteForShell(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export function sourceLine(initPath: string, requestPath: string, token: string): string {
  return `builtin source ${quoteForShell(initPath)} ${quoteForShell(requestPath)} ${token}\n`;
}

/** The request file's contents. NUL cannot appear in a bash string, so it is dropped from the command. */
export function requestText(cwd: string, fifo: string, command: string): string {
  return `${cwd}\0${fifo}\0${command.replaceAll("\0", "")}\0`;
}

export interface ShellRecord {
  status: number;
  jobs: number[];
  pwd: string;
}

/** Parses the text between the record header and its terminating NUL. */
export function parseRecord(body: string): ShellRecord {
  const nl = body.indexOf("\n");
  const status = Number(body.slice(0, nl));
  const rest = body.slice(nl + 1);
  // Job pids are digits and newlines; the directory is the first thing starting with "/".
  const slash = rest.indexOf("/");
  const jobs = rest
    .slice(0, slash === -1 ? rest.length : slash)
    .split("\n")
    .filter(Boolean)
    .map(Number);
  const pwd = slash === -1 ? "" : rest.slice(slash, rest.endsWith("\n") ? -1 : undefined);
  return { status, jobs, pwd };
}

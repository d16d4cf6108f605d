// A user's own `!command` as the conversation stores it: the words the model reads (what ran, what
// it printed), and those words read back. One module, so the writer (executor/user-shell.ts) and
// the readers (a resumed session's replay, the session's title) cannot drift apart. Pure.

export interface UserShellRun {
  command: string;
  output: string;
  failed: boolean;
}

const PREAMBLE = "The user ran a shell command themselves (not a request to act on it):";
const SHAPE = new RegExp(
  "^The user ran a shell command themselves[^\\n]*\\n<bash-input>([\\s\\S]*?)</bash-input>\\n" +
    '<bash-output( failed="true")?>([\\s\\S]*)</bash-output>$',
);

/** What the model is told about the user's command. */
export function userShellText({ command, output, failed }: UserShellRun): string {
  return [
    PREAMBLE,
    `<bash-input>${command}</bash-input>`,
    `<bash-output${failed ? ' failed="true"' : ""}>${output}</bash-output>`,
  ].join("\n");
}

/** The command a stored text block carries, or undefined when the block is not a `!command`'s. */
export function parseUserShellText(text: string): UserShellRun | undefined {
  const m = SHAPE.exec(text);
  return m ? { command: m[1] ?? "", output: m[3] ?? "", failed: Boolean(m[2]) } : undefined;
}

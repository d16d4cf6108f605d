// Parses the Bash command that starts a sub-agent: `task:explore --prompt "<p>" [--description "<d>"]`
// (or `task:general`), with `-p`/`-d` short forms and quoting as a shell would read it: pure.

export type TaskKind = "explore" | "general";

export interface TaskSpec {
  kind: TaskKind;
  prompt: string;
  /** Short label for the status row; absent when the model gave none. */
  description?: string;
}

export const TASK_SYNTAX =
  'task:explore --prompt "<what to find out>" [--description "<short label>"] ' +
  "(or task:general; -p and -d are short forms)";

const TASK_PREFIX = /^\s*task:/;

/** True for a Bash command that asks for a sub-agent (well-formed or not). */
export function isTaskCommand(command: unknown): command is string {
  return typeof command === "string" && TASK_PREFIX.test(command);
}

/** The command of a Bash tool call's input, when it is a task command. */
export function taskCommandOf(name: string, input: unknown): string | undefined {
  if (name !== "Bash" || !input || typeof input !== "object") return undefined;
  const command = (input as Record<string, unknown>).command;
  return isTaskCommand(command) ? command : undefined;
}

/** Words as bash would split them: single quotes literal, double quotes with \" \\ \$ \` escapes. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error("unterminated single quote");
      word += text.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < text.length && text.charAt(j) !== '"'; j++) {
        if (text.charAt(j) === "\\" && j + 1 < text.length && '"\\$`\n'.includes(text.charAt(j + 1))) {
          j++;
          if (text.charAt(j) !== "\n") word += text.charAt(j);
        } else word += text.charAt(j);
      }
      if (j >= text.length) throw new Error("unterminated double quote");
      i = j;
      inWord = true;
    } else if (ch === "\\") {
      if (i + 1 < text.length && text.charAt(i + 1) !== "\n") word += text.charAt(i + 1);
      i++;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else if (";|&<>()`$".includes(ch)) {
      // A task command is not a shell pipeline: refuse rather than silently drop the rest.
      throw new Error(`unquoted "${ch}" (a task command cannot be combined with shell syntax)`);
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The task a command asks for, or an error message that explains the syntax. */
export function parseTaskCommand(command: string): TaskSpec | { error: string } {
  const fail = (why: string) => ({ error: `Malformed task command: ${why}. Usage: ${TASK_SYNTAX}` });
  let words: string[];
  try {
    words = shellWords(command);
  } catch (err) {
    return fail((err as Error).message);
  }
  const head = words.shift() ?? "";
  const kind = head.slice("task:".length);
  if (kind !== "explore" && kind !== "general") return fail(`unknown task kind "${head}"`);
  let prompt: string | undefined;
  let description: string | undefined;
  for (let word = words.shift(); word !== undefined; word = words.shift()) {
    const eq = word.startsWith("--") ? word.indexOf("=") : -1;
    const flag = eq > 0 ? word.slice(0, eq) : word;
    const value = eq > 0 ? word.slice(eq + 1) : words.shift();
    if (flag !== "--prompt" && flag !== "-p" && flag !== "--description" && flag !== "-d") {
      return fail(`unexpected "${word}"`);
    }
    if (value === undefined) return fail(`${flag} needs a value`);
    if (flag === "--prompt" || flag === "-p") prompt = value;
    else description = value;
  }
  if (!prompt?.trim()) return fail("--prompt is missing or empty");
  return description?.trim() ? { kind, prompt, description: description.trim() } : { kind, prompt };
}

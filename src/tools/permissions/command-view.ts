// The commands a command line really runs, as permission checks must see them: every simple
// command, plus what hides behind wrappers (`sudo x`, `env A=1 x`, `timeout 5 x`, `xargs x`,
// `find -exec x`) and inside `bash -c "…"` / `eval "…"`.

import { parseShell, type SimpleCommand, type Word } from "./shell-parse.ts";

export interface CommandView {
  /** The words to match, assignments first. */
  words: Word[];
  assignments: Word[];
  redirects: SimpleCommand["redirects"];
  /** The command this output is piped into, or that runs this one's output as its argument. */
  feeds: CommandView[];
  /** Found behind a wrapper or inside `bash -c`: shown when it is what is refused. */
  nested: boolean;
}

export type CommandViews = { ok: true; commands: CommandView[] } | { ok: false; error: string };

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "busybox"]);
const MAX_DEPTH = 4;

/** Wrappers that run their arguments as a command; the value says how many option values to skip. */
function unwrap(words: Word[]): Word[] | null {
  const name = words[0]?.text.replace(/^.*\//, "");
  let i = 1;
  const skipOptions = (withValue: Set<string> = new Set()) => {
    while (i < words.length && words[i]!.text.startsWith("-") && words[i]!.text !== "-") {
      const opt = words[i]!.text;
      i++;
      if (opt === "--") break;
      if (withValue.has(opt)) i++;
    }
  };
  switch (name) {
    case "sudo":
    case "doas":
      skipOptions(new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"]));
      break;
    case "env":
      skipOptions(new Set(["-u", "-C", "-S"]));
      while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!.text)) i++;
      break;
    case "nohup":
    case "command":
    case "builtin":
    case "exec":
    case "time":
    case "stdbuf":
    case "setsid":
    case "chroot":
      skipOptions();
      break;
    case "nice":
    case "ionice":
      skipOptions(new Set(["-n", "-c"]));
      break;
    case "timeout":
      skipOptions(new Set(["-s", "-k", "--signal", "--kill-after"]));
      i++; // the duration
      break;
    case "xargs":
      skipOptions(new Set(["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a"]));
      break;
    default:
      return null;
  }
  return i < words.length ? words.slice(i) : null;
}

/** The command string of `bash -c STR` / `eval STR…`, when it is known before running. */
function innerScript(words: Word[]): string | null {
  const name = words[0]?.text.replace(/^.*\//, "");
  if (name === "eval") {
    const rest = words.slice(1);
    return rest.length ? rest.map((w) => w.text).join(" ") : null;
  }
  if (!name || !SHELLS.has(name)) return null;
  for (let i = 1; i < words.length; i++) {
    const t = words[i]!.text;
    if (!t.startsWith("-")) return null;
    if (/^-[a-z]*c[a-z]*$/.test(t)) return words[i + 1]?.text ?? null;
  }
  return null;
}

/** `find … -exec cmd … ;` runs cmd for every file. */
function findExecs(words: Word[]): Word[][] {
  if (words[0]?.text.replace(/^.*\//, "") !== "find") return [];
  const out: Word[][] = [];
  for (let i = 1; i < words.length; i++) {
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(words[i]!.text)) continue;
    const start = i + 1;
    let end = start;
    while (end < words.length && words[end]!.text !== ";" && words[end]!.text !== "+") end++;
    if (end > start) out.push(words.slice(start, end));
    i = end;
  }
  return out;
}

export function viewCommands(source: string, depth = 0): CommandViews {
  const parsed = parseShell(source);
  if (!parsed.ok) return parsed;
  const views: CommandView[] = parsed.commands.map((c) => ({
    words: c.words,
    assignments: c.assignments,
    redirects: c.redirects,
    feeds: [],
    nested: false,
  }));
  parsed.commands.forEach((c, i) => {
    if (c.pipedFrom !== undefined) views[c.pipedFrom]!.feeds.push(views[i]!);
    if (c.insideOf !== undefined) views[i]!.feeds.push(views[c.insideOf]!);
  });
  const extra: CommandView[] = [];
  const addNested = (words: Word[], from: CommandView) => {
    const view: CommandView = { words, assignments: [], redirects: [], feeds: from.feeds, nested: true };
    extra.push(view);
    return view;
  };
  const explore = (view: CommandView, level: number): string | null => {
    if (level > MAX_DEPTH) return "commands nested too deeply";
    const inner = unwrap(view.words);
    if (inner) {
      const err = explore(addNested(inner, view), level + 1);
      if (err) return err;
    }
    for (const exec of findExecs(view.words)) {
      const err = explore(addNested(exec, view), level + 1);
      if (err) return err;
    }
    const script = innerScript(view.words);
    if (script !== null && depth < MAX_DEPTH) {
      const sub = viewCommands(script, depth + 1);
      if (!sub.ok) return `inside ${view.words[0]!.text}: ${sub.error}`;
      for (const v of sub.commands) extra.push({ ...v, nested: true, feeds: v.feeds.length ? v.feeds : view.feeds });
    }
    return null;
  };
  for (const view of views) {
    const err = explore(view, 0);
    if (err) return { ok: false, error: err };
  }
  return { ok: true, commands: [...views, ...extra].filter((v) => v.words.length || v.assignments.length || v.redirects.length) };
}

/** The command as one line of words, for messages. */
export function commandText(view: CommandView): string {
  return [...view.assignments, ...view.words].map((w) => w.raw).join(" ");
}

// The commands a command line really runs, as permission checks must see them: every simple
// command, plus what hides behind wrappers (`sudo x`, `env A=1 x`, `timeout 5 x`, `xargs x`,
// `find -exec x`) and inside `bash -c "…"` / `eval "…"`.

import { braceExpanded } from "./brace-expand.ts";
import { parseShell, type SimpleCommand, type Word } from "./shell-parse.ts";
import { itemAt } from "../text/checked-index.ts";

export interface CommandView {
  /** The words to match, assignments first. */
  words: Word[];
  assignments: Word[];
  redirects: SimpleCommand["redirects"];
  /** The command this output is piped into, or that runs this one's output as its argument. */
  feeds: CommandView[];
  /** Found behind a wrapper or inside `bash -c`: shown when it is what is refused. */
  nested: boolean;
  /** Its standard input comes from the command before it in a pipeline. */
  piped?: boolean;
  /** A shell that runs a script no one can read before it runs (`… | bash`, `bash <(…)`). */
  unknownScript?: boolean;
}

export type CommandViews = { ok: true; commands: CommandView[] } | { ok: false; error: string };

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "busybox"]);
const MAX_DEPTH = 4;

/** Wrappers that run their arguments as a command; the value says how many option values to skip. */
function unwrap(words: Word[]): Word[] | null {
  const name = words[0]?.text.replace(/^.*\//, "");
  let i = 1;
  const skipOptions = (withValue: Set<string> = new Set()) => {
    while (i < words.length && itemAt(words, i).text.startsWith("-") && itemAt(words, i).text !== "-") {
      const opt = itemAt(words, i).text;
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
      while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(itemAt(words, i).text)) i++;
      break;
    case "nohup":
    case "command":
    case "builtin":
    case "time":
    case "stdbuf":
    case "setsid":
    case "coproc":
    case "unbuffer":
    case "busybox":
      skipOptions();
      break;
    case "watch":
      // watch hands its words, joined, to `sh -c`.
      skipOptions(new Set(["-n", "--interval"]));
      return i < words.length ? REMOTE(words.slice(i)) : null;
    case "exec":
      skipOptions(new Set(["-a"]));
      break;
    case "chroot":
    case "flock":
      // The folder or lock file comes first, then the command.
      skipOptions(new Set(["--userspec", "--groups", "-w", "--timeout", "-E", "--conflict-exit-code"]));
      i++;
      break;
    case "strace":
    case "ltrace":
      skipOptions(new Set(["-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X"]));
      break;
    case "ssh":
      // `ssh localhost rm -rf ~` runs on this machine as easily as on another.
      skipOptions(
        new Set([
          "-p",
          "-i",
          "-l",
          "-o",
          "-F",
          "-J",
          "-L",
          "-R",
          "-D",
          "-b",
          "-c",
          "-E",
          "-e",
          "-m",
          "-O",
          "-Q",
          "-S",
          "-W",
          "-w",
          "-B",
          "-I",
        ]),
      );
      i++;
      return i < words.length ? REMOTE(words.slice(i)) : null;
    case "parallel":
      skipOptions(
        new Set(["-j", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "-d", "--delimiter", "-I", "-n", "-N"]),
      );
      {
        const end = words.findIndex((w, k) => k >= i && /^:::+$/.test(w.text));
        return i < (end < 0 ? words.length : end) ? [...words.slice(i, end < 0 ? undefined : end), STDIN_WORDS] : null;
      }
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
      // xargs adds the words it reads: `echo ~ | xargs rm -rf` removes a folder named at run time.
      return i < words.length ? [...words.slice(i), STDIN_WORDS] : null;
    default:
      return null;
  }
  return i < words.length ? words.slice(i) : null;
}

/** ssh and watch join the command's words into one line for a shell. */
const REMOTE = (words: Word[]): Word[] => [
  { text: "bash", raw: "bash", dynamic: false },
  { text: "-c", raw: "-c", dynamic: false },
  {
    text: words.map((w) => w.text).join(" "),
    raw: words.map((w) => w.raw).join(" "),
    dynamic: words.some((w) => w.dynamic),
  },
];

const STDIN_WORDS: Word = { text: "(words read from input)", raw: "(words read from input)", dynamic: true };

/** Scripts a command stores to run later: `trap 'CMD' EXIT`, `alias ls='CMD'`. */
function storedScripts(words: Word[]): string[] {
  const name = words[0]?.text;
  const args = words.slice(1).filter((w) => !w.text.startsWith("-"));
  if (name === "trap" && args.length >= 2) return [itemAt(args, 0).text];
  if (name === "alias") return args.flatMap((w) => (/^[^=]+=/.test(w.text) ? [w.text.replace(/^[^=]+=/, "")] : []));
  return [];
}

/** A shell reading its script from standard input: the script, when it is written out here. */
function stdinScript(view: CommandView): string | null | undefined {
  const name = view.words[0]?.text.replace(/^.*\//, "");
  if (!name || !(SHELLS.has(name) || name === "source" || name === ".")) return undefined;
  // `source <(…)` and `bash <(…)` run what another command prints; `bash x.sh` runs a file.
  const operand = view.words.slice(1).find((w) => !w.text.startsWith("-") || w.text === "-");
  if (name === "source" || name === ".")
    return operand && (operand.dynamic || /^\/dev\/(stdin|fd\/)|^\/proc\//.test(operand.text)) ? null : undefined;
  if (view.words.slice(1).some((w) => /^-[a-z]*c[a-z]*$/.test(w.text))) return undefined;
  if (operand && operand.text !== "-" && !/^\/dev\/(stdin|fd\/)|^\/proc\//.test(operand.text))
    return operand.dynamic ? null : undefined;
  const input = [...view.redirects].reverse().find((r) => r.op.startsWith("<") && r.op !== "<&");
  if (input?.op === "<<<") return input.target.dynamic ? null : input.target.text;
  if (input?.op === "<<" || input?.op === "<<-") return input.body ?? null;
  if (input || view.piped || operand) return null;
  return undefined; // a bare `bash` reads /dev/null here
}

const STRING_OPTIONS: Record<string, string[]> = {
  env: ["-S", "--split-string"],
  su: ["-c", "--command"],
  runuser: ["-c", "--command"],
  script: ["-c", "--command"],
  flock: ["-c", "--command"],
  mapfile: ["-C"],
  readarray: ["-C"],
};

/**
 * Variables and git settings whose value is a command git, ssh or bash runs later:
 * `GIT_SSH_COMMAND='rm -rf ~' git fetch`, `git -c core.pager='…' log`, `git -c alias.x='!…' x`.
 */
const COMMAND_VARIABLES = new RegExp(
  `^(${[
    "GIT_SSH_COMMAND|GIT_SSH|GIT_EDITOR|GIT_SEQUENCE_EDITOR|EDITOR|VISUAL|GIT_PAGER|PAGER|MANPAGER",
    "GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|PROMPT_COMMAND",
  ].join("|")})=`,
);
const COMMAND_GIT_KEYS = new RegExp(
  `^(${[
    String.raw`core\.(pager|editor|sshcommand|fsmonitor|askpass|gitproxy)|sequence\.editor|alias\..+`,
    String.raw`diff\.external|diff\..+\.(command|textconv)|credential\.helper|filter\..+\.(clean|smudge|process)`,
    String.raw`uploadpack\.packobjectshook|pager\..+|merge\..+\.driver|gpg\.program|gpg\..+\.program`,
  ].join("|")})=`,
  "i",
);

/** Command lines held in variables and settings of this command, and whether one is unknowable. */
function configuredScripts(view: CommandView): { scripts: string[]; unknown: boolean } {
  const scripts: string[] = [];
  let unknown = false;
  const words = view.words;
  const settings = [...view.assignments, ...(base(words[0]) === "env" ? words.slice(1) : [])];
  for (const w of settings) if (COMMAND_VARIABLES.test(w.text)) scripts.push(w.text.replace(/^[^=]*=/, ""));
  if (base(words[0]) === "git") {
    for (let i = 1; i < words.length; i++) {
      const t = itemAt(words, i).text;
      if (/^--config-env(=|$)/.test(t)) unknown = true;
      const value =
        t === "-c"
          ? words[i + 1]?.text
          : t.startsWith("-c")
            ? t.slice(2)
            : /^--(upload-pack|receive-pack|exec)=/.test(t)
              ? `x=${t.replace(/^[^=]*=/, "")}`
              : undefined;
      if (value === undefined) continue;
      if (/^--/.test(t) || COMMAND_GIT_KEYS.test(value)) scripts.push(value.replace(/^[^=]*=!?/, ""));
      if (/^core\.hookspath=/i.test(value)) unknown = true; // hooks are files, run by later git commands
    }
    // `git config core.fsmonitor 'cmd'` stores a command a later, harmless `git status` runs.
    const at = words.findIndex((w, i) => i > 0 && w.text === "config");
    if (at > 0) {
      const [key, value] = words
        .slice(at + 1)
        .filter((w) => !w.text.startsWith("-"))
        .map((w) => w.text);
      if (key && value !== undefined && COMMAND_GIT_KEYS.test(`${key}=`)) scripts.push(value.replace(/^!/, ""));
      if (key && /^core\.hookspath$/i.test(key)) unknown = true;
    }
  }
  return { scripts, unknown };
}

function base(word: Word | undefined): string {
  return word?.text.replace(/^.*\//, "") ?? "";
}

/** The command string of `bash -c STR` / `eval STR…`, when it is known before running. */
function innerScript(words: Word[]): string | null {
  const name = words[0]?.text.replace(/^.*\//, "");
  if (name === "eval") {
    const rest = words.slice(1);
    return rest.length ? rest.map((w) => w.text).join(" ") : null;
  }
  // Options whose value is a command line: `env -S 'rm -rf ~'`, `su -c …`, `script -c …`,
  // `flock f -c …`, `mapfile -C …`.
  const option = STRING_OPTIONS[name ?? ""];
  if (option) {
    for (let i = 1; i < words.length; i++) {
      const t = itemAt(words, i).text;
      for (const o of option) {
        if (t === o) return words[i + 1]?.text ?? null;
        if (o.startsWith("--") && t.startsWith(`${o}=`)) return t.slice(o.length + 1);
        if (!o.startsWith("--") && t.startsWith(o) && t.length > o.length) return t.slice(o.length);
      }
    }
    return null;
  }
  if (!name || !SHELLS.has(name)) return null;
  for (let i = 1; i < words.length; i++) {
    const t = itemAt(words, i).text;
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
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(itemAt(words, i).text)) continue;
    const start = i + 1;
    let end = start;
    while (end < words.length && itemAt(words, end).text !== ";" && itemAt(words, end).text !== "+") end++;
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
    if (c.pipedFrom !== undefined) {
      itemAt(views, c.pipedFrom).feeds.push(itemAt(views, i));
      itemAt(views, i).piped = true;
    }
    if (c.insideOf !== undefined) itemAt(views, i).feeds.push(itemAt(views, c.insideOf));
  });
  const extra: CommandView[] = [];
  const addNested = (words: Word[], from: CommandView) => {
    const view: CommandView = { words, assignments: [], redirects: [], feeds: from.feeds, nested: true };
    extra.push(view);
    return view;
  };
  const explore = (view: CommandView, level: number): string | null => {
    if (level > MAX_DEPTH) return "commands nested too deeply";
    const expanded = braceExpanded(view.words);
    if (expanded) {
      const err = explore(addNested(expanded, view), level + 1);
      if (err) return err;
    }
    const scripts = storedScripts(view.words);
    const configured = configuredScripts(view);
    scripts.push(...configured.scripts);
    if (configured.unknown) view.unknownScript = true;
    const fromStdin = stdinScript(view);
    if (fromStdin === null) view.unknownScript = true;
    else if (fromStdin !== undefined) scripts.push(fromStdin);
    for (const text of scripts) {
      if (depth >= MAX_DEPTH) return "commands nested too deeply";
      const sub = viewCommands(text, depth + 1);
      if (!sub.ok) return `inside ${itemAt(view.words, 0).text}: ${sub.error}`;
      for (const v of sub.commands) extra.push({ ...v, nested: true, feeds: v.feeds.length ? v.feeds : view.feeds });
    }
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
    if (script !== null) {
      if (depth >= MAX_DEPTH) return "commands nested too deeply";
      const sub = viewCommands(script, depth + 1);
      if (!sub.ok) return `inside ${itemAt(view.words, 0).text}: ${sub.error}`;
      for (const v of sub.commands) extra.push({ ...v, nested: true, feeds: v.feeds.length ? v.feeds : view.feeds });
    }
    return null;
  };
  for (const view of views) {
    const err = explore(view, 0);
    if (err) return { ok: false, error: err };
  }
  return {
    ok: true,
    commands: [...views, ...extra].filter((v) => v.words.length || v.assignments.length || v.redirects.length),
  };
}

/** The command as one line of words, for messages. */
export function commandText(view: CommandView): string {
  return [...view.assignments, ...view.words].map((w) => w.raw).join(" ");
}

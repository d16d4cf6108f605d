// Paths whose change or reading reaches past the file: secrets (`.env`, `~/.ssh` …), the settings
// that make later commands run something else, and files shared through hard links.

import { basename } from "node:path";
import { expandGlobPath } from "./glob-expand.ts";
import { homeExpanded, wordPath } from "./input-paths.ts";
import type { Word } from "./shell-parse.ts";
import { isWithin, realPathOf } from "./workspace.ts";
import { itemAt } from "../text/checked-index.ts";

// Case-blind: on macOS's and Windows' file systems `.ENV` and `~/.SSH` are the same files.
const TEMPLATE_ENV = /^\.env\.(example|sample|template|dist|defaults)$/i;

/**
 * The credential stores in the home folder: a command may read outside the workspace
 * (`cat ~/.aws/credentials` would go to the model), so these are protected like `~/.ssh`.
 */
const HOME_SECRETS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".netrc",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
  ".docker/config.json",
  ".kube",
  ".config/gh",
  ".config/gcloud",
  ".azure",
];

/**
 * `.env`, `.env.local` … (templates excepted), `~/.ssh` and the other credential stores of home,
 * and synapse's own folders (`ownDirs`: its config, whose rules a later run obeys, and its sessions).
 */
export function isProtectedPath(path: string, home: string, ownDirs: readonly string[] = []): boolean {
  const h = home.replace(/\/$/, "");
  // Also through a link: `notes -> .env` is the same file.
  return [path, realPathOf(path)].some((p) => {
    const name = basename(p);
    if (/^\.env(\..+)?$/i.test(name) && !TEMPLATE_ENV.test(name)) return true;
    const lower = p.toLowerCase();
    if (ownDirs.some((d) => isWithin(p, d) || isWithin(lower, d.toLowerCase()))) return true;
    return HOME_SECRETS.some((s) => isWithin(lower, `${h}/${s}`.toLowerCase()));
  });
}

/**
 * Files that make later, allowed commands run something else, so changing them is the user's call:
 * `.synapse/…` (a project's config could widen what the next run's accept-edits allows) and git's
 * `config` and `hooks/` (`core.fsmonitor`, `core.pager` or a hook run by a plain `git status`).
 */
export function settingsKind(path: string): string | null {
  for (const p of new Set([path, realPathOf(path)])) {
    if (/(^|\/)\.synapse(\/|$)/i.test(p)) return "synapse's own settings";
    // `commondir` names the folder git takes its config from instead.
    if (/(^|\/)\.git\/(config$|commondir$|hooks(\/|$))/i.test(p))
      return "git's config or hooks (commands later git calls run)";
  }
  return null;
}

/**
 * A folder holding such settings (`.git`, `.synapse`): moving one away, or another into its
 * place, changes its config and hooks without naming them (`mv .git old && mv mine .git`), and
 * `cp f .git/` writes `.git/f`. Asked about when a command writes or moves it.
 */
export function settingsFolder(path: string): string | null {
  for (const p of new Set([path, realPathOf(path)]))
    if (/(^|\/)\.(git|synapse)$/i.test(p)) return "the folder of git's or synapse's settings";
  return null;
}

export function sharedFile(path: string): string {
  return `${path} has other hard links, which may be outside the workspace (writing it changes them all)`;
}

/** Matches of one glob looked at before the word is taken as naming a protected file. */
const MAX_GLOB_MATCHES = 1000;

/**
 * The protected file a word names: as written, after `$HOME`, or through a glob bash would expand.
 * A glob can only reach one through a segment that starts with a dot, under the home folder's dot
 * folders, or with `dotglob` (set in the same command; the shell puts options back after each).
 */
export function protectedIn(
  w: Word,
  cwd: string,
  home: string,
  dotglob: boolean,
  ownDirs: readonly string[] = [],
): string | null {
  // `~+` is the shell's folder; `~-` and `~user` could be anywhere, a credential store too.
  const plusTilde = /^~\+(?=\/|$)/.test(w.text) && !w.dynamic ? cwd + w.text.slice(2) : null;
  // `$PWD` is the shell's folder too (`cat $PWD/.env`); judged here like `~+`.
  const pwd = /^(\$PWD|\$\{PWD\})(?=\/|$)/.exec(w.text);
  if (pwd && !/^'/.test(w.raw)) {
    const rest = w.text.slice(pwd[0].length);
    if (!/[$`]/.test(rest)) return protectedIn({ ...w, text: cwd + rest, dynamic: false }, cwd, home, dotglob, ownDirs);
  }
  if (!plusTilde && /^~[^/]/.test(w.text) && !/^['"\\]/.test(w.raw))
    return `${w.raw} (a folder known only when it runs)`;
  const text = plusTilde ?? homeExpanded(w, home);
  if (!text) return null;
  const path = wordPath(text, cwd, home);
  if (isProtectedPath(path, home, ownDirs)) return w.raw;
  if (!/[*?[]/.test(text)) return null;
  if (!dotglob && !/(^|\/)\.[^/]*[*?[]/.test(path) && !path.startsWith(`${home.replace(/\/$/, "")}/.`)) return null;
  // Too many matches to look at each: one of them could be protected. Loose: bracket classes and
  // `nocaseglob` would otherwise hide `.env` from the walk (`cat .[e]nv`).
  const matches = expandGlobPath(path, dotglob, MAX_GLOB_MATCHES, true);
  if (!matches) return `${w.raw} (matches too many files to check)`;
  const hit = matches.find((p) => isProtectedPath(p, home, ownDirs));
  return hit ? `${w.raw} (${hit})` : null;
}

/**
 * The parts of a word that may name a file on their own: the word, the value after `=`
 * (`--data=@f`, `--output=f`), a file after `@` (curl's `-d@f`, `--data-binary @f`), and the
 * path after a `:`.
 */
export function fileFragments(w: Word): Word[] {
  const out = [w];
  const m = /^(?:[^=]*=|-[A-Za-z])?@?(.+)$/.exec(w.text);
  if (m && m[1] !== w.text) out.push({ ...w, text: itemAt(m, 1) });
  const at = /^@(.+)$/.exec(w.text);
  if (at) out.push({ ...w, text: itemAt(at, 1) });
  // git's `REV:path` and pathspec magic (`git show HEAD:.env`, `:.env`, `:(top).env`), scp's `host:path`.
  const colon = /:(?:\([^)]*\))?([^:]+)$/.exec(w.text);
  if (colon) out.push({ ...w, text: itemAt(colon, 1) });
  return out;
}

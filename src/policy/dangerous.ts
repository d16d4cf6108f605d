// The built-in list of commands that can wreck a machine in one step. They always ask, and a
// headless run refuses them unless an explicit allow rule names them.

import { dirname, isAbsolute, resolve } from "node:path";
import { commandText, type CommandView } from "./command-view.ts";
import { itemAt } from "../text/checked-index.ts";

/** Where the command runs and whose home `~` is: a path is judged after resolving it. */
export interface DangerContext {
  cwd: string;
  home: string;
}

const SHELLS_AND_INTERPRETERS = /^(sh|bash|zsh|dash|ksh|fish|python[0-9.]*|perl|ruby|node|bun|deno|php)$/;
const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|dm-|md|loop|mapper\/)/;
const DISK_TOOLS = /^(mkfs(\.\w+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|gdisk|parted|mkdosfs|mkntfs)$/;
const POWER = /^(shutdown|reboot|halt|poweroff)$/;

const base = (word: string) => word.replace(/^.*\//, "");

/**
 * A target whose loss is a disaster: the root, a top-level system folder, the home folder, or a
 * parent of the working directory.
 */
function isSweepingTarget(raw: string, text: string, ctx?: DangerContext, cwdCounts = true): boolean {
  const t = text.replace(/\/+$/, "") || "/";
  if (t === "/" || t === "/*" || /^\/[^/]+\/?\*?$/.test(text)) return true;
  if (/^~[^/]*$/.test(t) || t === "~/*") return true;
  if (/^(\$HOME|\$\{HOME\})(\/\*?)?$/.test(raw.replace(/^"|"$/g, ""))) return true;
  if (t === ".." || /^(\.\.\/)+\.\.$/.test(t) || /^(\.\.\/)+\*?$/.test(text) || t === "*" || t === "." || t === "./*")
    return true;
  return ctx ? isSweepingPath(text, ctx, cwdCounts) : false;
}

/** `*`, `.*`, `.[!.]*`, `.??*`: a last segment that takes everything in its folder. */
const MATCH_ALL = /^(\.|\*|\?|\[[!^]\.\])+$/;

/**
 * The same judgement on the resolved path, so `~/.`, `/usr/../`, `/home/me` or the workspace's own
 * absolute path are caught however they are spelled: the root, a top-level folder, the home
 * folder or a parent of it, the working directory or a parent of it, or everything inside one.
 */
function isSweepingPath(text: string, ctx: DangerContext, cwdCounts: boolean): boolean {
  let t = text;
  if (t === "~" || t.startsWith("~/")) t = ctx.home + t.slice(1);
  else if (t.startsWith("~")) return true; // ~user
  const segments = t.split("/");
  const last = segments.at(-1) ?? "";
  if (MATCH_ALL.test(last) && last !== "." && last !== "..") t = segments.slice(0, -1).join("/") || "/";
  else if (/[*?[]/.test(t)) return false;
  const path = isAbsolute(t) ? resolve(t) : resolve(ctx.cwd, t);
  if (path === "/" || dirname(path) === "/") return true;
  const holds = (outer: string, inner: string) => inner === outer || inner.startsWith(`${outer.replace(/\/$/, "")}/`);
  return (
    holds(path, ctx.home) ||
    (cwdCounts && holds(path, ctx.cwd)) ||
    (!cwdCounts && path !== ctx.cwd && holds(path, dirname(ctx.cwd)))
  );
}

function flagsOf(words: CommandView["words"]): {
  short: Set<string>;
  long: Set<string>;
  operands: CommandView["words"];
} {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: CommandView["words"] = [];
  let ended = false;
  for (const w of words.slice(1)) {
    if (!ended && w.text === "--") ended = true;
    else if (!ended && w.text.startsWith("--")) long.add(w.text.split("=")[0] ?? w.text);
    else if (!ended && /^-[A-Za-z0-9]+$/.test(w.text)) for (const c of w.text.slice(1)) short.add(c);
    else operands.push(w);
  }
  return { short, long, operands };
}

/** Why `view` is dangerous, or null. */
function dangerOf(view: CommandView, ctx?: DangerContext): string | null {
  const words = view.words;
  for (const r of view.redirects) {
    if (/>/.test(r.op) && BLOCK_DEVICE.test(r.target.text))
      return `writes straight to the disk device ${r.target.text}`;
  }
  if (view.unknownScript)
    return (
      `${words[0]?.text ?? "the shell"} runs commands that cannot be read before they run ` +
      "(from a pipe, a file descriptor, a variable or a setting)"
    );
  // CDPATH sends a later `cd name` elsewhere; BASH_ENV and ENV make every later shell source a file.
  const setting = [
    ...view.assignments,
    ...(/^(export|declare|typeset|local|readonly)$/.test(words[0]?.text ?? "") ? words.slice(1) : []),
  ].find((w) => /^(CDPATH|BASH_ENV|ENV)=/.test(w.text));
  if (setting) return `sets ${setting.text.split("=")[0]}, which changes what later commands in this shell do`;
  if (!words.length) return null;
  // `$x` with x="rm -rf ~" (or IFS games): what runs is only known when it runs.
  if (itemAt(words, 0).dynamic) return `runs a command whose name is only known when it runs (${itemAt(words, 0).raw})`;
  const name = base(itemAt(words, 0).text);
  const { short, long, operands } = flagsOf(words);
  const recursive = short.has("r") || short.has("R") || long.has("--recursive");
  if (name === "rm") {
    if (long.has("--no-preserve-root")) return "removes the root folder (--no-preserve-root)";
    const target = operands.find((w) => isSweepingTarget(w.raw, w.text, w.dynamic ? undefined : ctx));
    if (recursive && target) return `removes ${target.raw} and everything below it`;
    const unknown = operands.find((w) => w.dynamic);
    if (recursive && unknown)
      return `removes ${unknown.raw}, a folder only known when it runs, and everything below it`;
  }
  if (name === "find") {
    const starts: typeof words = [];
    for (const w of words.slice(1)) {
      if (/^-[HLP]$/.test(w.text)) continue;
      if (/^[-(!]/.test(w.text)) break;
      starts.push(w);
    }
    const deletes =
      words.some((w) => w.text === "-delete") ||
      words.some((w, i) => /^-(exec|execdir|ok|okdir)$/.test(w.text) && base(words[i + 1]?.text ?? "") === "rm");
    const target = starts.find(
      (w) => w.dynamic || (w.text !== "." && w.text !== "./" && isSweepingTarget(w.raw, w.text, ctx)),
    );
    if (deletes && target) return `deletes files everywhere under ${target.raw}`;
  }
  if ((name === "chmod" || name === "chown" || name === "chgrp") && recursive) {
    const target = operands.slice(1).find((w) => !w.dynamic && isSweepingTarget(w.raw, w.text, ctx));
    if (target) return `changes the permissions of everything under ${target.raw}`;
  }
  if (name === "mv") {
    const target = operands
      .slice(0, -1)
      .find((w) => !w.dynamic && isSweepingTarget(w.raw, w.text, ctx, false) && w.text !== "*" && w.text !== "./*");
    if (target) return `moves ${target.raw} away`;
  }
  const gitKey = gitConfigWrite(words);
  if (gitKey)
    return `git config ${gitKey} makes later git commands (also the user's own) run a program or read another config`;
  // Both make a later, harmless-looking command name run something else in the same shell.
  if (name === "hash" && short.has("p")) return "hash -p makes a later command name run another program";
  if (name === "enable" && (short.has("f") || short.has("n")))
    return "enable changes which builtins later commands run";
  if (DISK_TOOLS.test(name)) return `${name} formats or repartitions a disk`;
  if (
    name === "dd" &&
    words.some((w) => /^of=\/dev\//.test(w.text) && !/^of=\/dev\/(null|zero|stdout|stderr)$/.test(w.text))
  ) {
    return "dd writes straight to a device";
  }
  if (name === "shred" && operands.some((w) => w.text.startsWith("/dev/"))) return "shred wipes a device";
  if (name === "systemctl" && operands.some((w) => /^(poweroff|reboot|halt|kexec|rescue|emergency)$/.test(w.text)))
    return `systemctl ${itemAt(operands, 0).text} stops the machine`;
  // kill -1 (any signal to pid -1) ends every process the user owns, the terminal included.
  if (name === "kill") {
    let i = 1;
    if (words[i]?.text === "-s" || words[i]?.text === "-n") i += 2;
    else if (/^-[A-Za-z0-9]+$/.test(words[i]?.text ?? "") && words.length > 2) i++;
    if (words[i]?.text === "--") i++;
    if (words.slice(i).some((w) => w.text === "-1" || w.text === "1"))
      return "kill of every process (-1) or of init (1)";
  }
  if (POWER.test(name) || (name === "init" && (operands[0]?.text === "0" || operands[0]?.text === "6")))
    return `${name} stops the machine`;
  if (name === "curl" || name === "wget" || name === "fetch") {
    const runner = view.feeds.find(
      (f) => f.words.length && SHELLS_AND_INTERPRETERS.test(base(unwrapSudo(f.words)[0]?.text ?? "")),
    );
    if (runner) return `runs what ${name} downloads (${commandText(runner)})`;
  }
  return null;
}

/** Keys whose value is a program git runs, a config file it reads, or a folder of hooks. */
const GIT_RUNNING_KEYS = new RegExp(
  `^(${[
    String.raw`include\.path|includeif\..+\.path`,
    String.raw`core\.(fsmonitor|hookspath|pager|editor|sshcommand|askpass|gitproxy)`,
    String.raw`alias\..+|diff\.external|diff\..+\.(command|textconv)|credential\.helper`,
    String.raw`filter\..+\.(clean|smudge|process)|merge\..+\.driver|gpg\.program|gpg\..+\.program`,
    String.raw`sequence\.editor|uploadpack\.packobjectshook|pager\..+`,
  ].join("|")})$`,
  "i",
);

/** The key `git config` sets when it is one of GIT_RUNNING_KEYS (an alias only with a `!` value). */
function gitConfigWrite(words: CommandView["words"]): string | null {
  if (base(words[0]?.text ?? "") !== "git") return null;
  const at = words.findIndex((w, i) => i > 0 && w.text === "config");
  if (at < 0) return null;
  const operands: string[] = [];
  for (let i = at + 1; i < words.length; i++) {
    const t = itemAt(words, i).text;
    if (/^(--get|--get-all|--get-regexp|--list|-l|--unset|--unset-all|--remove-section)$/.test(t)) return null;
    if (t === "--file" || t === "-f" || t === "--blob" || t === "--type") i++;
    else if (!t.startsWith("-")) operands.push(t);
  }
  if (operands[0] === "set") operands.shift();
  const [key, value] = operands;
  if (!key || value === undefined || !GIT_RUNNING_KEYS.test(key)) return null;
  if (/^alias\./i.test(key) && !value.startsWith("!")) return null;
  return key;
}

function unwrapSudo(words: CommandView["words"]): CommandView["words"] {
  return base(words[0]?.text ?? "") === "sudo" ? words.slice(1).filter((w) => !w.text.startsWith("-")) : words;
}

/** `:(){ :|:& };:` and its renamings: a function that pipes into itself in the background. */
const FORK_BOMB = /([A-Za-z_:][\w:]*)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/;

/** Why the command line is on the dangerous list, and which of its commands is (absent for a fork bomb). */
export function dangerousReason(
  source: string,
  views: CommandView[],
  ctx?: DangerContext,
): { why: string; view?: CommandView } | null {
  if (FORK_BOMB.test(source)) return { why: "a fork bomb" };
  for (const view of views) {
    const why = dangerOf(view, ctx);
    if (why) return { why, view };
  }
  return null;
}

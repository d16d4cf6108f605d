// The built-in list of commands that can wreck a machine in one step. They always ask, and a
// headless run refuses them unless an explicit allow rule names them.

import { commandText, type CommandView } from "./command-view.ts";

const SHELLS_AND_INTERPRETERS = /^(sh|bash|zsh|dash|ksh|fish|python[0-9.]*|perl|ruby|node|bun|deno|php)$/;
const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|dm-|md|loop|mapper\/)/;
const DISK_TOOLS = /^(mkfs(\.\w+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|gdisk|parted|mkdosfs|mkntfs)$/;
const POWER = /^(shutdown|reboot|halt|poweroff)$/;

const base = (word: string) => word.replace(/^.*\//, "");

/**
 * A target whose loss is a disaster: the root, a top-level system folder, the home folder, or a
 * parent of the working directory.
 */
function isSweepingTarget(raw: string, text: string): boolean {
  const t = text.replace(/\/+$/, "") || "/";
  if (t === "/" || t === "/*" || /^\/[^/]+\/?\*?$/.test(text)) return true;
  if (/^~[^/]*$/.test(t) || t === "~/*") return true;
  if (/^(\$HOME|\$\{HOME\})(\/\*?)?$/.test(raw.replace(/^"|"$/g, ""))) return true;
  if (t === ".." || /^(\.\.\/)+\.\.$/.test(t) || /^(\.\.\/)+\*?$/.test(text) || t === "*" || t === "." || t === "./*") return true;
  return false;
}

function flagsOf(words: CommandView["words"]): { short: Set<string>; long: Set<string>; operands: CommandView["words"] } {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: CommandView["words"] = [];
  let ended = false;
  for (const w of words.slice(1)) {
    if (!ended && w.text === "--") ended = true;
    else if (!ended && w.text.startsWith("--")) long.add(w.text.split("=")[0]!);
    else if (!ended && /^-[A-Za-z0-9]+$/.test(w.text)) for (const c of w.text.slice(1)) short.add(c);
    else operands.push(w);
  }
  return { short, long, operands };
}

/** Why `view` is dangerous, or null. */
function dangerOf(view: CommandView): string | null {
  const words = view.words;
  for (const r of view.redirects) {
    if (/>/.test(r.op) && BLOCK_DEVICE.test(r.target.text)) return `writes straight to the disk device ${r.target.text}`;
  }
  if (!words.length) return null;
  const name = base(words[0]!.text);
  const { short, long, operands } = flagsOf(words);
  const recursive = short.has("r") || short.has("R") || long.has("--recursive");
  if (name === "rm") {
    if (long.has("--no-preserve-root")) return "removes the root folder (--no-preserve-root)";
    const target = operands.find((w) => isSweepingTarget(w.raw, w.text));
    if (recursive && target) return `removes ${target.raw} and everything below it`;
  }
  if ((name === "chmod" || name === "chown" || name === "chgrp") && recursive) {
    const target = operands.slice(1).find((w) => isSweepingTarget(w.raw, w.text));
    if (target) return `changes the permissions of everything under ${target.raw}`;
  }
  if (name === "mv") {
    const target = operands.slice(0, -1).find((w) => isSweepingTarget(w.raw, w.text) && w.text !== "*" && w.text !== "./*");
    if (target) return `moves ${target.raw} away`;
  }
  if (DISK_TOOLS.test(name)) return `${name} formats or repartitions a disk`;
  if (name === "dd" && words.some((w) => /^of=\/dev\//.test(w.text) && !/^of=\/dev\/(null|zero|stdout|stderr)$/.test(w.text))) {
    return "dd writes straight to a device";
  }
  if (name === "shred" && operands.some((w) => w.text.startsWith("/dev/"))) return "shred wipes a device";
  if (POWER.test(name) || (name === "init" && (operands[0]?.text === "0" || operands[0]?.text === "6"))) return `${name} stops the machine`;
  if (name === "curl" || name === "wget" || name === "fetch") {
    const runner = view.feeds.find((f) => f.words.length && SHELLS_AND_INTERPRETERS.test(base(unwrapSudo(f.words)[0]?.text ?? "")));
    if (runner) return `runs what ${name} downloads (${commandText(runner)})`;
  }
  return null;
}

function unwrapSudo(words: CommandView["words"]): CommandView["words"] {
  return base(words[0]?.text ?? "") === "sudo" ? words.slice(1).filter((w) => !w.text.startsWith("-")) : words;
}

/** `:(){ :|:& };:` and its renamings: a function that pipes into itself in the background. */
const FORK_BOMB = /([A-Za-z_:][\w:]*)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/;

/** Why the command line is on the dangerous list, and which of its commands is (absent for a fork bomb). */
export function dangerousReason(source: string, views: CommandView[]): { why: string; view?: CommandView } | null {
  if (FORK_BOMB.test(source)) return { why: "a fork bomb" };
  for (const view of views) {
    const why = dangerOf(view);
    if (why) return { why, view };
  }
  return null;
}

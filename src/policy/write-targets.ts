// The files a command writes by naming them as arguments (`cp x ~/.bashrc`, `tee -a /etc/hosts`,
// `sed -i … /outside/f`), so the workspace boundary holds for plainly spelled writes as it does
// for redirections. Only well-known writers are read; a program that writes on its own is beyond
// what a parser can see (the README's Safety section says so).

import type { Word } from "./shell-parse.ts";
import { itemAt } from "../text/checked-index.ts";

const base = (w: Word | undefined) => w?.text.replace(/^.*\//, "") ?? "";

/** Operands after options (`--` ends them); options in `withValue` take the next word. */
function operands(words: Word[], withValue: ReadonlySet<string> = new Set()): Word[] {
  const out: Word[] = [];
  let ended = false;
  for (let i = 1; i < words.length; i++) {
    const w = itemAt(words, i);
    if (!ended && w.text === "--") ended = true;
    else if (!ended && w.text.startsWith("-") && w.text !== "-") {
      if (withValue.has(w.text)) i++;
    } else out.push(w);
  }
  return out;
}

/** `-t DIR` / `--target-directory=DIR`: the destination named up front. */
function targetDirectory(words: Word[]): Word | undefined {
  for (let i = 1; i < words.length; i++) {
    const t = itemAt(words, i).text;
    if (t === "-t" || t === "--target-directory") return words[i + 1];
    if (t.startsWith("--target-directory="))
      return { ...itemAt(words, i), text: t.slice("--target-directory=".length) };
    if (/^-[a-zA-Z]*t$/.test(t) && !t.startsWith("--")) return words[i + 1];
  }
  return undefined;
}

/** The words naming files or folders `words` (one simple command) writes to. */
export function writeTargets(words: Word[]): Word[] {
  const name = base(words[0]);
  switch (name) {
    case "tee":
    case "touch":
    case "mkdir":
    case "truncate":
      return operands(words, new Set(["-s", "--size", "-r", "--reference", "-m", "--mode", "-d", "--date", "-t"]));
    case "mv": {
      // A move writes its sources too: they are gone from where they were (`mv .git old`).
      const dir = targetDirectory(words);
      const ops = operands(words, new Set(["-S", "--suffix", "-t", "--target-directory"]));
      return dir ? [dir, ...ops] : ops.length >= 2 ? ops : [];
    }
    case "cp":
    case "ln":
    case "install":
    case "rsync": {
      const dir = targetDirectory(words);
      if (dir) return [dir];
      const ops = operands(
        words,
        new Set(["-S", "--suffix", "-m", "--mode", "-o", "--owner", "-g", "--group", "-e", "--rsh"]),
      );
      const last = ops.at(-1);
      return ops.length >= 2 && last !== undefined ? [last] : [];
    }
    case "rm":
    case "rmdir":
    case "unlink":
    case "shred":
      // Removing is writing: `Bash(rm *)` must not reach `rm ~/.bashrc` (sweeping removals are on
      // the dangerous list whatever the rules say).
      return operands(words);
    case "chmod":
    case "chown":
    case "chgrp":
      // The first operand is the mode or owner.
      return operands(words, new Set(["--reference"])).slice(1);
    case "dd":
      return words.filter((w) => w.text.startsWith("of=")).map((w) => ({ ...w, text: w.text.slice(3) }));
    case "sed": {
      // Only an in-place edit writes; the script is the first operand unless -e/-f gave it.
      if (!words.some((w) => /^-[a-zA-Z]*i/.test(w.text) || w.text.startsWith("--in-place"))) return [];
      const scripted = words.some(
        (w) => w.text === "-e" || w.text === "-f" || w.text === "--expression" || w.text === "--file",
      );
      const ops = operands(words, new Set(["-e", "-f", "--expression", "--file", "-l"]));
      return scripted ? ops : ops.slice(1);
    }
    default:
      return [];
  }
}

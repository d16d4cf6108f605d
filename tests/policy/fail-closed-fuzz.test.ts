// Fuzz: random command lines from a grammar of programs, options, paths (inside, outside, through
// links, with `~`, `..`, globs), expansions, operators and redirections go through the fail-closed
// policy; every line it lets run unasked is run with real bash in a throwaway HOME and workspace,
// and nothing outside the workspace may change. Deterministic (seeded), bounded in count.
import { beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildPolicy, decide, type PermissionPolicy } from "../../src/policy/policy.ts";

const COUNT = 300;
let root = "";
let ws = "";
let home = "";
let policy: PermissionPolicy;

/** mulberry32: a small seeded generator, so a failure replays exactly. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROGRAMS = [
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "rg",
  "find",
  "sort",
  "uniq",
  "cut",
  "echo",
  "printf",
  "pwd",
  "git",
  "sed",
  "mkdir",
  "touch",
  "cp",
  "mv",
  "rm",
  "rmdir",
  "tee",
  "ln",
  "chmod",
  "dd",
  "truncate",
  "curl",
  "bash",
  "env",
  "xargs",
  "true",
  "test",
  "diff",
  "stat",
  "du",
  "realpath",
  "readlink",
  "basename",
  "tr",
  "date",
  "cd",
  "/bin/rm",
  "r[m]",
  "\\rm",
  "$P",
];
const OPTIONS = [
  "-l",
  "-a",
  "-r",
  "-R",
  "-f",
  "-n",
  "1",
  "-i",
  "-s",
  "-p",
  "-v",
  "-o",
  "-exec",
  "-delete",
  "-name",
  "'*'",
  "--",
  "-e",
  "-L",
  "--output=o",
  "-c",
  "--all",
  "-u",
  "-t",
  "-5",
  "-print",
  "{}",
  "\\;",
  "-fprint",
  "--follow",
];
const PATHS = [
  "a.txt",
  "src",
  "src/x.ts",
  "new.txt",
  "src/*",
  "*",
  ".*",
  "..",
  "../sib/s.txt",
  "../sib",
  "~",
  "~/",
  "~/.bashrc",
  "~/.ssh/id_rsa",
  "~/.ssh",
  "~+/../sib",
  "~-",
  "$HOME/.bashrc",
  "${HOME}/c",
  "/tmp",
  "/etc/hostname",
  "link-out",
  "link-out/s.txt",
  "dangling",
  "key",
  ".git/config",
  ".synapse/config.json",
  "~/.config/synapse/config.json",
  "$(echo ~)",
  "`echo ~`",
  "$D",
  "x=~/y",
  "{a,b}.txt",
  "s/a/b/",
  "'1e touch ../sib/pwn'",
  "s/a/b/w ../sib/w",
  "-",
  ".",
  "./src/../a.txt",
];
/** Half the paths come from these, so enough lines reach the side of the policy that runs them. */
const INSIDE = ["a.txt", "src", "src/x.ts", "new.txt", "src/*", "*", "-", ".", "out.txt", "src/new"];
const JOIN = [" && ", " ; ", " | ", " || ", "\n"];
const REDIRECT = [
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  " > out.txt",
  " > out.txt",
  " >> ~/.bashrc",
  " > ../sib/r",
  " 2>&1",
  " > $HOME/h",
  " > dangling",
  " < a.txt",
  " > link-out/x",
  " >& /tmp/x",
  " &> ~/e",
];

function commandLine(next: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const parts: string[] = [];
  for (let p = 0, n = next() < 0.3 ? 2 : 1; p < n; p++) {
    const words = [next() < 0.1 ? `X=${pick(PATHS)} ${pick(PROGRAMS)}` : pick(PROGRAMS)];
    for (let w = 0, k = Math.floor(next() * 4); w < k; w++)
      words.push(next() < 0.3 ? pick(OPTIONS) : next() < 0.5 ? pick(INSIDE) : pick(PATHS));
    parts.push(words.join(" ") + pick(REDIRECT));
  }
  return parts.reduce((line, part) => (line ? line + pick(JOIN) + part : part), "");
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "synapse-fuzz-")));
  ws = join(root, "ws");
  home = join(root, "home");
  for (const d of [
    join(ws, "src"),
    join(ws, ".git"),
    join(home, ".ssh"),
    join(home, ".config", "synapse"),
    join(root, "sib"),
  ])
    mkdirSync(d, { recursive: true });
  writeFileSync(join(ws, "a.txt"), "a\nb\n");
  writeFileSync(join(ws, "src", "x.ts"), "x\n");
  writeFileSync(join(ws, ".git", "config"), "[core]\n\tbare = false\n");
  writeFileSync(join(home, ".bashrc"), "# rc\n");
  writeFileSync(join(home, ".ssh", "id_rsa"), "CANARY-KEY\n");
  writeFileSync(join(home, ".config", "synapse", "config.json"), "{}\n");
  writeFileSync(join(root, "sib", "s.txt"), "sibling\n");
  symlinkSync(join(root, "sib"), join(ws, "link-out"));
  symlinkSync(join(root, "sib", "made-by-link"), join(ws, "dangling"));
  symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "key"));
  policy = buildPolicy(
    {
      cwd: ws,
      permissionMode: "default",
      permissions: { allow: [], deny: [] },
      addDirs: [],
      secrets: [],
      shell: { env: { PATH: "/usr/bin:/bin" } },
    },
    { home },
  );
});

/** Everything under `dir` but the workspace: kind, size, content hash, link target. */
function snapshot(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (p === ws) continue;
    const info = lstatSync(p);
    if (info.isSymbolicLink()) out.set(p, `link ${readlinkSync(p)}`);
    else if (info.isDirectory()) {
      out.set(p, `dir ${info.mode}`);
      snapshot(p, out);
    } else out.set(p, `file ${info.mode} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`);
  }
  return out;
}

test(`${COUNT} random command lines: whatever runs unasked changes nothing outside the workspace`, () => {
  const next = rng(16);
  const before = snapshot(root);
  const ran: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const line = commandLine(next);
    if (decide(policy, { tool: "Bash", input: { command: line }, cwd: ws }).kind !== "allow") continue;
    ran.push(line);
    // The time limit only bounds a command that waits for input; nothing is asserted about time.
    spawnSync("/bin/bash", ["-c", line], {
      cwd: ws,
      env: { HOME: home, PATH: "/usr/bin:/bin", P: "rm", D: "../sib" },
      input: "",
      timeout: 5000,
    });
    const after = snapshot(root);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
    expect({ line, changed }).toEqual({ line, changed: [] });
  }
  // The grammar must reach both sides of the policy, or the fuzz proves nothing.
  expect(ran.length).toBeGreaterThan(20);
  expect(ran.length).toBeLessThan(COUNT);
});

// The bwrap command line for each profile (pure), the allow-listed environment, and which paths a
// profile names given what exists on disk.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxEnvironment } from "../../src/sandbox/environment.ts";
import { bwrapArgs, type SandboxProfile } from "../../src/sandbox/profile.ts";
import { collectProfile } from "../../src/sandbox/profile-paths.ts";

const base: SandboxProfile = {
  mode: "workspace-write",
  network: false,
  roots: ["/w"],
  readOnly: [],
  hiddenDirs: [],
  hiddenFiles: [],
};
const HEAD = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
const NS = ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];

describe("bwrapArgs", () => {
  test.each<[string, Partial<SandboxProfile>, string[]]>([
    [
      "workspace-write: roots writable, no network",
      {},
      [...HEAD, "--bind", "/w", "/w", ...NS, "--unshare-net", "--die-with-parent", "--"],
    ],
    [
      "read-only: every root bound read-only (visible even under the private /tmp)",
      { mode: "read-only", roots: ["/w", "/x"] },
      [...HEAD, "--ro-bind", "/w", "/w", "--ro-bind", "/x", "/x", ...NS, "--unshare-net", "--die-with-parent", "--"],
    ],
    [
      "network allowed: the network namespace is shared",
      { network: true },
      [...HEAD, "--bind", "/w", "/w", ...NS, "--die-with-parent", "--"],
    ],
    [
      "every root, then read-only parts, then hidden stores, then the pool's folder",
      {
        roots: ["/w", "/x"],
        readOnly: ["/w/.git/hooks"],
        hiddenDirs: ["/h/.ssh"],
        hiddenFiles: ["/h/.netrc"],
        poolDir: "/dev/shm/p",
      },
      [
        ...HEAD,
        ...["--bind", "/w", "/w", "--bind", "/x", "/x"],
        ...["--ro-bind", "/w/.git/hooks", "/w/.git/hooks"],
        ...["--tmpfs", "/h/.ssh", "--remount-ro", "/h/.ssh"],
        ...["--ro-bind", "/dev/null", "/h/.netrc"],
        ...["--ro-bind", "/dev/shm/p", "/dev/shm/p", "--bind", "/dev/shm/p/carry", "/dev/shm/p/carry"],
        ...NS,
        "--unshare-net",
        "--die-with-parent",
        "--",
      ],
    ],
    [
      "a pinned .git: bound onto itself after its root, before its read-only parts (it cannot be renamed away)",
      { pinned: ["/w/.git"], readOnly: ["/w/.git/config"] },
      [
        ...HEAD,
        ...["--bind", "/w", "/w", "--bind", "/w/.git", "/w/.git", "--ro-bind", "/w/.git/config", "/w/.git/config"],
        ...NS,
        "--unshare-net",
        "--die-with-parent",
        "--",
      ],
    ],
    [
      "read-only: nothing is pinned (no root is writable)",
      { mode: "read-only", pinned: ["/w/.git"] },
      [...HEAD, "--ro-bind", "/w", "/w", ...NS, "--unshare-net", "--die-with-parent", "--"],
    ],
    [
      "a shown file inside a hidden folder: bound (when it exists) before the folder is sealed",
      { hiddenDirs: ["/h/.ssh", "/d/sessions"], shown: ["/d/sessions/s1/messages.jsonl", "/elsewhere/x"] },
      [
        ...HEAD,
        ...["--bind", "/w", "/w"],
        ...["--tmpfs", "/h/.ssh", "--remount-ro", "/h/.ssh"],
        ...["--tmpfs", "/d/sessions"],
        ...["--ro-bind-try", "/d/sessions/s1/messages.jsonl", "/d/sessions/s1/messages.jsonl"],
        ...["--remount-ro", "/d/sessions"],
        ...NS,
        "--unshare-net",
        "--die-with-parent",
        "--",
      ],
    ],
  ])("%s", (_name, over, want) => {
    expect(bwrapArgs({ ...base, ...over })).toEqual(want);
  });

  test("no --new-session: the pool's setsid already leaves the sandbox without a terminal", () => {
    expect(bwrapArgs(base)).not.toContain("--new-session");
  });
});

describe("sandboxEnvironment", () => {
  test.each<[string, Record<string, string>, string[], Record<string, string>]>([
    [
      "allow-listed names pass",
      { PATH: "/bin", HOME: "/h", LANG: "C", LC_ALL: "C", TERM: "xterm", USER: "u" },
      [],
      { PATH: "/bin", HOME: "/h", LANG: "C", LC_ALL: "C", TERM: "xterm", USER: "u", TMPDIR: "/tmp" },
    ],
    [
      "anything else stays out, keys and tokens first",
      { PATH: "/bin", GITHUB_TOKEN: "g", AWS_SECRET_ACCESS_KEY: "a", ANTHROPIC_API_KEY: "k", BASH_ENV: "/x" },
      [],
      { PATH: "/bin", TMPDIR: "/tmp" },
    ],
    [
      "a hidden name stays out even when allowed",
      { PATH: "/bin", USER: "u" },
      ["USER"],
      { PATH: "/bin", TMPDIR: "/tmp" },
    ],
    ["TMPDIR is the sandbox's private /tmp", { TMPDIR: "/var/tmp/x" }, [], { TMPDIR: "/tmp" }],
  ])("%s", (_name, env, hidden, want) => {
    expect(sandboxEnvironment(env, hidden)).toEqual(want);
  });
});

describe("collectProfile", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "synapse-profile-")));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const home = join(dir, "home");
  const ws = join(dir, "ws");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(join(home, ".config/synapse"), { recursive: true });
  mkdirSync(join(dir, "real-aws"));
  symlinkSync(join(dir, "real-aws"), join(home, ".aws"));
  writeFileSync(join(home, ".netrc"), "machine x");
  mkdirSync(join(ws, ".git/hooks"), { recursive: true });
  writeFileSync(join(ws, ".git/config"), "");
  const sessions = join(dir, "data");
  mkdirSync(sessions);

  test("only what exists, by real path; files and folders apart; a root's .git/hooks and config read-only", () => {
    const sock = join(dir, "daemon.sock");
    writeFileSync(sock, "");
    const ownDirs = [join(home, ".config/synapse"), sessions, join(dir, "missing")];
    const p = collectProfile({
      mode: "workspace-write",
      network: false,
      roots: [ws, ws],
      homeDir: home,
      ownDirs,
      hostSockets: [sock, join(dir, "no.sock")],
    });
    expect(p.roots).toEqual([ws]);
    expect(p.readOnly).toEqual([join(ws, ".git/hooks"), join(ws, ".git/config")]);
    expect(p.pinned).toEqual([join(ws, ".git")]);
    expect(p.hiddenDirs).toEqual([join(home, ".ssh"), join(dir, "real-aws"), join(home, ".config/synapse"), sessions]);
    expect(p.hiddenFiles).toEqual([join(home, ".netrc"), sock]);
  });

  test("a folder that is (or holds) a workspace root is not hidden: that would hide the workspace", () => {
    const p = collectProfile({
      mode: "workspace-write",
      network: false,
      roots: [join(home, ".ssh")],
      homeDir: home,
      ownDirs: [],
      hostSockets: [],
    });
    expect(p.hiddenDirs).not.toContain(join(home, ".ssh"));
    expect(p.hiddenFiles).toEqual([join(home, ".netrc")]);
  });

  test("a linked worktree's .git file is read-only: rewritten, it would point git at another config", () => {
    const tree = join(dir, "worktree");
    mkdirSync(tree);
    writeFileSync(join(tree, ".git"), `gitdir: ${join(ws, ".git/worktrees/w")}\n`);
    const p = collectProfile({
      mode: "workspace-write",
      network: false,
      roots: [tree],
      homeDir: home,
      ownDirs: [],
      hostSockets: [],
    });
    expect(p.readOnly).toEqual([join(tree, ".git")]);
    expect(p.pinned).toEqual([]);
  });
});

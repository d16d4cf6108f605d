// The OS sandbox from the compiled binary, in a throwaway home full of canaries: a hostile model's
// commands run unasked in default mode but cannot leave the workspace, read secrets or synapse's
// own files, reach the network or the key; --sandbox read-only and --sandbox-network do what they
// say; kill -9 leaves nothing; without bwrap there is one stderr line and doctor says so.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { FakeLLM, ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, spawnBinary } from "../support/binary.ts";
import { pollUntil } from "../support/wait.ts";
import { HAVE_BWRAP, NEEDS_BWRAP, testBase } from "../sandbox/support.ts";

const serve = fakeLLMPerTest();
const bash = (command: string): ScriptedReply => ({ toolCalls: [{ name: "Bash", input: { command } }] });
const it = (name: string, fn: () => Promise<void>) => test.skipIf(!HAVE_BWRAP)(name + NEEDS_BWRAP, fn, 60_000);
const CANARY = "canary-e2e-51d0";
const KEY = "sk-ant-test-key-9f8e7d6c";

/** A home with canaries, a workspace and a sibling repository inside it. */
function world() {
  // Not under /tmp (see testBase): there the sandbox's private /tmp alone would hide it.
  const dir = realpathSync(mkdtempSync(join(testBase(), "synapse-e2e-sandbox-")));
  const home = {
    env: {
      HOME: dir,
      XDG_DATA_HOME: join(dir, "data"),
      XDG_CONFIG_HOME: join(dir, "config"),
      SYNAPSE_HOME: join(dir, "data", "synapse"),
    },
  };
  const ws = join(dir, "ws");
  const sibling = join(dir, "sibling");
  mkdirSync(ws);
  mkdirSync(sibling);
  mkdirSync(join(dir, ".ssh"));
  mkdirSync(join(dir, "config/synapse"), { recursive: true });
  writeFileSync(join(dir, ".bashrc"), `# ${CANARY}\n`);
  writeFileSync(join(dir, ".ssh/id_rsa"), `${CANARY}\n`);
  writeFileSync(join(dir, "config/synapse/config.json"), "{}\n");
  writeFileSync(join(sibling, "README"), `${CANARY}\n`);
  return { env: { ...home.env, ANTHROPIC_API_KEY: KEY }, dir, ws, sibling };
}

function resultText(s: FakeLLM, i: number): string {
  const msgs = s.requests[i]!.body.messages;
  return msgs[msgs.length - 1].content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join("")))
    .join("\n");
}

const everything = (s: FakeLLM) => s.requests.map((r) => JSON.stringify(r.body)).join("\n");

describe("the sandbox from the binary (default: workspace-write, no network)", () => {
  it("a hostile model's commands run unasked and change nothing outside the workspace, read no secret, no key", async () => {
    const w = world();
    // Spelled so that no parser can tell what they touch: only the kernel stops them.
    const s = await serve([
      bash("f=.bashrc; echo pwned >> ~/$f; r=README; echo pwned >> ../sibling/$r; d=.ssh; cat ~/$d/id_rsa; ls -a ~/$d"),
      bash(`c=config; echo '{"permissionMode":"bypass"}' > ~/$c/synapse/config.json; s=data; ls -a ~/$s/synapse`),
      bash("env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'; base64 -w0 /proc/1/environ"),
      bash("echo made > here.txt && cat here.txt"),
      { text: "done" },
    ]);
    const r = await runBinary({
      args: ["-o", "json", "go"],
      env: { ...providerEnv(s.url), ...w.env },
      cwd: w.ws,
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(0);
    // Nothing was refused: sandboxed commands run without asking in default mode.
    expect(r.stderr).not.toContain("permission denied");
    expect(resultText(s, 1)).toContain("Read-only file system");
    expect(resultText(s, 2)).toContain("Read-only file system");
    expect(resultText(s, 4)).toContain("made");
    expect(readFileSync(join(w.dir, ".bashrc"), "utf8")).toBe(`# ${CANARY}\n`);
    expect(readFileSync(join(w.sibling, "README"), "utf8")).toBe(`${CANARY}\n`);
    expect(readFileSync(join(w.dir, "config/synapse/config.json"), "utf8")).toBe("{}\n");
    const sent = everything(s);
    expect(sent).not.toContain(CANARY);
    expect(sent).not.toContain(KEY);
    expect(sent).not.toContain(Buffer.from(KEY).toString("base64").slice(0, 16));
    expect(JSON.parse(r.stdout).is_error).toBe(false);
  });

  it("a task:general sub-agent's commands run in the same sandbox, unasked", async () => {
    const w = world();
    const isSub = (req: any) => JSON.stringify(req.body?.system ?? "").includes("You are a sub-agent");
    const subResults: string[] = [];
    let main = 0;
    const s = await serve((req) => {
      if (isSub(req)) {
        const last = req.body.messages.at(-1);
        for (const b of last.content) if (b.type === "tool_result") subResults.push(JSON.stringify(b));
        if (req.body.messages.length > 1) return { text: "sub done" };
        return bash("f=.bashrc; echo pwned >> ~/$f; d=.ssh; cat ~/$d/id_rsa; echo sub > sub.txt; echo $$");
      }
      const script: ScriptedReply[] = [bash('task:general --prompt "attack" --description attack'), { text: "done" }];
      return script[main++] ?? { text: "done" };
    });
    const r = await runBinary({ args: ["go"], env: { ...providerEnv(s.url), ...w.env }, cwd: w.ws, timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(subResults.join("\n")).not.toContain("Permission denied");
    // Pid 3 inside its own PID namespace: the pooled shell in bwrap.
    expect(subResults.join("\n")).toContain("3\\n");
    expect(readFileSync(join(w.ws, "sub.txt"), "utf8")).toBe("sub\n");
    expect(readFileSync(join(w.dir, ".bashrc"), "utf8")).toBe(`# ${CANARY}\n`);
    expect(everything(s)).not.toContain(CANARY);
  });

  it("no network unless --sandbox-network", async () => {
    let accepted = 0;
    const server = createServer((socket) => {
      accepted++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const probe = `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo connected || echo refused`;
      for (const [args, want] of [
        [[], "refused"],
        [["--sandbox-network"], "connected"],
      ] as const) {
        const w = world();
        const s = await serve([bash(probe), { text: "done" }]);
        const r = await runBinary({ args: [...args, "go"], env: { ...providerEnv(s.url), ...w.env }, cwd: w.ws });
        expect(r.code).toBe(0);
        expect(resultText(s, 1)).toContain(want);
      }
      expect(accepted).toBe(1);
    } finally {
      server.close();
    }
  });

  it("--sandbox read-only: the workspace cannot be written either", async () => {
    const w = world();
    const s = await serve([bash("touch made.txt; echo tried"), { text: "done" }]);
    const r = await runBinary({
      args: ["--sandbox", "read-only", "go"],
      env: { ...providerEnv(s.url), ...w.env },
      cwd: w.ws,
    });
    expect(r.code).toBe(0);
    expect(resultText(s, 1)).toContain("Read-only file system");
    expect(existsSync(join(w.ws, "made.txt"))).toBe(false);
  });

  it("/status names the sandbox", async () => {
    const w = world();
    const r = await runBinary({ args: ["--sandbox", "read-only"], stdin: "/status\n", env: { ...w.env }, cwd: w.ws });
    expect(r.stdout).toContain("sandbox:  bwrap, read-only, no network");
  });

  it("kill -9 of synapse leaves no sandboxed process behind", async () => {
    const w = world();
    const s = await serve([bash("sleep 778.1 & sleep 778.2"), { text: "never" }]);
    const proc = spawnBinary({ args: ["go"], env: { ...providerEnv(s.url), ...w.env }, cwd: w.ws });
    const ps = async () =>
      (await new Response(Bun.spawn(["ps", "-eo", "pid=,ppid=,stat=,args="], { stdout: "pipe" }).stdout).text()).split(
        "\n",
      );
    const live = (lines: string[], re: RegExp) => lines.filter((l) => re.test(l) && !/^\s*\d+\s+\d+\s+Z/.test(l));
    await pollUntil("both sleeps to run", async () => live(await ps(), /sleep 778\.[12]$/).length === 2);
    // They run inside bwrap, a child of the binary.
    expect(live(await ps(), new RegExp(`^\\s*\\d+\\s+${proc.pid}\\s+\\S+\\s+\\S*bwrap `)).length).toBe(1);
    proc.kill("SIGKILL");
    await proc.exited;
    const left = async () => live(await ps(), new RegExp(`sleep 778\\.[12]$|bwrap .*${w.ws}`));
    await pollUntil("every sandboxed process to be gone", async () => (await left()).length === 0, { seen: left });
  });
});

describe("without bwrap", () => {
  test("one stderr line says commands run unconfined; the policy fails closed; doctor warns", async () => {
    const w = world();
    const s = await serve([bash("echo x >> ~/.bashrc"), bash("echo again >> ~/.bashrc"), { text: "done" }]);
    const env = { ...providerEnv(s.url), ...w.env, SYNAPSE_BWRAP: "/nonexistent/bwrap" };
    const r = await runBinary({ args: ["go"], env, cwd: w.ws });
    expect(r.code).toBe(0);
    expect(r.stderr.split("\n").filter((l) => l.includes("no OS sandbox"))).toEqual([
      "warning: no OS sandbox for commands (/nonexistent/bwrap not found): they run unconfined, and every command the permission policy cannot prove harmless asks",
    ]);
    expect(readFileSync(join(w.dir, ".bashrc"), "utf8")).toBe(`# ${CANARY}\n`);
    const doctor = await runBinary({ args: ["doctor"], env, cwd: w.ws });
    expect(doctor.stdout).toContain("WARN  sandbox: unavailable (/nonexistent/bwrap not found)");
  });

  test("--sandbox full-access: one warning line, and the policy fails closed", async () => {
    const w = world();
    const s = await serve([bash("echo x >> ~/.bashrc"), { text: "done" }]);
    const r = await runBinary({
      args: ["--sandbox", "full-access", "go"],
      env: { ...providerEnv(s.url), ...w.env },
      cwd: w.ws,
    });
    expect(r.code).toBe(0);
    expect(r.stderr.split("\n").filter((l) => l.includes("sandbox off"))).toHaveLength(1);
    expect(readFileSync(join(w.dir, ".bashrc"), "utf8")).toBe(`# ${CANARY}\n`);
  });

  test("a project's config cannot turn the sandbox off or the network on (exit 2)", async () => {
    for (const setting of [{ mode: "full-access" }, { network: true }]) {
      const w = world();
      mkdirSync(join(w.ws, ".synapse"));
      writeFileSync(join(w.ws, ".synapse/config.json"), JSON.stringify({ sandbox: setting }));
      const r = await runBinary({ args: ["go"], env: { ...w.env }, cwd: w.ws });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("a project's config may only tighten the sandbox");
    }
  });
});

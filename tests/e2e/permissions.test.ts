// Permission modes, rules and the workspace boundary through the compiled binary, headless, against
// the strict fake server: a refused call comes back is_error in the next request, the user is told
// which flag would allow it, and the file system is unchanged. Secrets never reach the session files.

import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLLM, type ScriptedReply, startFakeLLM } from "../support/fake-llm.ts";
import { jsonLines, providerEnv, runBinary, tempHome } from "../support/binary.ts";

let server: FakeLLM | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function serve(script: ScriptedReply[]) {
  server = await startFakeLLM(script);
  return server;
}

/** The tool results the model got back in request `i` (Anthropic wire format). */
function toolResults(s: FakeLLM, i: number): Array<{ content: string; is_error?: boolean }> {
  const out: Array<{ content: string; is_error?: boolean }> = [];
  for (const m of s.requests[i]!.body.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content)
      if (b.type === "tool_result")
        out.push({
          content: typeof b.content === "string" ? b.content : JSON.stringify(b.content),
          is_error: b.is_error,
        });
  }
  return out;
}

function workspace(): { ws: string; outside: string; home: ReturnType<typeof tempHome> } {
  const home = tempHome();
  const ws = join(home.dir, "project");
  const outside = join(home.dir, "elsewhere");
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(join(home.dir, "keep-me.txt"), "precious\n");
  return { ws, outside, home };
}

const run = (args: string[], env: Record<string, string>, extra: Record<string, string> = {}) =>
  runBinary({ args, env: { ...env, ...extra } });

describe("default mode, headless", () => {
  test("a dangerous command is refused: is_error to the model, the flag on stderr, nothing deleted", async () => {
    const { ws, home } = workspace();
    const s = await serve([
      { toolCalls: [{ name: "Bash", input: { command: "echo start && rm -rf ~" } }] },
      { text: "I could not do that." },
    ]);
    const r = await run(["-C", ws, "clean up"], { ...home.env, ...providerEnv(s.url) });
    expect(r.code).toBe(0);
    expect(existsSync(join(home.dir, "keep-me.txt"))).toBe(true);
    const [result] = toolResults(s, 1);
    expect(result!.is_error).toBe(true);
    expect(result!.content).toContain("Permission denied");
    expect(result!.content).toContain("dangerous");
    expect(r.stderr).toContain("permission denied: Bash");
    expect(r.stderr).toContain(`--allow 'Bash(rm -rf ~)'`);
  });

  test("Write outside the workspace (through .. or an absolute path) is refused; inside is allowed", async () => {
    const { ws, outside, home } = workspace();
    const s = await serve([
      { toolCalls: [{ name: "Write", input: { path: "../elsewhere/a.txt", content: "x" } }] },
      { toolCalls: [{ name: "Write", input: { path: join(outside, "b.txt"), content: "x" } }] },
      { toolCalls: [{ name: "Write", input: { path: "inside.txt", content: "ok\n" } }] },
      { text: "done" },
    ]);
    const r = await run(["-o", "stream-json", "-C", ws, "write files"], { ...home.env, ...providerEnv(s.url) });
    expect(r.code).toBe(0);
    expect(readdirSync(outside)).toEqual([]);
    expect(readFileSync(join(ws, "inside.txt"), "utf8")).toBe("ok\n");
    expect(toolResults(s, 1)[0]).toMatchObject({
      is_error: true,
      content: expect.stringContaining("outside the workspace"),
    });
    expect(toolResults(s, 2)[1]).toMatchObject({ is_error: true });
    expect(toolResults(s, 3)[2]!.is_error).toBeUndefined();
    const denials = jsonLines(r.stdout).filter((l) => l.subtype === "permission_denied");
    expect(denials).toHaveLength(2);
    expect(denials[0]).toMatchObject({
      type: "system",
      name: "Write",
      allow_with: `--allow 'Write(${join(outside, "a.txt")})'`,
    });
    expect(r.stderr).toContain("permission denied: Write");
  });

  test("--add-dir widens the workspace; --allow lets one dangerous command through", async () => {
    const { ws, outside, home } = workspace();
    mkdirSync(join(ws, "build"));
    const s = await serve([
      { toolCalls: [{ name: "Write", input: { path: join(outside, "b.txt"), content: "x" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "rm -rf ..", cwd: join(ws, "build") } }] },
      { text: "done" },
    ]);
    const r = await run(["-C", ws, "--add-dir", outside, "--deny", "Read(secret/**)", "go"], {
      ...home.env,
      ...providerEnv(s.url),
    });
    expect(r.code).toBe(0);
    expect(readFileSync(join(outside, "b.txt"), "utf8")).toBe("x");
    expect(toolResults(s, 2)[1]!.is_error).toBe(true); // `rm -rf ..` was not allowed by any rule
    expect(existsSync(ws)).toBe(true);
  });
});

describe("accept-edits", () => {
  test("edits run; a command runs only when it is proven harmless or a rule names it", async () => {
    const { ws, home } = workspace();
    const s = await serve([
      { toolCalls: [{ name: "Write", input: { path: "a.txt", content: "a" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "touch by-rule" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "touch by-rule && ln -s by-rule not-allowed" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "ln -s a.txt not-allowed" } }] },
      { text: "done" },
    ]);
    const r = await run(
      ["-o", "json", "--permission-mode", "accept-edits", "--allow", "Bash(touch by-rule)", "-C", ws, "go"],
      { ...home.env, ...providerEnv(s.url) },
    );
    expect(r.code).toBe(0);
    expect(existsSync(join(ws, "a.txt"))).toBe(true);
    expect(existsSync(join(ws, "by-rule"))).toBe(true);
    expect(existsSync(join(ws, "not-allowed"))).toBe(false);
    expect(toolResults(s, 3)[2]).toMatchObject({
      is_error: true,
      content: expect.stringContaining("Bash(ln -s by-rule not-allowed)"),
    });
    expect(toolResults(s, 4)[3]).toMatchObject({ is_error: true, content: expect.stringContaining("accept-edits") });
  });
});

describe("plan and bypass", () => {
  test("plan offers no writing tools and writes nothing", async () => {
    const { ws, home } = workspace();
    const s = await serve([
      { toolCalls: [{ name: "Write", input: { path: "a.txt", content: "a" } }] },
      { text: "planned" },
    ]);
    const r = await run(["--permission-mode", "plan", "-C", ws, "plan it"], { ...home.env, ...providerEnv(s.url) });
    expect(r.code).toBe(0);
    expect(s.requests[0]!.body.tools.map((t: any) => t.name).sort()).toEqual(["Glob", "Grep", "Read"]);
    expect(existsSync(join(ws, "a.txt"))).toBe(false);
    expect(toolResults(s, 1)[0]!.is_error).toBe(true);
  });

  test("-y warns in one line and allows what default refuses, but --deny still wins", async () => {
    const { ws, outside, home } = workspace();
    const s = await serve([
      { toolCalls: [{ name: "Write", input: { path: join(outside, "b.txt"), content: "x" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "git push origin main" } }] },
      { text: "done" },
    ]);
    const r = await run(["-y", "--deny", "Bash(git push *)", "-C", ws, "go"], { ...home.env, ...providerEnv(s.url) });
    expect(r.code).toBe(0);
    expect(r.stderr.split("\n").filter((l) => l.includes("bypass mode"))).toHaveLength(1);
    expect(readFileSync(join(outside, "b.txt"), "utf8")).toBe("x");
    expect(toolResults(s, 2)[1]).toMatchObject({
      is_error: true,
      content: expect.stringContaining("Bash(git push *)"),
    });
  });

  test("an invalid rule is a configuration error naming it (flag or config file)", async () => {
    const { ws, home } = workspace();
    const bad = await run(["--allow", "Bash(npm test", "-C", ws, "hi"], {
      ...home.env,
      ...providerEnv("http://127.0.0.1:9"),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"Bash(npm test"');
    mkdirSync(join(ws, ".synapse"));
    writeFileSync(join(ws, ".synapse", "config.json"), JSON.stringify({ permissions: { deny: ["Delete(x)"] } }));
    const file = await run(["-C", ws, "hi"], { ...home.env, ...providerEnv("http://127.0.0.1:9") });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('"Delete(x)"');
  });
});

describe("secrets", () => {
  const KEY = "sk-ant-e2e-9f8e7d6c5b4a39281706";

  test("the API key reaches neither commands, tool results, stream-json nor the session files (0600/0700)", async () => {
    const { ws, home } = workspace();
    writeFileSync(join(ws, "config.txt"), `api_key = ${KEY}\n`);
    const s = await serve([
      { toolCalls: [{ name: "Bash", input: { command: 'env; echo "key=$ANTHROPIC_API_KEY"' } }] },
      { toolCalls: [{ name: "Read", input: { path: "config.txt" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "cat config.txt" } }] },
      { text: "done" },
    ]);
    const r = await run(["-o", "stream-json", "-C", ws, "show me"], {
      ...home.env,
      ...providerEnv(s.url),
      ANTHROPIC_API_KEY: KEY,
    });
    expect(r.code).toBe(0);
    const results = toolResults(s, 3);
    expect(results).toHaveLength(3);
    expect(results[0]!.content).toContain("key=\n");
    for (const res of results) expect(res.content).not.toContain(KEY);
    expect(results[1]!.content).toContain("[redacted]");
    expect(r.stdout).not.toContain(KEY);
    expect(r.stderr).not.toContain(KEY);
    const sessions = join(home.env.SYNAPSE_HOME!, "sessions");
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) {
          expect(statSync(p).mode & 0o777).toBe(0o700);
          walk(p);
        } else files.push(p);
      }
    };
    walk(existsSync(sessions) ? sessions : home.env.SYNAPSE_HOME!);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(readFileSync(f).includes(KEY)).toBe(false);
      if (!f.endsWith(".lock")) expect({ f, mode: statSync(f).mode & 0o777 }).toEqual({ f, mode: 0o600 });
    }
  });

  test(".env is not read and searches hide it, unless a rule allows it", async () => {
    const { ws, home } = workspace();
    writeFileSync(join(ws, ".env"), "TOKEN=hunter2-very-secret\n");
    writeFileSync(join(ws, "app.js"), "const TOKEN = process.env.TOKEN;\n");
    const script: ScriptedReply[] = [
      { toolCalls: [{ name: "Read", input: { path: ".env" } }] },
      { toolCalls: [{ name: "Grep", input: { pattern: "TOKEN" } }] },
      { toolCalls: [{ name: "Glob", input: { pattern: "**/.env*" } }] },
      { text: "done" },
    ];
    let s = await serve(script);
    const r = await run(["-C", ws, "find the token"], { ...home.env, ...providerEnv(s.url) });
    expect(r.code).toBe(0);
    const results = toolResults(s, 3);
    expect(results[0]!.is_error).toBe(true);
    expect(results[0]!.content).toContain("secrets");
    expect(results[1]!.content).toContain("app.js");
    expect(results[2]!.content).toContain("1 line from .env or ~/.ssh files hidden");
    for (const res of results) expect(res.content).not.toContain("hunter2");
    await server!.stop();
    s = await serve(script);
    const allowed = await run(["-C", ws, "--allow", "Read(**/.env)", "find the token"], {
      ...home.env,
      ...providerEnv(s.url),
    });
    expect(allowed.code).toBe(0);
    expect(toolResults(s, 1)[0]!.content).toContain("hunter2");
  });
});

describe("sub-agents", () => {
  test("task:general inherits the mode and rules: what would ask is refused inside the worker too", async () => {
    const { ws, home } = workspace();
    const isSub = (req: any) => JSON.stringify(req.body?.system ?? "").includes("You are a sub-agent");
    const subResults: string[] = [];
    let main = 0;
    server = await startFakeLLM((req) => {
      if (isSub(req)) {
        const turn = (req.body.messages.length - 1) / 2;
        const last = req.body.messages[req.body.messages.length - 1];
        if (turn > 0)
          for (const b of last.content)
            if (b.type === "tool_result")
              subResults.push(
                `${b.is_error ? "ERR " : ""}${typeof b.content === "string" ? b.content : JSON.stringify(b.content)}`,
              );
        const steps: ScriptedReply[] = [
          { toolCalls: [{ name: "Bash", input: { command: "touch allowed" } }] },
          { toolCalls: [{ name: "Bash", input: { command: "ln -s allowed forbidden" } }] },
          { toolCalls: [{ name: "Write", input: { path: join(home.dir, "out.txt"), content: "x" } }] },
          { text: "sub done" },
        ];
        return steps[turn] ?? { text: "sub done" };
      }
      return (
        [
          {
            toolCalls: [{ name: "Bash", input: { command: `task:general --prompt "make files" --description files` } }],
          },
          { text: "done" },
        ][main++] ?? { text: "done" }
      );
    });
    const r = await run(["--permission-mode", "accept-edits", "--allow", "Bash(touch allowed)", "-C", ws, "go"], {
      ...home.env,
      ...providerEnv(server.url),
    });
    expect(r.code).toBe(0);
    expect(existsSync(join(ws, "allowed"))).toBe(true);
    expect(existsSync(join(ws, "forbidden"))).toBe(false);
    expect(existsSync(join(home.dir, "out.txt"))).toBe(false);
    expect(subResults).toHaveLength(3);
    expect(subResults[0]).not.toStartWith("ERR");
    expect(subResults[1]).toStartWith("ERR Permission denied");
    expect(subResults[2]).toStartWith("ERR Permission denied");
    expect(subResults[2]).toContain("outside the workspace");
    expect(r.stderr).toContain("permission denied: Bash: in task");
    expect(r.stderr).toContain("--allow 'Bash(ln -s allowed forbidden)'");
  });
});

describe("OpenAI-compatible provider", () => {
  test("a refused call comes back as the tool message of the next request", async () => {
    const { ws, outside, home } = workspace();
    const s = await serve([
      { toolCalls: [{ name: "Write", input: { path: join(outside, "b.txt"), content: "x" } }] },
      { text: "done" },
    ]);
    const r = await run(["-C", ws, "go"], { ...home.env, ...providerEnv(s.url, "openai") });
    expect(r.code).toBe(0);
    const tool = s.requests[1]!.body.messages.find((m: any) => m.role === "tool");
    expect(tool.content).toContain("Permission denied");
    expect(readdirSync(outside)).toEqual([]);
  });
});

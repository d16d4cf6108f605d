// Defects a QA pass found from the compiled binary, each reproduced through it against the fake API:
// a piped /status naming an unsaved session, results without a uuid or the key's source, a
// sub-agent's task_start before its call, `synapse mcp` alone, whole-tool deny rules still offered,
// and a bad config rule whose error did not name its file.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RecordedRequest, ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { jsonLines, providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sessionsIn = (home: string) => {
  const dir = join(home, "data", "synapse", "sessions");
  return existsSync(dir) ? readdirSync(dir) : [];
};
const offered = (req: RecordedRequest): string[] => (req.body.tools ?? []).map((t: { name: string }) => t.name);
const initOf = (stdout: string) => jsonLines(stdout).find((l) => l.type === "system" && l.subtype === "init");

describe("a piped /status names only a session that was saved", () => {
  test("a new session: no id (none is kept), in text, json and stream-json; nothing left on disk", async () => {
    const home = tempHome();
    const env = { ...home.env, ...providerEnv("http://127.0.0.1:9") };
    const text = await runBinary({ stdin: "/status\n", env, cwd: home.dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("session:  none saved yet");
    const json = await runBinary({ args: ["-o", "json"], stdin: "/status\n", env, cwd: home.dir });
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result.session_id).toBeNull();
    expect(result.uuid).toMatch(UUID);
    const stream = await runBinary({ args: ["-o", "stream-json"], stdin: "/status\n", env, cwd: home.dir });
    expect(jsonLines(stream.stdout).at(-1).session_id).toBeNull();
    expect(sessionsIn(home.dir)).toEqual([]);
  });

  test("with -c it names the saved session, which -r then resumes", async () => {
    const home = tempHome();
    const s = await serve([{ text: "first answer" }, { text: "second answer" }]);
    const env = { ...home.env, ...providerEnv(s.url) };
    const first = await runBinary({ args: ["-o", "json", "hello"], env, cwd: home.dir });
    const id = JSON.parse(first.stdout).session_id;
    const status = await runBinary({ args: ["-c", "-o", "json"], stdin: "/status\n", env, cwd: home.dir });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).session_id).toBe(id);
    expect(JSON.parse(status.stdout).result).toContain(`session:  ${id}`);
    const resumed = await runBinary({ args: ["-r", id, "again"], env, cwd: home.dir });
    expect(resumed.code).toBe(0);
  });
});

describe("results carry a uuid, and init the key's source (never the key)", () => {
  const KEY = "sk-ant-qa-secret-7f3a9c";

  test("json result: a fresh uuid per run", async () => {
    const s = await serve([{ text: "one" }, { text: "two" }]);
    const env = { ...providerEnv(s.url), ANTHROPIC_API_KEY: KEY };
    const a = JSON.parse((await runBinary({ args: ["-o", "json", "hi"], env })).stdout);
    const b = JSON.parse((await runBinary({ args: ["-o", "json", "hi"], env })).stdout);
    expect(a.uuid).toMatch(UUID);
    expect(b.uuid).toMatch(UUID);
    expect(a.uuid).not.toBe(b.uuid);
  });

  test("stream-json init: ANTHROPIC_API_KEY or OPENAI_API_KEY by the provider used, none without a key", async () => {
    const s = await serve([{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }]);
    const anthropic = await runBinary({
      args: ["-o", "stream-json", "hi"],
      env: { ...providerEnv(s.url), ANTHROPIC_API_KEY: KEY },
    });
    expect(initOf(anthropic.stdout).apiKeySource).toBe("ANTHROPIC_API_KEY");
    expect(anthropic.stdout + anthropic.stderr).not.toContain(KEY);
    for (const line of jsonLines(anthropic.stdout)) expect(line.uuid).toMatch(UUID);
    const openai = await runBinary({
      args: ["-o", "stream-json", "hi"],
      env: { ...providerEnv(s.url, "openai"), OPENAI_API_KEY: KEY },
    });
    expect(initOf(openai.stdout).apiKeySource).toBe("OPENAI_API_KEY");
    expect(openai.stdout).not.toContain(KEY);
    // A program on the Agent SDK reads the same init line.
    const sdk = await runBinary({
      args: ["--input-format", "stream-json", "-o", "stream-json"],
      stdin: `${JSON.stringify({ type: "user", message: { role: "user", content: "hi" } })}\n`,
      env: { ...providerEnv(s.url), ANTHROPIC_API_KEY: KEY },
    });
    expect(initOf(sdk.stdout).apiKeySource).toBe("ANTHROPIC_API_KEY");
    expect(sdk.stdout).not.toContain(KEY);
    // An OpenAI-compatible local server needs no key.
    const keyless = await runBinary({ args: ["-o", "stream-json", "hi"], env: { OPENAI_BASE_URL: `${s.url}/v1` } });
    expect(keyless.code).toBe(0);
    expect(initOf(keyless.stdout).apiKeySource).toBe("none");
  });
});

describe("stream-json: a sub-agent's call comes before its task_start", () => {
  test("the tool_use line of each task:* call precedes that task's task_start line", async () => {
    const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");
    let main = 0;
    const calls = [
      { id: "toolu_ta", name: "Bash", input: { command: "task:explore -p a" } },
      { id: "toolu_tb", name: "Bash", input: { command: "task:explore -p b" } },
    ];
    const mainReplies: ScriptedReply[] = [{ toolCalls: calls }, { text: "done" }];
    const s = await serve((req) => (isSub(req) ? { text: "sub done" } : (mainReplies[main++] ?? { text: "over" })));
    const r = await runBinary({ args: ["-o", "stream-json", "-y", "go"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    for (const { id } of calls) {
      const use = lines.findIndex((l) => l.type === "tool_use" && l.id === id);
      const start = lines.findIndex((l) => l.subtype === "task_start" && l.tool_use_id === id);
      const end = lines.findIndex((l) => l.subtype === "task_end" && l.tool_use_id === id);
      expect(use).toBeGreaterThanOrEqual(0);
      expect(start).toBeGreaterThan(use);
      expect(end).toBeGreaterThan(start);
    }
  });
});

describe("synapse mcp without a command", () => {
  test("alone: the commands' help on stderr, exit 2 (a usage error, as claude and codex)", async () => {
    const r = await runBinary({ args: ["mcp"] });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("Usage: synapse mcp <command>");
    for (const command of ["list", "get <name>", "add <name>", "remove <name>"]) expect(r.stderr).toContain(command);
    const typo = await runBinary({ args: ["mcp", "lst"] });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'synapse: unknown command "mcp lst": one of list, get, add, remove (synapse mcp --help)\n',
    );
  });

  test("--help, -h, help and `<command> --help`: the same help on stdout, exit 0", async () => {
    const alone = await runBinary({ args: ["mcp"] });
    for (const args of [["--help"], ["-h"], ["help"], ["get", "--help"], ["add", "x", "--help"]]) {
      const r = await runBinary({ args: ["mcp", ...args] });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(alone.stderr);
    }
  });
});

describe("a tool every call of which a deny rule refuses is not offered", () => {
  const sent = async (args: string[], home = tempHome()) => {
    const s = await serve([{ text: "ok" }]);
    const r = await runBinary({
      args: [...args, "-o", "stream-json", "hi"],
      env: { ...home.env, ...providerEnv(s.url) },
    });
    expect(r.code).toBe(0);
    return { request: offered(s.requests[0]!), init: initOf(r.stdout).tools };
  };

  test("--deny Write: neither Write nor Edit (a Write rule covers both); a pattern leaves them", async () => {
    const whole = await sent(["--deny", "Write"]);
    expect(whole.request).toEqual(["Bash", "Read", "Glob", "Grep"]);
    expect(whole.init).toEqual(whole.request);
    for (const rule of ["write(*)", "Edit(**)"]) expect((await sent(["--deny", rule])).request).not.toContain("Write");
    const pattern = await sent(["--deny", "Write(src/**)", "--deny", "Bash(rm *)"]);
    expect(pattern.request).toEqual(["Bash", "Read", "Write", "Edit", "Glob", "Grep"]);
  });

  test('a config file\'s "deny": ["Read"] takes Read, Glob and Grep out of the offer', async () => {
    const home = tempHome();
    mkdirSync(join(home.env.XDG_CONFIG_HOME!, "synapse"), { recursive: true });
    const file = join(home.env.XDG_CONFIG_HOME!, "synapse", "config.json");
    writeFileSync(file, JSON.stringify({ permissions: { deny: ["Read"] } }));
    expect((await sent([], home)).request).toEqual(["Bash", "Write", "Edit"]);
  });

  test("a sub-agent is not offered it either", async () => {
    const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");
    let main = 0;
    const mainReplies: ScriptedReply[] = [
      { toolCalls: [{ id: "toolu_g", name: "Bash", input: { command: "task:general -p look" } }] },
      { text: "done" },
    ];
    const s = await serve((req) => (isSub(req) ? { text: "sub done" } : (mainReplies[main++] ?? { text: "over" })));
    const r = await runBinary({ args: ["--deny", "Edit", "-y", "go"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    const sub = s.requests.find(isSub)!;
    expect(offered(sub)).toEqual(["Bash", "Read", "Glob", "Grep"]);
  });

  test("an MCP deny rule takes that tool (or that server's tools) out of the offer", async () => {
    const everything = resolve(
      import.meta.dir,
      "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    const mcp = JSON.stringify({ mcpServers: { every: { command: "node", args: [everything, "stdio"] } } });
    const one = await sent(["--mcp-config", mcp, "--deny", "mcp__every__echo"]);
    expect(one.request).not.toContain("mcp__every__echo");
    expect(one.request.filter((n) => n.startsWith("mcp__every__")).length).toBeGreaterThan(0);
    const server = await sent(["--mcp-config", mcp, "--deny", "mcp__every"]);
    expect(server.request.filter((n) => n.startsWith("mcp__"))).toEqual([]);
  }, 30_000);
});

describe("a bad permission rule in a config file names the file", () => {
  const bad = async (where: "user" | "project", rule: string) => {
    const home = tempHome();
    const dir = where === "user" ? join(home.env.XDG_CONFIG_HOME!, "synapse") : join(home.dir, ".synapse");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "config.json");
    writeFileSync(file, JSON.stringify({ permissions: { deny: ["Read(docs/**)", rule] } }));
    const r = await runBinary({
      args: ["hi"],
      env: { ...home.env, ...providerEnv("http://127.0.0.1:9") },
      cwd: home.dir,
    });
    return { ...r, file };
  };

  for (const where of ["user", "project"] as const)
    test(`the ${where} config: one line naming the file and the key, exit 2`, async () => {
      const r = await bad(where, "Wrte(src/**)");
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `synapse: invalid config file ${r.file}: permissions.deny: invalid permission rule "Wrte(src/**)": ` +
          'unknown tool "Wrte" (one of Bash, Read, Write, Edit, Glob, Grep)\n',
      );
    });

  test("an MCP rule too; a rule from a flag stays named as it is", async () => {
    const mcp = await bad("user", "mcp__x y");
    expect(mcp.code).toBe(2);
    expect(mcp.stderr).toContain(
      `invalid config file ${mcp.file}: permissions.deny: invalid permission rule "mcp__x y"`,
    );
    const flag = await runBinary({ args: ["--deny", "Wrte", "hi"], env: providerEnv("http://127.0.0.1:9") });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      'synapse: invalid permission rule "Wrte": unknown tool "Wrte" (one of Bash, Read, Write, Edit, Glob, Grep)\n',
    );
  });
});

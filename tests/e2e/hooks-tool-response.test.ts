// PostToolUse hooks get Claude Code's per-tool `tool_response` fields (Bash's stdout, Write's and
// Edit's filePath and patch, Read's file, Glob's and Grep's filenames), through the compiled binary
// against the fake model with a real hook script that records its stdin; and a secret a command
// prints reaches the hook redacted, as it reaches the model.

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { providerEnv, runBinary } from "../support/binary.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { HAVE_BWRAP, NEEDS_BWRAP } from "../sandbox/support.ts";
import { type HookWorld, hookWorld } from "./hooks-support.ts";

const serve = fakeLLMPerTest();
const EVERYTHING = resolve(import.meta.dir, "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const it = (name: string, fn: () => Promise<void>) => test.skipIf(!HAVE_BWRAP)(name + NEEDS_BWRAP, fn, 60_000);

// Each hook run writes its stdin to a file of its own (hooks of one turn may run side by side; in
// the sandbox's own pid namespace every hook may have the same $$).
const RECORD = 'd="$CLAUDE_PROJECT_DIR/.hooklog"; mkdir -p "$d"; cat > "$(mktemp "$d/XXXXXX")"';
const recordingWorld = () => hookWorld({ PostToolUse: [{ hooks: [{ type: "command", command: RECORD }] }] });

/** Every PostToolUse event the hook heard, by tool_use_id. */
function heard(w: HookWorld): Map<string, any> {
  const dir = join(w.ws, ".hooklog");
  const events = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")));
  return new Map(events.map((e) => [e.tool_use_id, e]));
}

const call = (id: string, name: string, input: Record<string, unknown>) => ({ toolCalls: [{ id, name, input }] });

async function run(w: HookWorld, fake: FakeLLM, env: Record<string, string> = {}) {
  return runBinary({ args: ["go"], env: { ...w.env, ...providerEnv(fake.url), ...env }, cwd: w.ws });
}

describe("PostToolUse tool_response: Claude Code's per-tool fields", () => {
  it("Write, Edit, Read, Glob, Grep and Bash each give their fields, beside content and is_error", async () => {
    const w = recordingWorld();
    writeFileSync(join(w.ws, "notes.txt"), "alpha\nbeta\ngamma\n");
    const fake = await serve([
      call("w1", "Write", { path: "src/app.ts", content: "export const a = 1;\n" }),
      call("e1", "Edit", { path: "notes.txt", old_string: "beta", new_string: "BETA" }),
      call("r1", "Read", { path: "notes.txt", offset: 2 }),
      call("g1", "Glob", { pattern: "src/**/*.ts" }),
      call("s1", "Grep", { pattern: "BETA", glob: "*.txt", output_mode: "content" }),
      call("b1", "Bash", { command: "echo out; echo err >&2; exit 3" }),
      { text: "done" },
    ]);
    expect((await run(w, fake)).code).toBe(0);
    const events = heard(w);
    const app = join(w.ws, "src", "app.ts");
    const notes = join(w.ws, "notes.txt");

    expect(events.get("w1").tool_response).toEqual({
      type: "create",
      filePath: app,
      content: "export const a = 1;\n",
      structuredPatch: [],
      originalFile: null,
      userModified: false,
      is_error: false,
    });
    expect(events.get("e1").tool_response).toMatchObject({
      filePath: notes,
      oldString: "beta",
      newString: "BETA",
      originalFile: "alpha\nbeta\ngamma\n",
      replaceAll: false,
      userModified: false,
      structuredPatch: [
        { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [" alpha", "-beta", "+BETA", " gamma"] },
      ],
      is_error: false,
    });
    expect(events.get("e1").tool_response.content).toStartWith(`Edited ${notes}: 1 replacement`);
    expect(events.get("r1").tool_response).toMatchObject({
      type: "text",
      file: { filePath: notes, content: "BETA\ngamma", numLines: 2, startLine: 2, totalLines: 3 },
      is_error: false,
    });
    expect(events.get("r1").tool_response.content).toContain("     2\tBETA");
    expect(events.get("g1").tool_response).toMatchObject({
      filenames: [app],
      numFiles: 1,
      truncated: false,
      totalMatches: 1,
      is_error: false,
    });
    expect(events.get("g1").tool_response.durationMs).toBeNumber();
    expect(events.get("s1").tool_response).toEqual({
      mode: "content",
      numFiles: 1,
      filenames: [notes],
      content: `${notes}:2:BETA`,
      numLines: 1,
      is_error: false,
    });
    // One terminal carries both streams: stderr is in stdout, in the order printed.
    const bash = events.get("b1").tool_response;
    expect(bash).toMatchObject({ stdout: "out\nerr\n", interrupted: false, isImage: false, is_error: true });
    expect(bash.content).toContain("Exit code: 3");
    expect(bash).not.toHaveProperty("stderr");
  });

  it("a secret a command prints reaches the hook's tool_response.stdout redacted", async () => {
    const KEY = "sk-ant-hook-5e4d3c2b1a09f8e7d6c5";
    const w = recordingWorld();
    writeFileSync(join(w.ws, "config.txt"), `api_key = ${KEY}\n`);
    const fake = await serve([call("b1", "Bash", { command: "cat config.txt" }), { text: "done" }]);
    expect((await run(w, fake, { ANTHROPIC_API_KEY: KEY })).code).toBe(0);
    const response = heard(w).get("b1").tool_response;
    expect(response.stdout).toBe("api_key = [redacted]\n");
    expect(JSON.stringify(response)).not.toContain(KEY);
  });

  it("a sub-agent's call: its fields cross to the main thread's hooks, the secret redacted", async () => {
    const KEY = "sk-ant-hook-sub-0a1b2c3d4e5f6a7b8c";
    const w = recordingWorld();
    writeFileSync(join(w.ws, "config.txt"), `api_key = ${KEY}\n`);
    const isSub = (req: any) => JSON.stringify(req.body?.system ?? "").includes("You are a sub-agent");
    const fake = await serve((req: any) => {
      const first = req.body.messages.length === 1;
      if (isSub(req)) return first ? call("sub_1", "Bash", { command: "cat config.txt" }) : { text: "sub done" };
      const delegate = { command: "task:general --prompt 'show the config'" };
      return first ? call("task_1", "Bash", delegate) : { text: "done" };
    });
    const r = await runBinary({
      args: ["-y", "go"],
      env: { ...w.env, ...providerEnv(fake.url), ANTHROPIC_API_KEY: KEY },
      cwd: w.ws,
      timeoutMs: 50_000,
    });
    expect(r.code).toBe(0);
    const response = heard(w).get("sub_1").tool_response;
    expect(response).toMatchObject({ stdout: "api_key = [redacted]\n", interrupted: false, is_error: false });
    expect(JSON.stringify(response)).not.toContain(KEY);
  });

  it("an MCP tool's structuredContent, the main agent's call and a sub-agent's", async () => {
    const w = recordingWorld();
    const isSub = (req: any) => JSON.stringify(req.body?.system ?? "").includes("You are a sub-agent");
    const weather = "mcp__every__get-structured-content";
    const fake = await serve((req: any) => {
      const turn = req.body.messages.length;
      if (isSub(req)) return turn === 1 ? call("m2", weather, { location: "New York" }) : { text: "sub done" };
      if (turn === 1) return call("m1", weather, { location: "Chicago" });
      if (turn === 3) return call("task_1", "Bash", { command: "task:general --prompt 'the weather'" });
      return { text: "done" };
    });
    const server = { command: "node", args: [EVERYTHING, "stdio"] };
    const r = await runBinary({
      args: ["--mcp-config", JSON.stringify({ mcpServers: { every: server } }), "--allow", "mcp__every", "-y", "go"],
      env: { ...w.env, ...providerEnv(fake.url) },
      cwd: w.ws,
      timeoutMs: 50_000,
    });
    expect(r.code).toBe(0);
    const events = heard(w);
    const chicago = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
    expect(events.get("m1").tool_response).toEqual({ ...chicago, content: JSON.stringify(chicago), is_error: false });
    expect(events.get("m2").tool_response).toMatchObject({ temperature: 33, conditions: "Cloudy", is_error: false });
  });

  it("a .env file Glob and Grep find stays out of their filenames and content, as of the model's", async () => {
    const w = recordingWorld();
    writeFileSync(join(w.ws, ".env"), "TOKEN=hunter2-canary\n");
    writeFileSync(join(w.ws, "app.cfg"), "TOKEN=placeholder\n");
    const fake = await serve([
      call("g1", "Glob", { pattern: "{.env,app.cfg}" }),
      call("s1", "Grep", { pattern: "TOKEN", glob: "{.env,app.cfg}", output_mode: "content" }),
      call("s2", "Grep", { pattern: "TOKEN", glob: "{.env,app.cfg}" }),
      { text: "done" },
    ]);
    expect((await run(w, fake)).code).toBe(0);
    const events = heard(w);
    const cfg = join(w.ws, "app.cfg");
    expect(events.get("g1").tool_response).toMatchObject({ filenames: [cfg], numFiles: 1 });
    expect(events.get("s2").tool_response).toMatchObject({ filenames: [cfg], numFiles: 1 });
    const grep = events.get("s1").tool_response;
    expect(grep.filenames).toEqual([cfg]);
    expect(grep.content).toStartWith(`${cfg}:1:TOKEN=placeholder\n(1 line from .env`);
    for (const e of events.values()) expect(JSON.stringify(e.tool_response)).not.toContain('.env"');
    expect(JSON.stringify([...events.values()])).not.toContain("hunter2-canary");
  });
});

// The headless agent under Deno (`deno run` of the TypeScript sources) against the fake server: a
// tool loop with Read, Edit and Bash on both wire formats, the API key kept from commands, resume,
// a sub-agent in a worker thread, and SIGINT during a command.
// Without Deno installed (the `deno` devDependency) each test is reported as skipped, by name.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { providerEnv, tempHome } from "../support/binary.ts";
import { denoBinary, runDeno, spawnDeno } from "../support/deno.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { survivors, until } from "../shell/support.ts";

const DENO = denoBinary();
const serve = fakeLLMPerTest();
const project = () => mkdtempSync(join(tmpdir(), "synapse-deno-"));

function toolResults(body: any): string[] {
  // Anthropic: tool_result blocks in user messages; OpenAI: role "tool" messages.
  const out: string[] = [];
  for (const m of body.messages) {
    if (m.role === "tool") out.push(JSON.stringify(m.content));
    if (Array.isArray(m.content))
      for (const b of m.content) if (b.type === "tool_result") out.push(JSON.stringify(b.content));
  }
  return out;
}

// Deno transpiles the sources on a first run and starts sub-agent threads from TypeScript: a hang
// guard well above that, not a speed claim.
const denoTest = (name: string, fn: () => Promise<void>) => test(name, fn, 60_000);

describe.skipIf(!DENO)("under Deno", () => {
  for (const provider of ["anthropic", "openai"] as const) {
    denoTest(`a tool loop with Read, Edit and Bash (${provider})`, async () => {
      const dir = project();
      writeFileSync(join(dir, "app.js"), "const greeting = 'helo';\n");
      const s = await serve([
        { text: "Reading.", toolCalls: [{ name: "Read", input: { path: "app.js" } }] },
        { toolCalls: [{ name: "Edit", input: { path: "app.js", old_string: "'helo'", new_string: "'hello'" } }] },
        { toolCalls: [{ name: "Bash", input: { command: 'cat app.js; echo "pool=$BASH_VERSION"' } }] },
        { text: "Fixed the typo." },
      ]);
      const home = tempHome();
      const r = await runDeno(DENO!, {
        args: ["-o", "json"],
        stdin: "fix the typo in app.js",
        cwd: dir,
        env: { ...home.env, ...providerEnv(s.url, provider) },
      });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ subtype: "success", num_turns: 4, result: "Fixed the typo." });
      expect(readFileSync(join(dir, "app.js"), "utf8")).toBe("const greeting = 'hello';\n");
      expect(s.requests).toHaveLength(4);
      const results = toolResults(s.requests[3]!.body);
      expect(results[0]).toContain("helo");
      expect(results[2]).toContain("const greeting = 'hello';");
      expect(results[2]).toMatch(/pool=\d+\.\d+/);
      // The prompt came from the pipe.
      expect(JSON.stringify(s.requests[0]!.body.messages)).toContain("fix the typo in app.js");
    });
  }

  denoTest("a command cannot read the API key from synapse's environment block", async () => {
    const dir = project();
    const s = await serve([
      {
        toolCalls: [
          {
            name: "Bash",
            input: {
              command: "env | grep -c LEAK-CANARY; tr '\\0' '\\n' < /proc/$PPID/environ | grep -c LEAK-CANARY; true",
            },
          },
        ],
      },
      { text: "done" },
    ]);
    const env = { ...tempHome().env, ...providerEnv(s.url), ANTHROPIC_API_KEY: "sk-LEAK-CANARY" };
    const r = await runDeno(DENO!, { args: ["go"], cwd: dir, env });
    expect(r.code).toBe(0);
    // The key still reached the provider; the command saw it neither in its env nor in /proc.
    expect(JSON.stringify(s.requests[0]!.headers)).toContain("sk-LEAK-CANARY");
    expect(toolResults(s.requests[1]!.body)[0]).toContain("0\\n0");
  });

  // The Deno half of issue 16 §1. Deno 2.9 looks for deno.json from the entry module's folder, so a
  // repository's file is not found today either: this guards the invocation (--no-config, no --env-file).
  denoTest("a repository's deno.json and .env configure nothing", async () => {
    const dir = project();
    writeFileSync(join(dir, "deno.json"), "{ not json: a config Deno read would stop the run");
    writeFileSync(join(dir, ".env"), "ANTHROPIC_BASE_URL=http://127.0.0.1:9\nSYNAPSE_PERMISSION_MODE=bypass\n");
    const s = await serve([
      { toolCalls: [{ name: "Bash", input: { command: 'echo "mode=[$SYNAPSE_PERMISSION_MODE]"' } }] },
      { text: "done" },
    ]);
    const r = await runDeno(DENO!, {
      args: ["-o", "json", "go"],
      cwd: dir,
      env: { ...tempHome().env, ...providerEnv(s.url) },
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(toolResults(s.requests[1]!.body)[0]).toContain("mode=[]");
  });

  denoTest("--continue resumes the session the previous run saved", async () => {
    const dir = project();
    const home = tempHome();
    const first = await serve([{ text: "Noted: 42." }]);
    const a = await runDeno(DENO!, {
      args: ["remember the number 42"],
      cwd: dir,
      env: { ...home.env, ...providerEnv(first.url) },
    });
    expect(a.code).toBe(0);
    expect(a.stdout).toBe("Noted: 42.\n");
    const second = await serve([{ text: "It was 42." }]);
    const b = await runDeno(DENO!, {
      args: ["-c", "which number?"],
      cwd: dir,
      env: { ...home.env, ...providerEnv(second.url) },
    });
    expect(b.code).toBe(0);
    expect(b.stdout).toBe("It was 42.\n");
    const sent = JSON.stringify(second.requests[0]!.body.messages);
    expect(sent).toContain("remember the number 42");
    expect(sent).toContain("Noted: 42.");
    expect(sent).toContain("which number?");
  });

  denoTest("a sub-agent runs in a worker thread and its answer comes back as the tool result", async () => {
    const dir = project();
    writeFileSync(join(dir, "answer.txt"), "42\n");
    // Requests are told apart by their first user message: the sub-agent's is its own prompt.
    const firstUser = (req: any) => JSON.stringify(req.body.messages.find((m: any) => m.role === "user")?.content);
    const s = await serve((req) => {
      const sub = firstUser(req).includes("find the answer file");
      const turn = req.body.messages.filter((m: any) => m.role === "assistant").length;
      if (sub)
        return turn === 0
          ? { toolCalls: [{ name: "Glob", input: { pattern: "*.txt" } }] }
          : { text: "SUBAGENT-ANSWER: answer.txt" };
      return turn === 0
        ? {
            toolCalls: [
              { name: "Bash", input: { command: 'task:explore --prompt "find the answer file" --description "look"' } },
            ],
          }
        : { text: "main done" };
    });
    const r = await runDeno(DENO!, {
      args: ["-o", "json", "go"],
      cwd: dir,
      env: { ...tempHome().env, ...providerEnv(s.url) },
    });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ subtype: "success", result: "main done" });
    expect(result.stats.tasks_run).toBe(1);
    expect(s.requests).toHaveLength(4);
    expect(toolResults(s.requests[3]!.body).join("")).toContain("SUBAGENT-ANSWER: answer.txt");
  });

  denoTest("SIGINT during a command: exit 130, the command's processes are gone", async () => {
    const dir = project();
    const marker = `${Math.floor(Math.random() * 1e6) + 1000}.${Math.floor(Math.random() * 1000)}`;
    const s = await serve([
      { toolCalls: [{ name: "Bash", input: { command: `echo started; sleep ${marker}` } }] },
      { text: "never" },
    ]);
    const proc = spawnDeno(DENO!, { args: ["go"], cwd: dir, env: { ...tempHome().env, ...providerEnv(s.url) } });
    // Once the command runs, interrupt, as Ctrl-C would.
    expect(await until(() => survivors(marker).length > 0, 30_000)).toBe(true);
    proc.kill("SIGINT");
    const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect(err).toContain("interrupted");
    expect(code).toBe(130);
    expect(survivors(marker)).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });
});

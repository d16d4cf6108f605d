// Hooks from configuration (issue 21 §4), through the compiled binary against the fake model: real
// shell-command hooks in Claude Code's settings format block, allow, add context, keep the model
// working at Stop, are killed at their time limit, and hear SessionStart, UserPromptSubmit and
// PreCompact with Claude Code's JSON. The attacks (a hostile project's hooks, the keys, writes
// outside the workspace, an "allow" against a deny rule) are in hooks-attacks.test.ts.

import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { providerEnv, runBinary } from "../support/binary.ts";
import type { FakeLLM, RecordedRequest } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { isSummaryRequest } from "../support/summary-request.ts";
import { HAVE_BWRAP, NEEDS_BWRAP } from "../sandbox/support.ts";
import { hookWorld, type HookWorld, lastToolResult } from "./hooks-support.ts";

const serve = fakeLLMPerTest();
const it = (name: string, fn: () => Promise<void>) => test.skipIf(!HAVE_BWRAP)(name + NEEDS_BWRAP, fn, 60_000);

const bash = (command: string, id = "call_1") => ({ toolCalls: [{ id, name: "Bash", input: { command } }] });

async function run(w: HookWorld, fake: FakeLLM, prompt: string, args: string[] = []) {
  return runBinary({ args: [...args, prompt], env: { ...w.env, ...providerEnv(fake.url) }, cwd: w.ws });
}

const posts = (fake: FakeLLM): RecordedRequest[] => fake.requests.filter((r) => r.path === "/v1/messages");

describe("hooks from the user's config", () => {
  it("PreToolUse exit 2 blocks the call: the model gets stderr as an is_error result", async () => {
    const w = hookWorld({
      PreToolUse: [
        {
          matcher: "Bash|Write",
          hooks: [
            { type: "command", command: 'cat > "$CLAUDE_PROJECT_DIR/pre.json"; echo "no shell today" >&2; exit 2' },
          ],
        },
      ],
    });
    const fake = await serve([bash("echo hi > made.txt"), { text: "ok" }]);
    const r = await run(w, fake, "make a file");
    expect(r.code).toBe(0);
    expect(existsSync(join(w.ws, "made.txt"))).toBe(false);
    const result = lastToolResult(posts(fake)[1]!);
    expect(result.is_error).toBe(true);
    expect(result.text).toBe("Blocked by a PreToolUse hook: no shell today");
    const event = JSON.parse(readFileSync(join(w.ws, "pre.json"), "utf8"));
    expect(event).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo hi > made.txt" },
      tool_use_id: "call_1",
      cwd: w.ws,
      permission_mode: "default",
    });
    expect(event.session_id).toMatch(/\S/);
    expect(event.transcript_path).toEndWith("/messages.jsonl");
  });

  it('PreToolUse JSON {"decision":"block"} blocks too; a matcher that does not select the tool lets it run', async () => {
    const block = `echo '{"decision":"block","reason":"json says no"}'`;
    const w = hookWorld({
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: block }] },
        { matcher: "Write", hooks: [{ type: "command", command: "exit 2" }] },
      ],
    });
    const fake = await serve([bash("touch a.txt"), { text: "ok" }]);
    await run(w, fake, "go");
    expect(lastToolResult(posts(fake)[1]!).text).toBe("Blocked by a PreToolUse hook: json says no");

    const other = hookWorld({
      PreToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "exit 2" }] }],
    });
    const fake2 = await serve([bash("touch b.txt"), { text: "ok" }]);
    expect((await run(other, fake2, "go")).code).toBe(0);
    expect(existsSync(join(other.ws, "b.txt"))).toBe(true);
  });

  it("PostToolUse additionalContext is added to the tool's result; the hook gets tool_response", async () => {
    const context = `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 0 problems"}}`;
    const w = hookWorld({
      PostToolUse: [
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: `cat > "$CLAUDE_PROJECT_DIR/post.json"; echo '${context}'` }],
        },
      ],
    });
    const fake = await serve([bash("echo made-it"), { text: "ok" }]);
    expect((await run(w, fake, "go")).code).toBe(0);
    const result = lastToolResult(posts(fake)[1]!);
    expect(result.is_error).toBe(false);
    expect(result.text).toContain("made-it");
    expect(result.text).toEndWith("PostToolUse hook: lint: 0 problems");
    const event = JSON.parse(readFileSync(join(w.ws, "post.json"), "utf8"));
    expect(event.hook_event_name).toBe("PostToolUse");
    expect(event.tool_response.content).toContain("made-it");
  });

  it("PreToolUse allow answers a question the policy would ask (headless would refuse)", async () => {
    const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`;
    const target = (w: HookWorld) => join(w.outside, "allowed.txt");
    const write = (w: HookWorld) => ({
      toolCalls: [{ id: "w1", name: "Write", input: { path: target(w), content: "x" } }],
    });
    // Without the hook: a write outside the workspace asks, and a headless run cannot ask.
    const plain = hookWorld({});
    const fake1 = await serve([write(plain), { text: "ok" }]);
    await run(plain, fake1, "write");
    expect(existsSync(target(plain))).toBe(false);
    expect(lastToolResult(posts(fake1)[1]!).text).toContain("Permission denied");

    const w = hookWorld({ PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: allow }] }] });
    const fake2 = await serve([write(w), { text: "ok" }]);
    await run(w, fake2, "write");
    expect(lastToolResult(posts(fake2)[1]!).is_error).toBe(false);
    expect(readFileSync(target(w), "utf8")).toBe("x");
  });

  it('PreToolUse "ask" puts a question even where the policy allows: headless, the call is refused', async () => {
    const ask = `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"touches prod"}}'`;
    const w = hookWorld({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: ask }] }] });
    const fake = await serve([bash("touch asked.txt"), { text: "ok" }]);
    const r = await run(w, fake, "go");
    expect(r.code).toBe(0);
    expect(existsSync(join(w.ws, "asked.txt"))).toBe(false);
    const result = lastToolResult(posts(fake)[1]!);
    expect(result.is_error).toBe(true);
    expect(result.text).toStartWith("Permission denied: a PreToolUse hook asks for approval: touches prod.");
  });

  it("Stop exit 2 sends the model back to work with the reason, and stop_hook_active says so next time", async () => {
    const once =
      'input=$(cat); echo "$input" >> "$CLAUDE_PROJECT_DIR/stops.jsonl"; ' +
      'case "$input" in *\'"stop_hook_active":true\'*) exit 0;; esac; echo "run the tests too" >&2; exit 2';
    const w = hookWorld({ Stop: [{ hooks: [{ type: "command", command: once }] }] });
    const fake = await serve([{ text: "done" }, { text: "tests ran" }]);
    const r = await run(w, fake, "fix it", ["-o", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe("tests ran");
    const second = posts(fake)[1]!.body.messages.at(-1);
    expect(JSON.stringify(second)).toContain("Stop hook feedback: run the tests too");
    const heard = readFileSync(join(w.ws, "stops.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(heard.map((e) => e.stop_hook_active)).toEqual([false, true]);
  });

  it("a Stop hook that always blocks gets at most 3 continuations", async () => {
    const w = hookWorld({ Stop: [{ hooks: [{ type: "command", command: "echo 'keep going' >&2; exit 2" }] }] });
    const fake = await serve(() => ({ text: "finished" }));
    const r = await run(w, fake, "go");
    expect(r.code).toBe(0);
    expect(posts(fake).length).toBe(4);
    expect(r.stderr).toContain("a Stop hook kept the run going 3 times: it ends here");
  });

  it("a hook past its timeout is killed with everything it started; the call goes on", async () => {
    const marker = `31.${process.pid}${Date.now() % 100000}`;
    const slow = `sleep ${marker} & sleep ${marker}`;
    const w = hookWorld({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: slow, timeout: 1 }] }] });
    const fake = await serve([bash("echo ran-anyway"), { text: "ok" }]);
    const r = await run(w, fake, "go");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('hook PreToolUse "sleep');
    expect(r.stderr).toContain("timed out and was killed");
    expect(lastToolResult(posts(fake)[1]!).text).toContain("ran-anyway");
    const alive = () =>
      readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
          } catch {
            return false;
          }
        });
    // SIGKILL is delivered asynchronously: give it a moment (a bound only for a failing test).
    for (let i = 0; i < 100 && alive().length; i++) await Bun.sleep(50);
    expect(alive()).toEqual([]);
  });

  it("SessionStart and UserPromptSubmit hear Claude Code's JSON; their stdout goes with the prompt", async () => {
    const w = hookWorld({
      SessionStart: [
        { hooks: [{ type: "command", command: 'cat > "$CLAUDE_PROJECT_DIR/start.json"; echo from-start' }] },
      ],
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: 'cat > "$CLAUDE_PROJECT_DIR/prompt.json"; echo from-prompt-hook' }] },
      ],
    });
    const fake = await serve([{ text: "ok" }, { text: "again" }]);
    expect((await run(w, fake, "hello there")).code).toBe(0);
    const sent = JSON.stringify(posts(fake)[0]!.body.messages[0]);
    expect(sent).toContain("hello there");
    expect(sent).toContain("from-start");
    expect(sent).toContain("from-prompt-hook");
    const start = JSON.parse(readFileSync(join(w.ws, "start.json"), "utf8"));
    expect(start).toMatchObject({ hook_event_name: "SessionStart", source: "startup", cwd: w.ws });
    const prompt = JSON.parse(readFileSync(join(w.ws, "prompt.json"), "utf8"));
    expect(prompt).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "hello there" });
    expect(prompt.session_id).toBe(start.session_id);
    // Resumed: SessionStart says so.
    expect((await run(w, fake, "more", ["-c"])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(w.ws, "start.json"), "utf8")).source).toBe("resume");
  });

  it("UserPromptSubmit exit 2 keeps the prompt from being sent", async () => {
    const w = hookWorld({
      UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo 'no secrets in prompts' >&2; exit 2" }] }],
    });
    const fake = await serve([{ text: "never" }]);
    const r = await run(w, fake, "my password is hunter2", ["-o", "json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).result).toBe(
      "The prompt was blocked by a UserPromptSubmit hook: no secrets in prompts",
    );
    expect(posts(fake)).toEqual([]);
  });

  it("a sandboxed hook reads its own session's transcript_path, and no other session's files", async () => {
    // Claude Code's Stop hooks read the transcript; the rest of synapse's data stays hidden.
    const command =
      'p=$(sed -n \'s/.*"transcript_path":"\\([^"]*\\)".*/\\1/p\'); ' +
      'cp "$p" "$CLAUDE_PROJECT_DIR/transcript.copy"; ls "$(dirname "$(dirname "$p")")" > "$CLAUDE_PROJECT_DIR/seen.txt"';
    const w = hookWorld({ Stop: [{ hooks: [{ type: "command", command }] }] });
    const first = await serve([{ text: "one" }]);
    expect((await run(w, first, "the first session")).code).toBe(0);
    const fake = await serve([{ text: "two" }]);
    const r = await run(w, fake, "remember the word PELICAN", ["-o", "json"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(w.ws, "transcript.copy"), "utf8")).toContain("remember the word PELICAN");
    // The sessions folder shows only this session's own folder (the first session's is hidden).
    const sessionId = JSON.parse(r.stdout).session_id;
    expect(readFileSync(join(w.ws, "seen.txt"), "utf8").trim().split("\n")).toEqual([sessionId]);
  });

  it('PreToolUse "continue": false stops the agent: no call of the turn runs, no request follows, exit 1', async () => {
    const stop = JSON.stringify({ continue: false, stopReason: "production freeze" });
    const w = hookWorld({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${stop}'` }] }] });
    const turn = {
      toolCalls: [
        { id: "c1", name: "Bash", input: { command: "touch a.txt" } },
        { id: "c2", name: "Write", input: { path: "b.txt", content: "b" } },
      ],
    };
    const fake = await serve([turn, { text: "never asked" }]);
    const r = await run(w, fake, "make files", ["-o", "json"]);
    expect(r.code).toBe(1);
    expect(existsSync(join(w.ws, "a.txt"))).toBe(false);
    expect(existsSync(join(w.ws, "b.txt"))).toBe(false);
    expect(posts(fake)).toHaveLength(1);
    expect(r.stderr).toContain("a hook stopped the agent: production freeze");
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({
      subtype: "error_during_execution",
      terminal_reason: "hook_stopped",
      result: "Stopped by a hook: production freeze",
    });
    // Every call got its result: the session goes on well-formed.
    const next = await serve([{ text: "resumed" }]);
    const again = await runBinary({
      args: ["-c", "go on"],
      env: { ...w.env, ...providerEnv(next.url) },
      cwd: w.ws,
    });
    expect(again.code).toBe(0);
    const sent = posts(next)[0]!.body.messages.at(-1).content;
    const results = sent.filter((b: any) => b.type === "tool_result");
    expect(results.map((b: any) => [b.tool_use_id, b.content])).toEqual([
      ["c1", "Stopped by a PreToolUse hook: production freeze"],
      ["c2", "Not run: a hook stopped the agent."],
    ]);
  });

  it('PostToolUse "continue": false: the call ran, then the agent stops', async () => {
    const stop = JSON.stringify({ continue: false });
    const w = hookWorld({
      PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${stop}'` }] }],
    });
    const fake = await serve([bash("touch ran.txt"), { text: "never asked" }]);
    const r = await run(w, fake, "make a file");
    expect(r.code).toBe(1);
    expect(existsSync(join(w.ws, "ran.txt"))).toBe(true);
    expect(posts(fake)).toHaveLength(1);
    expect(r.stderr).toMatch(/a hook stopped the agent: stopped by hook /);
  });

  it('Stop "continue": false wins over a block: the answer stands, exit 0', async () => {
    const stop = JSON.stringify({ continue: false, stopReason: "enough", decision: "block", reason: "go on" });
    const w = hookWorld({ Stop: [{ hooks: [{ type: "command", command: `echo '${stop}'` }] }] });
    const fake = await serve([{ text: "the answer" }, { text: "never asked" }]);
    const r = await run(w, fake, "answer", ["-o", "json"]);
    expect(r.code).toBe(0);
    expect(posts(fake)).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      subtype: "success",
      result: "the answer",
      terminal_reason: "hook_stopped",
    });
  });

  it('UserPromptSubmit "continue": false: nothing is sent, exit 1', async () => {
    const stop = JSON.stringify({ continue: false, stopReason: "outside office hours" });
    const w = hookWorld({ UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo '${stop}'` }] }] });
    const fake = await serve([{ text: "never asked" }]);
    const r = await run(w, fake, "hello");
    expect(r.code).toBe(1);
    expect(posts(fake)).toEqual([]);
    expect(r.stderr).toContain("a hook stopped the agent: outside office hours");
  });

  it("PreToolUse updatedInput: the call runs with the hook's input, and PostToolUse hears that input", async () => {
    const rewrite = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "echo rewritten" } },
    });
    const w = hookWorld({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${rewrite}'` }] }],
      PostToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: 'cat > "$CLAUDE_PROJECT_DIR/post.json"' }] },
      ],
    });
    const fake = await serve([bash("echo original"), bash("echo again", "call_2"), { text: "ok" }]);
    expect((await run(w, fake, "say it")).code).toBe(0);
    const result = lastToolResult(posts(fake)[1]!);
    expect(result.is_error).toBeFalsy();
    expect(result.text).toContain("rewritten");
    expect(result.text).not.toContain("original");
    expect(JSON.parse(readFileSync(join(w.ws, "post.json"), "utf8")).tool_input).toEqual({ command: "echo rewritten" });
    // The model's own call stays as it sent it in the conversation.
    const asked = posts(fake)[1]!
      .body.messages.at(-2)
      .content.find((b: any) => b.type === "tool_use");
    expect(asked.input).toEqual({ command: "echo original" });
  });

  it("a hook written for Claude Code reads and rewrites a file tool's file_path", async () => {
    // Claude Code's formatter recipe reads `.tool_input.file_path`; this PreToolUse hook redirects
    // the write by editing that name alone, as such a hook would.
    const redirect = [
      `${process.execPath} -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const e=JSON.parse(s);`,
      `const i={...e.tool_input,file_path:e.tool_input.file_path.replace("draft","final")};`,
      `console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",updatedInput:i}}))})'`,
    ].join("");
    const readPath = `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).tool_input.file_path))`;
    const w = hookWorld({
      PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: redirect }] }],
      PostToolUse: [
        {
          matcher: "Write|Edit",
          hooks: [
            { type: "command", command: `${process.execPath} -e '${readPath}' > "$CLAUDE_PROJECT_DIR/formatted.txt"` },
          ],
        },
      ],
    });
    const write = { toolCalls: [{ id: "call_1", name: "Write", input: { path: "draft.txt", content: "text" } }] };
    const fake = await serve([write, { text: "ok" }]);
    expect((await run(w, fake, "write it", ["--allow", "Write"])).code).toBe(0);
    expect(lastToolResult(posts(fake)[1]!).is_error).toBeFalsy();
    expect(existsSync(join(w.ws, "draft.txt"))).toBe(false);
    expect(readFileSync(join(w.ws, "final.txt"), "utf8")).toBe("text");
    expect(readFileSync(join(w.ws, "formatted.txt"), "utf8").trim()).toBe("final.txt");
  });

  it("an updatedInput the tool's schema refuses is an is_error result; nothing runs", async () => {
    const bad = JSON.stringify({ hookSpecificOutput: { updatedInput: { command: 42 } } });
    const w = hookWorld({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${bad}'` }] }] });
    const fake = await serve([bash("touch made.txt"), { text: "ok" }]);
    expect((await run(w, fake, "make it")).code).toBe(0);
    expect(existsSync(join(w.ws, "made.txt"))).toBe(false);
    const result = lastToolResult(posts(fake)[1]!);
    expect(result.is_error).toBe(true);
    expect(result.text).toStartWith("Invalid input for Bash (as rewritten by a PreToolUse hook):");
  });

  it("a hook's \"ask\" reaches a sub-agent's call, which cannot ask: refused, not run", async () => {
    const ask = JSON.stringify({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "check" },
    });
    const w = hookWorld({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${ask}'` }] }] });
    const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");
    let main = 0;
    const fake = await serve((req) => {
      if (isSub(req))
        return (req.body.messages.length - 1) / 2 === 0 ? bash("touch sub.txt", "sub_1") : { text: "sub" };
      return main++ === 0 ? bash("task:general --prompt 'make a file'", "task_1") : { text: "all done" };
    });
    expect((await run(w, fake, "delegate", ["-y"])).code).toBe(0);
    expect(existsSync(join(w.ws, "sub.txt"))).toBe(false);
    const result = lastToolResult(posts(fake).filter(isSub)[1]!);
    expect(result.is_error).toBe(true);
    expect(result.text).toContain("a PreToolUse hook asks for approval: check");
  });

  it("a sub-agent's tool calls are hooked too (the worker asks the main thread)", async () => {
    const w = hookWorld({
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            { type: "command", command: 'cat >> "$CLAUDE_PROJECT_DIR/pre.jsonl"; echo "not in tasks" >&2; exit 2' },
          ],
        },
      ],
      PostToolUse: [
        {
          matcher: "Read",
          hooks: [{ type: "command", command: 'echo \'{"hookSpecificOutput":{"additionalContext":"read noted"}}\'' }],
        },
      ],
    });
    const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");
    let main = 0;
    const fake = await serve((req) => {
      if (isSub(req)) {
        const turn = (req.body.messages.length - 1) / 2;
        if (turn === 0) return bash("touch sub.txt", "sub_1");
        if (turn === 1) return { toolCalls: [{ id: "sub_2", name: "Read", input: { path: "pre.jsonl" } }] };
        return { text: "sub done" };
      }
      return main++ === 0 ? bash("task:general --prompt 'make a file'", "task_1") : { text: "all done" };
    });
    expect((await run(w, fake, "delegate")).code).toBe(0);
    expect(existsSync(join(w.ws, "sub.txt"))).toBe(false);
    const subs = posts(fake).filter(isSub);
    expect(lastToolResult(subs[1]!).text).toBe("Blocked by a PreToolUse hook: not in tasks");
    expect(lastToolResult(subs[2]!).text).toEndWith("PostToolUse hook: read noted");
    // Only the sub-agent's own Bash call was heard: the task:* launcher is not a command.
    const heard = readFileSync(join(w.ws, "pre.jsonl"), "utf8").trim().split("\n");
    expect(heard.map((l) => JSON.parse(l).tool_input.command)).toEqual(["touch sub.txt"]);
  });

  it("PreCompact fires for /compact with trigger manual and the focus", async () => {
    const w = hookWorld({
      PreCompact: [
        { matcher: "manual", hooks: [{ type: "command", command: 'cat > "$CLAUDE_PROJECT_DIR/compact.json"' }] },
      ],
    });
    const isSummary = (body: any) => isSummaryRequest(body);
    let n = 0;
    const fake = await serve((req) =>
      isSummary(req.body) ? { text: "SUMMARY" } : { text: `answer ${n++} ${"lorem ipsum ".repeat(200)}` },
    );
    for (let i = 0; i < 4; i++) expect((await run(w, fake, `question ${i}`, i ? ["-c"] : [])).code).toBe(0);
    const r = await runBinary({
      stdin: "/compact keep the numbers",
      args: ["-c"],
      env: { ...w.env, ...providerEnv(fake.url) },
      cwd: w.ws,
    });
    expect(r.code).toBe(0);
    const event = JSON.parse(readFileSync(join(w.ws, "compact.json"), "utf8"));
    expect(event).toMatchObject({
      hook_event_name: "PreCompact",
      trigger: "manual",
      custom_instructions: "keep the numbers",
    });
  });

  it("PreCompact fires with trigger auto when the context condenses by itself", async () => {
    const w = hookWorld({
      PreCompact: [{ matcher: "auto", hooks: [{ type: "command", command: 'cat > "$CLAUDE_PROJECT_DIR/auto.json"' }] }],
    });
    const isSummary = (body: any) => isSummaryRequest(body);
    let n = 0;
    const fake = await serve((req) =>
      isSummary(req.body) ? { text: "SUMMARY" } : { text: `answer ${n++} ${"lorem ipsum ".repeat(150)}` },
    );
    const env = { ...w.env, ...providerEnv(fake.url), SYNAPSE_CONTEXT_WINDOW: "6000", SYNAPSE_MAX_TOKENS: "500" };
    for (let i = 0; i < 8 && !existsSync(join(w.ws, "auto.json")); i++) {
      const r = await runBinary({ args: [...(i ? ["-c"] : []), `question ${i}`], env, cwd: w.ws });
      expect(r.code).toBe(0);
    }
    const event = JSON.parse(readFileSync(join(w.ws, "auto.json"), "utf8"));
    expect(event).toMatchObject({ hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" });
  });
});

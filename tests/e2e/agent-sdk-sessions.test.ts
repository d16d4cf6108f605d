// Sessions as the SDK names them: `sessionId` (--session-id) gives the first session its id,
// `forkSession` with `resume` continues in a copy and leaves the original byte for byte as it was,
// getContextUsage() answers from the last request's real count, rewindFiles() puts back the files
// written since the user message the program named by uuid.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { providerEnv, runBinary } from "../support/binary.ts";
import { collect, ofType, promptStream, sdkOptions } from "../support/agent-sdk.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();

const sessionsOf = (options: { env?: Record<string, string | undefined> }) =>
  join(options.env?.SYNAPSE_HOME ?? "", "sessions");

/** Every file of a folder and its bytes, by path relative to it. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string, rel: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path, `${rel}${name}/`);
      else files[`${rel}${name}`] = readFileSync(path).toString("base64");
    }
  };
  walk(dir, "");
  return files;
}

describe("--session-id", () => {
  test("the new session gets the program's UUID; a resume finds it by that id", async () => {
    const id = crypto.randomUUID();
    const s = await serve([{ text: "first answer" }, { text: "second answer" }]);
    const options = sdkOptions(s.url, { sessionId: id });
    const run = await collect("hello", options);
    expect(run.error).toBeUndefined();
    const init = run.messages.find((m) => m.type === "system" && m.subtype === "init");
    expect(init?.session_id).toBe(id);
    expect(ofType(run.messages, "result")[0]?.session_id).toBe(id);
    expect(existsSync(join(sessionsOf(options), id, "meta.json"))).toBe(true);
    const again = await collect("and now?", { ...options, sessionId: undefined, resume: id });
    expect(ofType(again.messages, "result")[0]?.session_id).toBe(id);
    expect(JSON.stringify(s.requests[1]?.body.messages)).toContain("first answer");
  });

  test("an id already in use is one line and exit 2; the session it names is untouched", async () => {
    const id = crypto.randomUUID();
    const s = await serve([{ text: "only answer" }]);
    const options = sdkOptions(s.url, { sessionId: id });
    await collect("hello", options);
    const before = snapshot(join(sessionsOf(options), id));
    const run = await runBinary({
      args: ["again", "--session-id", id],
      env: { ...options.env, ...providerEnv(s.url) },
      cwd: options.cwd,
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toEqual([`synapse: session id ${id} is already in use`]);
    expect(snapshot(join(sessionsOf(options), id))).toEqual(before);
    expect(s.requests.length).toBe(1);
  });

  test("not a UUID, or with --resume and no --fork-session: a usage error", async () => {
    const s = await serve([]);
    const env = providerEnv(s.url);
    const bad = await runBinary({ args: ["x", "--session-id", "../escape"], env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--session-id must be a UUID");
    const resumed = await runBinary({ args: ["x", "-c", "--session-id", crypto.randomUUID()], env });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain("needs --fork-session");
    expect(s.requests.length).toBe(0);
  });

  test("it names only the first session: after /clear the session has a fresh id", async () => {
    const id = crypto.randomUUID();
    const s = await serve([{ text: "one" }, { text: "three" }]);
    const input = promptStream();
    const q = query({ prompt: input.messages, options: sdkOptions(s.url, { sessionId: id }) });
    input.send("first");
    const results: { session_id: string }[] = [];
    for await (const message of q) {
      if (message.type !== "result") continue;
      results.push(message);
      if (results.length === 1) input.send("/clear");
      else if (results.length === 2) input.send("third");
      else input.end();
    }
    expect(results[0]?.session_id).toBe(id);
    expect(results[2]?.session_id).not.toBe(id);
    expect(results[2]?.session_id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
  });
});

describe("--fork-session", () => {
  test("resume into a copy: the fork holds the history, the original stays byte-identical", async () => {
    const s = await serve([{ text: "remembered: 42" }, { text: "forked: it was 42" }, { text: "still 42" }]);
    const options = sdkOptions(s.url);
    const first = await collect("remember 42", options);
    const original = ofType(first.messages, "result")[0]!.session_id;
    const dir = join(sessionsOf(options), original);
    const before = snapshot(dir);

    const forked = await collect("what was it?", { ...options, resume: original, forkSession: true });
    expect(forked.error).toBeUndefined();
    const fork = ofType(forked.messages, "result")[0]!.session_id;
    expect(fork).not.toBe(original);
    const sent = JSON.stringify(s.requests[1]?.body.messages);
    expect(sent).toContain("remember 42");
    expect(sent).toContain("remembered: 42");
    expect(snapshot(dir)).toEqual(before);

    // The fork is a session of its own: resumed, it has both turns.
    const third = await collect("and again?", { ...options, resume: fork });
    expect(ofType(third.messages, "result")[0]!.session_id).toBe(fork);
    const again = JSON.stringify(s.requests[2]?.body.messages);
    expect(again).toContain("remember 42");
    expect(again).toContain("forked: it was 42");
    expect(snapshot(dir)).toEqual(before);
  });

  test("with sessionId, the fork gets that id; --fork-session alone is a usage error", async () => {
    const s = await serve([{ text: "one" }, { text: "two" }]);
    const options = sdkOptions(s.url);
    const first = await collect("hello", options);
    const original = ofType(first.messages, "result")[0]!.session_id;
    const id = crypto.randomUUID();
    const forked = await collect("more", { ...options, continue: true, forkSession: true, sessionId: id });
    expect(ofType(forked.messages, "result")[0]?.session_id).toBe(id);
    expect(JSON.stringify(s.requests[1]?.body.messages)).toContain("hello");
    expect(existsSync(join(sessionsOf(options), original, "meta.json"))).toBe(true);
    const alone = await runBinary({ args: ["x", "--fork-session"], env: providerEnv(s.url) });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--fork-session needs --resume or --continue");
  });
});

describe("getContextUsage()", () => {
  test("the last turn's tokens against the model's window", async () => {
    const s = await serve([{ text: "hi", usage: { input_tokens: 12_345, output_tokens: 3 } }]);
    const input = promptStream();
    const q = query({ prompt: input.messages, options: sdkOptions(s.url, { model: "claude-sonnet-4-5" }) });
    const empty = await q.getContextUsage();
    input.send("hello");
    let usage: Awaited<ReturnType<typeof q.getContextUsage>> | undefined;
    for await (const message of q) {
      if (message.type !== "result") continue;
      usage = await q.getContextUsage();
      input.end();
    }
    expect(empty.totalTokens).toBe(0);
    // The provider's count of the prompt and of the answer the next prompt will hold.
    expect(usage?.totalTokens).toBe(12_348);
    expect(usage?.maxTokens).toBeGreaterThan(12_348);
    expect(usage?.percentage).toBeCloseTo((12_348 / usage!.maxTokens) * 100, 1);
    expect(usage?.model).toContain("claude-sonnet-4-5");
    const free = usage?.categories.find((c) => c.kind === "free");
    expect(free?.tokens).toBe(usage!.maxTokens - 12_348);
    // No per-file or per-tool breakdown is made up.
    expect(usage).not.toHaveProperty("memoryFiles");
    expect(usage).not.toHaveProperty("mcpTools");
  });
});

describe("rewindFiles()", () => {
  test("puts back the files written since the user message named by its uuid", async () => {
    const write = (id: string, path: string, content: string) => ({
      toolCalls: [{ id, name: "Write", input: { path, content } }],
    });
    const cwd = mkdtempSync(join(tmpdir(), "synapse-sdk-ws-"));
    const a = join(cwd, "a.txt");
    const b = join(cwd, "b.txt");
    const s = await serve([
      write("toolu_1", a, "from the first"),
      { text: "wrote a" },
      write("toolu_2", b, "second"),
      { text: "wrote b" },
    ]);
    const opts = sdkOptions(s.url, { permissionMode: "acceptEdits", cwd });
    const uuids = [crypto.randomUUID(), crypto.randomUUID()];
    const queue: string[] = [];
    let wake: (() => void) | undefined;
    let ended = false;
    async function* prompts() {
      for (let i = 0; ; ) {
        if (queue.length) {
          yield {
            type: "user" as const,
            message: { role: "user" as const, content: queue.shift()! },
            parent_tool_use_id: null,
            session_id: "",
            uuid: uuids[i++] as `${string}-${string}-${string}-${string}-${string}`,
          };
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    }
    const send = (text: string) => {
      queue.push(text);
      wake?.();
    };
    const q = query({ prompt: prompts(), options: opts });
    send("write a");
    const answers: Record<string, unknown> = {};
    let results = 0;
    for await (const message of q) {
      if (message.type !== "result") continue;
      if (++results === 1) send("write b");
      else {
        answers.dry = await q.rewindFiles(uuids[1]!, { dryRun: true });
        answers.bAfterDry = existsSync(b);
        answers.second = await q.rewindFiles(uuids[1]!);
        answers.aAfterSecond = readFileSync(a, "utf8");
        answers.first = await q.rewindFiles(uuids[0]!);
        answers.unknown = await q.rewindFiles(crypto.randomUUID());
        ended = true;
        wake?.();
      }
    }
    expect(answers.dry).toEqual({ canRewind: true, filesChanged: [b] });
    expect(answers.bAfterDry).toBe(true);
    expect(answers.second).toEqual({ canRewind: true, filesChanged: [b] });
    expect(existsSync(b)).toBe(false);
    expect(answers.aAfterSecond).toBe("from the first");
    expect(answers.first).toEqual({ canRewind: true, filesChanged: [a] });
    expect(existsSync(a)).toBe(false);
    expect(answers.unknown).toMatchObject({ canRewind: false });
  });
});

// The executor against a real session runtime and the strict fake server: queueing, waitFor,
// interrupts during a stream, a command and a queue, model switch, reset, and no leaks.

import { afterEach, describe, expect, test } from "bun:test";
import { heapStats } from "bun:jsc";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/config.ts";
import { type ExecutorEvent, createExecutor } from "../../src/executor/executor.ts";
import { itemAt } from "../../src/text/checked-index.ts";
import { openRuntime } from "../../src/executor/session-runtime.ts";
import { sessionsRoot } from "../../src/store/paths.ts";
import { type FakeLLM, type RecordedRequest, startFakeLLM } from "../support/fake-llm.ts";
import { isSummaryRequest } from "../support/summary-request.ts";

let fake: FakeLLM | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

function configFor(url: string) {
  const dir = mkdtempSync(join(tmpdir(), "synapse-exec-"));
  return resolveConfig({
    flags: { permissionMode: "bypass" },
    env: {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: url,
      SYNAPSE_HOME: join(dir, "home"),
      SYNAPSE_RETRY_BASE_MS: "5",
      SYNAPSE_MEMORY_CHECK_INTERVAL_MS: "600000",
    },
    processCwd: dir,
    homeDir: dir,
  });
}

async function start(script: Parameters<typeof startFakeLLM>[0], options?: Parameters<typeof startFakeLLM>[1]) {
  fake = await startFakeLLM(script, options);
  const config = configFor(fake.url);
  const events: ExecutorEvent[] = [];
  const waiters: { match: (e: ExecutorEvent) => boolean; resolve: () => void }[] = [];
  const signals: WeakRef<AbortSignal>[] = [];
  const executor = await createExecutor({
    config,
    open: async (sink, resume) => {
      const runtime = await openRuntime({ config, resume, emit: sink });
      const submit = runtime.submit.bind(runtime);
      runtime.submit = (prompt, signal) => {
        signals.push(new WeakRef(signal));
        return submit(prompt, signal);
      };
      return runtime;
    },
    emit: (e) => {
      events.push(e);
      for (const w of [...waiters])
        if (w.match(e)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
    },
  });
  const next = (match: (e: ExecutorEvent) => boolean) =>
    new Promise<void>((resolve) => waiters.push({ match, resolve }));
  return { executor, events, next, signals, config };
}

/** Every request the fake received for the Messages API (not the models list). */
const isPost = (r: RecordedRequest) => r.path === "/v1/messages";
const posts = () => fake!.requests.filter(isPost);

describe("executor", () => {
  test("a prompt runs the agent and waitFor gives its result", async () => {
    const { executor, events } = await start([{ text: "hello there" }]);
    const id = executor.submit({ text: "hi" });
    const outcome = await executor.waitFor(id);
    expect(outcome.status).toBe("done");
    expect(outcome.result?.result).toBe("hello there");
    expect(events.map((e) => e.type)).toContain("submission_end");
    expect(executor.pending()).toBe(0);
    await executor.close();
  });

  test("submissions run one at a time, in order", async () => {
    const { executor } = await start([{ text: "one", chunkDelayMs: 20 }, { text: "two" }]);
    const a = executor.submit({ text: "first" });
    const b = executor.submit({ text: "second" });
    expect(executor.pending()).toBe(2);
    const [oa, ob] = await Promise.all([executor.waitFor(a), executor.waitFor(b)]);
    expect([oa.result?.result, ob.result?.result]).toEqual(["one", "two"]);
    const second = itemAt(posts(), 1).body.messages;
    expect(second.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
    await executor.close();
  });

  test("an interrupt during a stream keeps the partial text, marked, and the next request is well-formed", async () => {
    const long = "word ".repeat(400);
    const { executor, next } = await start([{ text: long, chunkDelayMs: 30 }, { text: "after" }]);
    const id = executor.submit({ text: "talk" });
    await next((e) => e.type === "text_delta");
    executor.interrupt();
    const outcome = await executor.waitFor(id);
    expect(outcome.status).toBe("interrupted");
    expect(outcome.result?.subtype).toBe("interrupted");
    const again = await executor.waitFor(executor.submit({ text: "go on" }));
    expect(again.result?.result).toBe("after");
    const messages = itemAt(posts(), 1).body.messages;
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
    const cut = messages[1].content.map((b: any) => b.text).join("");
    expect(cut).toStartWith("word");
    expect(cut).toEndWith("[interrupted by the user]");
    await executor.close();
  });

  test("a prompt abandoned before any answer is kept apart from the next, marked as Claude Code marks it", async () => {
    const { executor } = await start([{ hang: true }, { text: "second answer" }]);
    const id = executor.submit({ text: "first prompt" });
    await fake!.waitForRequests(1, undefined, isPost);
    executor.interrupt(id);
    expect((await executor.waitFor(id)).status).toBe("interrupted");
    expect((await executor.waitFor(executor.submit({ text: "second prompt" }))).result?.result).toBe("second answer");
    const messages = itemAt(posts(), 1).body.messages;
    // One user message (the APIs want alternating roles), its prompts as separate blocks, the mark between.
    expect(messages).toHaveLength(1);
    expect(messages[0].content.map((b: any) => b.text)).toEqual([
      "first prompt",
      "[Request interrupted by user]",
      "second prompt",
    ]);
    await executor.close();
  });

  test("an interrupt during a command kills it and answers the call as interrupted", async () => {
    const { executor, next } = await start([
      { toolCalls: [{ id: "toolu_1", name: "Bash", input: { command: "echo started; sleep 30" } }] },
      { text: "ok" },
    ]);
    const id = executor.submit({ text: "run it" });
    await next((e) => e.type === "tool_progress");
    const began = Date.now();
    executor.interrupt(id);
    expect((await executor.waitFor(id)).status).toBe("interrupted");
    expect(Date.now() - began).toBeLessThan(25_000); // the sleep was killed, not waited out
    await executor.waitFor(executor.submit({ text: "next" }));
    const messages = itemAt(posts(), 1).body.messages;
    const results = messages
      .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
      .filter((b: any) => b.type === "tool_result");
    expect(results).toHaveLength(1);
    expect(results[0].tool_use_id).toBe("toolu_1");
    expect(results[0].is_error).toBe(true);
    await executor.close();
  });

  test("an interrupt during a compaction leaves the conversation as it was", async () => {
    // Small usage figures: far from the window, so no automatic condense gets in the way.
    const big = (i: number) => ({
      text: `answer ${i} ${"lorem ipsum ".repeat(300)}`,
      usage: { input_tokens: 5_000 * (i + 1), output_tokens: 900 },
    });
    let turn = 0;
    const { executor, next } = await start((req) => (isSummaryRequest(req.body) ? { hang: true } : big(turn++)));
    for (let i = 0; i < 5; i++) await executor.waitFor(executor.submit({ text: `question ${i}` }));
    const before = posts().at(-1)!.body.messages;
    const id = executor.submit({ text: "/compact keep the tests" });
    const summary = fake!.waitForRequests(1, undefined, (r) => isPost(r) && isSummaryRequest(r.body));
    const ended = await Promise.race([summary.then(() => undefined), executor.waitFor(id)]);
    if (ended) throw new Error(`compaction ended without a summary request: ${JSON.stringify(ended)}`);
    executor.interrupt(id);
    const outcome = await executor.waitFor(id);
    expect(outcome.status).toBe("interrupted");
    expect(outcome.compaction).toBeUndefined();
    await executor.waitFor(executor.submit({ text: "go on" }));
    const after = posts().at(-1)!.body.messages;
    // The cache breakpoint moves to the newest message; apart from it the history is unchanged.
    const bare = (m: unknown) => JSON.stringify(m).replaceAll(',"cache_control":{"type":"ephemeral"}', "");
    expect(bare(after.slice(0, before.length))).toBe(bare(before));
    void next;
    await executor.close();
  });

  test("an interrupt during a batch of parallel tool calls answers every call", async () => {
    const { executor, next } = await start([
      {
        toolCalls: [
          { id: "toolu_a", name: "Bash", input: { command: "echo a; sleep 30" } },
          { id: "toolu_b", name: "Bash", input: { command: "echo b; sleep 30" } },
          { id: "toolu_c", name: "Read", input: { path: "nowhere.txt" } },
        ],
      },
      { text: "ok" },
    ]);
    const id = executor.submit({ text: "run them" });
    await next((e) => e.type === "tool_progress");
    executor.interrupt(id);
    expect((await executor.waitFor(id)).status).toBe("interrupted");
    await executor.waitFor(executor.submit({ text: "next" }));
    const results = itemAt(posts(), 1)
      .body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
      .filter((b: any) => b.type === "tool_result");
    expect(results.map((r: any) => r.tool_use_id).sort()).toEqual(["toolu_a", "toolu_b", "toolu_c"]);
    await executor.close();
  });

  test("an interrupt during a parallel batch of sub-agents ends the submission and answers both calls", async () => {
    const isSub = (req: RecordedRequest) => !JSON.stringify(req.body.messages[0]).includes("explore in parallel");
    const { executor, next } = await start((req, i) => {
      if (i === 0) {
        return {
          toolCalls: [
            {
              id: "toolu_t1",
              name: "Bash",
              input: { command: 'task:explore --prompt "first look" --description "one"' },
            },
            {
              id: "toolu_t2",
              name: "Bash",
              input: { command: 'task:explore --prompt "second look" --description "two"' },
            },
          ],
        };
      }
      // A sub-agent's conversation starts with its own prompt, not the user's.
      if (isSub(req)) return { hang: true };
      return { text: "after the batch" };
    });
    const id = executor.submit({ text: "explore in parallel" });
    await next((e) => e.type === "task_start");
    await fake!.waitForRequests(2, undefined, isSub);
    executor.interrupt(id);
    expect((await executor.waitFor(id)).status).toBe("interrupted");
    expect(executor.facts().tasksRunning).toBe(0);
    const again = await executor.waitFor(executor.submit({ text: "next" }));
    expect(again.result?.result).toBe("after the batch");
    const last = posts().at(-1)!.body.messages;
    const results = last
      .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
      .filter((b: any) => b.type === "tool_result");
    expect(results.map((r: any) => r.tool_use_id).sort()).toEqual(["toolu_t1", "toolu_t2"]);
    await executor.close();
  });

  test("interrupting a queued submission skips it: it reaches no server", async () => {
    const { executor, next } = await start([{ text: "slow", chunkDelayMs: 50 }, { text: "never" }]);
    const a = executor.submit({ text: "first" });
    const b = executor.submit({ text: "second" });
    await next((e) => e.type === "text_delta");
    executor.interrupt(b);
    expect((await executor.waitFor(b)).status).toBe("interrupted");
    expect((await executor.waitFor(a)).status).toBe("done");
    expect(posts()).toHaveLength(1);
    await executor.close();
  });

  test("/model <name> switches: the next request names the new model; the switch is in the session", async () => {
    const { executor, events, config } = await start([{ text: "a" }], {
      models: [{ id: "claude-sonnet-5-5" }, { id: "fake-model-b" }],
    });
    const switched = await executor.waitFor(executor.submit({ text: "/model fake-model-b" }));
    expect(switched.status).toBe("done");
    expect(events).toContainEqual({ type: "model_changed", model: "anthropic/fake-model-b" });
    await executor.waitFor(executor.submit({ text: "hello" }));
    expect(itemAt(posts(), 0).body.model).toBe("fake-model-b");
    const bad = await executor.waitFor(executor.submit({ text: "/model fake-model-c" }));
    expect(bad.status).toBe("failed");
    expect(executor.facts().model).toBe("anthropic/fake-model-b");
    const dir = executor.runtime.sessionId;
    await executor.close();
    const meta = await Bun.file(join(sessionsRoot(config.home), dir, "meta.json")).json();
    expect(meta.model).toBe("anthropic/fake-model-b");
  });

  test("/clear starts a new, empty session", async () => {
    const { executor, events } = await start([{ text: "a" }, { text: "b" }]);
    await executor.waitFor(executor.submit({ text: "remember x" }));
    const before = executor.runtime.sessionId;
    await executor.waitFor(executor.submit({ text: "/clear" }));
    expect(executor.runtime.sessionId).not.toBe(before);
    expect(events).toContainEqual({
      type: "session_changed",
      session_id: executor.runtime.sessionId,
      previous: before,
    });
    await executor.waitFor(executor.submit({ text: "fresh" }));
    expect(itemAt(posts(), 1).body.messages).toHaveLength(1);
    await executor.close();
  });

  test("an unknown command fails as a usage error and reaches no server", async () => {
    const { executor } = await start([]);
    const outcome = await executor.waitFor(executor.submit({ text: "/modle" }));
    expect(outcome.status).toBe("failed");
    expect(outcome.errorCode).toBe(2);
    expect(outcome.error).toContain("did you mean /model?");
    expect(fake!.requests).toHaveLength(0);
    await executor.close();
  });

  test("after 100 interrupted submissions nothing is held: no submissions, signals, controllers or timers", async () => {
    const { executor, signals } = await start(() => ({ hang: true }));
    const count = (name: string) => (heapStats().objectTypeCounts as Record<string, number>)[name] ?? 0;
    // One warm-up so lazily created singletons are not counted as leaks.
    let id = executor.submit({ text: "warm up" });
    await fake!.waitForRequests(1, undefined, isPost);
    executor.interrupt(id);
    await executor.waitFor(id);
    Bun.gc(true);
    const before = { controllers: count("AbortController"), timeouts: count("Timeout") };
    for (let i = 0; i < 100; i++) {
      id = executor.submit({ text: `prompt ${i}` });
      const want = posts().length + 1;
      await fake!.waitForRequests(want, undefined, isPost);
      executor.interrupt(id);
      expect((await executor.waitFor(id)).status).toBe("interrupted");
    }
    expect(executor.pending()).toBe(0);
    expect(executor.running()).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      Bun.gc(true);
      await Bun.sleep(0);
    }
    // JavaScriptCore's collector scans the stack conservatively, so a few dead ones may survive a
    // collection; a leak would keep all 100.
    const alive = signals.filter((s) => s.deref() !== undefined).length;
    expect(alive).toBeLessThan(10);
    // A leak would hold one of each per submission (100); a few come from the session's own timers.
    expect(count("AbortController") - before.controllers).toBeLessThan(10);
    expect(count("Timeout") - before.timeouts).toBeLessThan(10);
    await executor.close();
  }, 60_000);
});

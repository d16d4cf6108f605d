// SessionRuntime.compact(): the manual condense behind `/compact [focus]`, against a real runtime
// and the strict fake: with and without focus, nothing to condense, and interrupted (the session is
// left exactly as it was).

import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/config.ts";
import { openRuntime } from "../../src/executor/session-runtime.ts";
import { InterruptedError } from "../../src/protocol/errors.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import { sessionsRoot } from "../../src/store/paths.ts";
import { type FakeLLM, type RecordedRequest, type ScriptedReply, startFakeLLM } from "../support/fake-llm.ts";
import { isSummaryRequest } from "../support/summary-request.ts";

let fake: FakeLLM | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

const TASK = "TASK-c0: read notes.txt a few times";

// The same Read several times is the workload here, not a runaway loop: loop detection is off.
async function session(
  summary: (req: RecordedRequest) => ScriptedReply,
  turns = 6,
  env: Record<string, string> = {},
  talk = "",
) {
  let done = 0;
  const summaries: any[] = [];
  fake = await startFakeLLM((req) => {
    if (isSummaryRequest(req.body)) {
      summaries.push(req.body);
      return summary(req);
    }
    return done++ < turns
      ? { text: `step ${done}${talk}`, toolCalls: [{ name: "Read", input: { path: "notes.txt" } }] }
      : { text: "done" };
  });
  const dir = mkdtempSync(join(tmpdir(), "synapse-compact-"));
  writeFileSync(join(dir, "notes.txt"), "note line\n".repeat(300));
  const config = resolveConfig({
    flags: { permissionMode: "bypass" },
    env: {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: fake.url,
      SYNAPSE_HOME: join(dir, "home"),
      SYNAPSE_RETRY_BASE_MS: "5",
      SYNAPSE_MEMORY_CHECK_INTERVAL_MS: "600000",
      SYNAPSE_LOOP_LIMIT: "0",
      ...env,
    },
    processCwd: dir,
    homeDir: dir,
  });
  const events: AgentEvent[] = [];
  const runtime = await openRuntime({ config, emit: (e) => events.push(e) });
  const result = await runtime.submit([{ type: "text", text: TASK }], new AbortController().signal);
  expect(result.subtype).toBe("success");
  const archive = () => {
    const folder = join(sessionsRoot(config.home), runtime.sessionId);
    return readdirSync(folder)
      .filter((n) => n.startsWith("messages"))
      .map((n) => readFileSync(join(folder, n), "utf8"))
      .join("");
  };
  return { runtime, events, summaries, archive };
}

describe("SessionRuntime.compact", () => {
  test("without focus: one summary call, a record in the archive, a manual compact_boundary", async () => {
    const { runtime, events, summaries, archive } = await session(() => ({
      text: "SUMMARY: read notes.txt six times.",
    }));
    const out = await runtime.compact(undefined, new AbortController().signal);
    expect(out.method).toBe("summary");
    expect(out.trigger).toBe("manual");
    expect(out.tokensAfter).toBeLessThan(out.tokensBefore);
    expect(summaries.length).toBe(1);
    expect(summaries[0].messages[0].content[0].text).not.toContain("focus on");
    const lines = archive()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const record = lines.findLast((m) => m.compaction);
    expect(record.compaction).toMatchObject({
      trigger: "manual",
      method: "summary",
      task: TASK,
      summary: "SUMMARY: read notes.txt six times.",
    });
    expect(events.some((e) => e.type === "compact_boundary" && e.trigger === "manual" && e.method === "summary")).toBe(
      true,
    );
    // The next request starts from the record.
    await runtime.submit([{ type: "text", text: "and now?" }], new AbortController().signal);
    const next = fake!.requests.filter((r) => r.body?.tools && !isSummaryRequest(r.body)).at(-1)!.body.messages;
    expect(next[0].content[0].text).toContain("<summary>\nSUMMARY: read notes.txt six times.\n</summary>");
    expect(fake!.rejected).toEqual([]);
    await runtime.close();
  });

  test("with focus: the focus text is in the summary prompt", async () => {
    const { runtime, summaries } = await session(() => ({ text: "SUMMARY with focus" }));
    await runtime.compact("keep the API design", new AbortController().signal);
    // The request for the summary comes last (after the conversation, when it is carried).
    expect(summaries[0].messages.at(-1).content.at(-1).text).toContain(
      "The user asks this summary to focus on: keep the API design",
    );
    await runtime.close();
  });

  test("nothing to condense: no model call, no record", async () => {
    const { runtime, summaries, archive } = await session(() => ({ text: "never" }), 0);
    const before = archive();
    const out = await runtime.compact(undefined, new AbortController().signal);
    expect(out.method).toBe("none");
    expect(out.tokensAfter).toBe(out.tokensBefore);
    expect(summaries.length).toBe(0);
    expect(archive()).toBe(before);
    await runtime.close();
  });

  test("a history too large for one summary call is summarised in chunks, each updating the last", async () => {
    let n = 0;
    const env = { SYNAPSE_CONTEXT_WINDOW: "12000", SYNAPSE_AUTO_CONDENSE: "0" };
    const { runtime, summaries } = await session(
      () => ({ text: `CHUNK-SUMMARY-${++n}` }),
      8,
      env,
      ` ${"thinking ".repeat(450)}`,
    );
    const out = await runtime.compact(undefined, new AbortController().signal);
    expect(out.method).toBe("summary");
    expect(summaries.length).toBeGreaterThan(1);
    for (let i = 1; i < summaries.length; i++) {
      expect(summaries[i].messages[0].content[0].text).toContain(
        `<previous_summary>\nCHUNK-SUMMARY-${i}\n</previous_summary>`,
      );
    }
    const next = await runtime.submit([{ type: "text", text: "go on" }], new AbortController().signal);
    expect(next.subtype).toBe("success");
    const sent = fake!.requests.filter((r) => r.body?.tools && !isSummaryRequest(r.body)).at(-1)!.body.messages;
    expect(sent[0].content[0].text).toContain(`<summary>\nCHUNK-SUMMARY-${summaries.length}\n</summary>`);
    await runtime.close();
  });

  test("keepLast: exactly the last N whole turns are kept after the record, and said", async () => {
    const { runtime, archive } = await session(() => ({ text: "SUMMARY" }), 6);
    const out = await runtime.compact(undefined, new AbortController().signal, 2);
    expect(out.method).toBe("summary");
    expect(out.keptTurns).toBe(2);
    const lines = archive()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const at = lines.findLastIndex((m) => m.compaction);
    // Two turns after the record: the last Read call with its result, and the final answer.
    expect(lines.slice(at + 1).map((m) => m.role)).toEqual(["assistant", "user", "assistant"]);
    await runtime.close();
  });

  const refuse = () => ({
    status: 400,
    body: { type: "error", error: { type: "invalid_request_error", message: "no" } },
  });

  test("a failed summary: the window fallback keeps fewer turns rather than grow the context", async () => {
    // Tiny exchanges: a record carrying the task, the user's messages and its note is about as
    // long as they are. Before, the fallback reported 3.1k -> 3.2k tokens as a success.
    const { runtime, events } = await session(refuse, 0);
    for (const text of ["ok?", "ok.", "and?"])
      await runtime.submit([{ type: "text", text }], new AbortController().signal);
    const out = await runtime.compact(undefined, new AbortController().signal);
    expect(out.method).toBe("window");
    expect(out.tokensAfter).toBeLessThan(out.tokensBefore);
    expect(events.find((e) => e.type === "compact_boundary")).toMatchObject({ tokens_after: out.tokensAfter });
    await runtime.close();
  });

  test("a failed summary whose fallback cannot shrink the context even keeping nothing: a failure, nothing changed", async () => {
    const { runtime, events, archive } = await session(refuse, 0);
    await runtime.submit([{ type: "text", text: "ok?" }], new AbortController().signal);
    const before = archive();
    const out = await runtime.compact(undefined, new AbortController().signal, 0);
    expect(out.method).toBe("none");
    expect(out.failure).toContain("would not make the context smaller");
    expect(out.tokensAfter).toBe(out.tokensBefore);
    expect(archive()).toBe(before);
    expect(events.some((e) => e.type === "compact_boundary")).toBe(false);
    expect(events.some((e) => e.type === "warning" && e.message.startsWith("could not compact the conversation"))).toBe(
      true,
    );
    await runtime.close();
  });

  test("interrupted: InterruptedError and the session exactly as it was", async () => {
    let asked: () => void = () => undefined;
    const summaryAsked = new Promise<void>((resolve) => (asked = resolve));
    const { runtime, archive } = await session(() => {
      asked();
      return { hang: true };
    });
    const before = archive();
    const controller = new AbortController();
    const pending = runtime.compact("focus", controller.signal);
    await summaryAsked;
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(InterruptedError);
    await runtime.close();
    expect(archive()).toBe(before);
  });
});

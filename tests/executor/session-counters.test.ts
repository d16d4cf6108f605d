// What /cost and /status read, counted from the agent's events (executor/session-counters.ts).
import { expect, test } from "bun:test";
import { SessionCounters } from "../../src/executor/session-counters.ts";
import { assertNever } from "../../src/protocol/assert-never.ts";
import type { AgentEvent, RunResult } from "../../src/protocol/events.ts";
import type { Usage } from "../../src/protocol/message.ts";

const usage = (input_tokens: number, output_tokens: number) => ({ input_tokens, output_tokens });
/** Usage once a run's has been added: the cache counts are then present. */
const added = (input_tokens: number, output_tokens: number) => ({
  ...usage(input_tokens, output_tokens),
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
});
const assistant = (u: { input_tokens: number; output_tokens: number }, parent?: string): AgentEvent => ({
  type: "assistant",
  message: { id: "m", ts: 0, role: "assistant", content: [], usage: u },
  ...(parent ? { parent_tool_use_id: parent } : {}),
});
const result = (u: { input_tokens: number; output_tokens: number }, cost?: number): AgentEvent => ({
  type: "result",
  result: { usage: u, ...(cost === undefined ? {} : { total_cost_usd: cost }) } as RunResult,
});
const boundary = (after: number): AgentEvent => ({
  type: "compact_boundary",
  trigger: "auto",
  method: "summary",
  tokens_before: 900,
  tokens_after: after,
  messages_replaced: 4,
});

test.each<[string, AgentEvent[], { context: number; tasks: number; usage: Usage; cost: number; known: boolean }]>([
  ["nothing yet", [], { context: 7, tasks: 0, usage: usage(0, 0), cost: 0, known: true }],
  ["a turn", [assistant(usage(100, 20))], { context: 120, tasks: 0, usage: usage(0, 0), cost: 0, known: true }],
  [
    "a sub-agent's turn is not the session's context",
    [assistant(usage(100, 20)), assistant(usage(5000, 1), "toolu_1")],
    { context: 120, tasks: 0, usage: usage(0, 0), cost: 0, known: true },
  ],
  [
    "sub-agents running, one ended",
    [
      { type: "task_start", id: "a", kind: "explore", description: "" },
      { type: "task_start", id: "b", kind: "explore", description: "" },
      { type: "task_end", id: "a", is_error: false, duration_ms: 1, tool_calls: 0, summary: "" },
    ],
    { context: 7, tasks: 1, usage: usage(0, 0), cost: 0, known: true },
  ],
  [
    "a condense",
    [assistant(usage(800, 100)), boundary(300)],
    { context: 300, tasks: 0, usage: usage(0, 0), cost: 0, known: true },
  ],
  [
    "runs add up, and a result ends every task",
    [
      { type: "task_start", id: "a", kind: "general", description: "" },
      result(usage(10, 2), 0.5),
      result(usage(5, 1), 0.25),
    ],
    { context: 7, tasks: 0, usage: added(15, 3), cost: 0.75, known: true },
  ],
  [
    "a run without a price leaves the dollars unknown",
    [result(usage(10, 2), 0.5), result(usage(1, 1))],
    { context: 7, tasks: 0, usage: added(11, 3), cost: 0.5, known: false },
  ],
])("%s", (_name, events, want) => {
  const c = new SessionCounters(7);
  for (const e of events) c.observe(e);
  expect({
    context: c.contextTokens,
    tasks: c.tasksRunning.size,
    usage: c.usage,
    cost: c.costUsd,
    known: c.costKnown,
  }).toEqual(want);
});

test("another session starts the counts again from its own context", () => {
  const c = new SessionCounters(0);
  c.observe(result(usage(10, 2)));
  c.reset(42);
  expect({ context: c.contextTokens, usage: c.usage, cost: c.costUsd, known: c.costKnown }).toEqual({
    context: 42,
    usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    cost: 0,
    known: true,
  });
});

test("assertNever names what reached it unhandled", () => {
  expect(() => assertNever({ kind: "Teleport" } as never, "input action")).toThrow(
    'unhandled input action: {"kind":"Teleport"}',
  );
});

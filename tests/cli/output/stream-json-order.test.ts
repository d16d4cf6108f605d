// The stream-json writer's order for a sub-agent: the runner says task_start before the call's
// tool_start (status rows need it first), the lines put the call first; a task_start whose call
// never showed is still written, before its task_end or the result.

import { expect, test } from "bun:test";
import { createStreamJsonWriter } from "../../../src/cli/output/stream-json-writer.ts";
import type { AgentEvent } from "../../../src/protocol/events.ts";

function capture() {
  const out: string[] = [];
  const writer = createStreamJsonWriter({ out: (t) => out.push(t), err: () => {}, outIsTTY: false, errIsTTY: false });
  const kinds = () => out.map((l) => JSON.parse(l)).map((l) => `${l.subtype ?? l.type}:${l.id ?? l.tool_use_id ?? ""}`);
  return { kinds, handle: (e: AgentEvent) => writer.handle(e) };
}

const taskStart = (id: string): AgentEvent => ({ type: "task_start", id, kind: "task:explore", description: id });
const toolStart = (id: string): AgentEvent => ({ type: "tool_start", id, name: "Bash", input: { command: "task:x" } });
const taskEnd = (id: string): AgentEvent => ({
  type: "task_end",
  id,
  is_error: false,
  duration_ms: 1,
  tool_calls: 0,
  summary: "",
});

test("each call's tool_use line comes before its task_start line", () => {
  const w = capture();
  for (const e of [taskStart("a"), toolStart("a"), taskStart("b"), toolStart("b"), taskEnd("b"), taskEnd("a")])
    w.handle(e);
  expect(w.kinds()).toEqual(["tool_use:a", "task_start:a", "tool_use:b", "task_start:b", "task_end:b", "task_end:a"]);
});

test("a task_start with no tool_start is not lost: written before its task_end", () => {
  const w = capture();
  w.handle(taskStart("a"));
  expect(w.kinds()).toEqual([]);
  w.handle(taskEnd("a"));
  expect(w.kinds()).toEqual(["task_start:a", "task_end:a"]);
});

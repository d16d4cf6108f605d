// The messages between the main thread and a sub-agent's worker thread: the task going in, the
// answer coming back, and what travels on the task's port meanwhile (events, shell commands).
// Each side parses what it receives with the schemas here: a malformed message is an error of that
// task (task-pool.ts ends it as crashed), never of the session.

import * as z from "zod/mini";
import type { Config } from "../config/config.ts";
import type { AgentEvent, ResultSubtype } from "../protocol/events.ts";
import { checkMessage } from "../protocol/message-schema.ts";
import { issuePhrases } from "../protocol/schema-issues.ts";
import type { JsonSchema } from "../protocol/json-schema.ts";
import type { RunOutcome } from "../shell/types.ts";
import type { TaskKind } from "./task-command.ts";

export interface SubAgentInput {
  /** File-name-safe id: the transcript folder and the shell pool's task id. */
  taskId: string;
  kind: TaskKind;
  prompt: string;
  /** The row label; also the transcript's title. */
  title: string;
  systemPrompt: string;
  /** The parent's resolved config (permission mode and rules included); in-process, so keys may travel. */
  config: Config;
  /** The parent session's folder; the transcript goes under `tasks/`. */
  sessionDir: string;
  /** Rules granted in the parent session; the policy itself is rebuilt from `config`. */
  granted: string[];
  /** The parent's shell pool, which runs this task's commands, is in the OS sandbox. */
  sandboxed: boolean;
  heapReportMs: number;
  /** The session's MCP tools this task may call (explore: the read-only ones); run by the main thread. */
  mcpTools?: McpToolSpec[];
  /** The session has hooks: each tool call asks the main thread for PreToolUse and PostToolUse. */
  hooked?: boolean;
  /** The parent's prompt: `/rewind`'s checkpoints save this task's first writes under it too. */
  checkpointTurn?: string;
}

/** A task the worker answers at once (task-pool.ts `warm`): its thread and modules are then loaded. */
export const WARM_UP = { warmUp: true } as const;

/** An MCP tool as a sub-agent sees it: the worker offers it and sends each call to the main thread. */
export interface McpToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  readOnly: boolean;
}

// Every subtype, so that a new one cannot be left out of the schema (the type checker says so).
const SUBTYPES: Record<ResultSubtype, true> = {
  success: true,
  error_max_turns: true,
  error_max_tokens: true,
  error_max_budget_usd: true,
  error_max_structured_output_retries: true,
  error_during_execution: true,
  interrupted: true,
};

// Built on first use (a run that starts no sub-agent never pays for them).
type Schemas = ReturnType<typeof build>;
let built: Schemas | undefined;
const schemas = () => (built ??= build());

function build() {
  const count = z.number().check(z.nonnegative());
  const subtypes = Object.keys(SUBTYPES) as [ResultSubtype, ...ResultSubtype[]];
  const subAgentOutput = z.object({
    subtype: z.enum(subtypes),
    result: z.string(),
    numTurns: count,
    usage: z.object({
      input_tokens: count,
      output_tokens: count,
      cache_read_input_tokens: z.optional(count),
      cache_creation_input_tokens: z.optional(count),
    }),
    toolCalls: count,
    /** Milliseconds its model requests took (the result's duration_api_ms counts them). */
    apiMs: z.optional(count),
  });

  const shellRequest = z.object({ command: z.string(), cwd: z.string(), timeoutMs: count });

  const id = z.int().check(z.nonnegative());
  // The main thread reads these events' fields; any other event is passed on by its type alone.
  const message = z.custom<Parameters<typeof checkMessage>[0]>((v) => {
    const { message: m, problems } = checkMessage(v);
    return m !== undefined && problems.length === 0;
  }, "not a well-formed message");
  const EVENTS: Record<string, z.ZodMiniType> = {
    assistant: z.looseObject({ type: z.literal("assistant"), message }),
    user: z.looseObject({ type: z.literal("user"), message }),
    tool_start: z.looseObject({ type: z.literal("tool_start"), id: z.string(), name: z.string() }),
    warning: z.looseObject({ type: z.literal("warning"), message: z.string() }),
    permission_denied: z.looseObject({
      type: z.literal("permission_denied"),
      id: z.string(),
      name: z.string(),
      reason: z.string(),
    }),
    turn_retry: z.looseObject({ type: z.literal("turn_retry"), attempt: count, reason: z.string() }),
  };
  const event = z.looseObject({ type: z.string() }).check(
    z.refine((e) => {
      const schema = Object.hasOwn(EVENTS, e.type) ? EVENTS[e.type] : undefined;
      return !schema || z.safeParse(schema, e).success;
    }, "wrong fields"),
  );

  const fromWorker = z.discriminatedUnion("t", [
    z.object({ t: z.literal("started") }),
    z.object({ t: z.literal("done") }),
    z.object({ t: z.literal("heap"), bytes: count }),
    z.object({
      t: z.literal("event"),
      event: z.pipe(
        event,
        z.transform((e) => e as unknown as AgentEvent),
      ),
    }),
    z.object({ t: z.literal("shell"), id, request: shellRequest }),
    z.object({ t: z.literal("shell-abort"), id }),
    z.object({ t: z.literal("mcp"), id, name: z.string(), input: z.record(z.string(), z.unknown()) }),
    z.object({ t: z.literal("mcp-abort"), id }),
    z.object({
      t: z.literal("hook"),
      id,
      when: z.enum(["pre", "post"]),
      call: z.object({ id: z.string(), name: z.string(), input: z.unknown() }),
      response: z.optional(z.unknown()),
    }),
  ]);

  const runOutcome = z.object({
    output: z.string(),
    lines: z.optional(count),
    exitCode: z.nullable(z.int()),
    signal: z.optional(z.string()),
    timedOut: z.boolean(),
    interrupted: z.boolean(),
    finalCwd: z.string(),
    durationMs: count,
  }) satisfies z.ZodMiniType<RunOutcome>;

  const toWorker = z.discriminatedUnion("t", [
    z.object({ t: z.literal("abort") }),
    z.object({ t: z.literal("shell-done"), id, outcome: runOutcome }),
    z.object({ t: z.literal("shell-error"), id, message: z.string() }),
    z.object({
      t: z.literal("mcp-done"),
      id,
      text: z.string(),
      isError: z.boolean(),
      /** The server's structured result, for the sub-agent's PostToolUse hooks. */
      facts: z.optional(z.record(z.string(), z.unknown())),
    }),
    z.object({ t: z.literal("mcp-error"), id, message: z.string() }),
    z.object({
      t: z.literal("hook-done"),
      id,
      block: z.optional(z.string()),
      allow: z.boolean(),
      ask: z.optional(z.string()),
      updatedInput: z.optional(z.record(z.string(), z.unknown())),
      context: z.optional(z.string()),
      stop: z.optional(z.string()),
    }),
  ]);
  return { subAgentOutput, shellRequest, fromWorker, toWorker };
}
export type SubAgentOutput = z.infer<Schemas["subAgentOutput"]>;
export type ShellRequestWire = z.infer<Schemas["shellRequest"]>;
export type FromWorker = z.infer<Schemas["fromWorker"]>;
export type ToWorker = z.infer<Schemas["toWorker"]>;

/** Parses a received message; the error names what is wrong with it. */
function reader<K extends keyof Schemas>(key: K, what: string): (value: unknown) => z.infer<Schemas[K]> {
  return (value) => {
    const parsed = z.safeParse(schemas()[key] as z.ZodMiniType, value);
    if (parsed.success) return parsed.data as z.infer<Schemas[K]>;
    const t = (value as { t?: unknown } | null)?.t;
    const which = typeof t === "string" ? ` "${t}"` : "";
    throw new Error(`${what}${which}: ${issuePhrases(parsed.error.issues, value).join("; ")}`);
  };
}

export const readFromWorker = reader("fromWorker", "a message from the worker");
export const readToWorker = reader("toWorker", "a message from the main thread");
export const readSubAgentOutput = reader("subAgentOutput", "the sub-agent's result");

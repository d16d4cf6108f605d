// Synapse's executor events → ACP `session/update`s: streamed text as message chunks, each tool call
// as a `tool_call` the editor can show and follow, then its `tool_call_update`s (live output, the
// result, a real diff for Write/Edit). One mapper per session: it remembers the calls still open.

import type { SessionUpdate, ToolCallContent, ToolCallStatus } from "@agentclientprotocol/sdk";
import type { ExecutorEvent } from "../executor/executor.ts";
import { assertNever } from "../protocol/assert-never.ts";
import type { ToolResultBlock } from "../protocol/message.ts";
import type { ToolDisplay } from "../protocol/tool-display.ts";
import { toolKind, toolLocations, toolTitle } from "./tool-kind.ts";
import { entryOf } from "../text/checked-index.ts";

/** Live output and results beyond this are cut (the tail kept): the editor shows a preview. */
export const CONTENT_LIMIT = 64 * 1024;
/** Live output keeps only its last lines: each update resends all of it, so it must stay small. */
export const LIVE_LINES = 200;
/** At most one live-output update per call this often: a chatty command must not flood the editor. */
export const LIVE_INTERVAL_MS = 100;

/** Time for the live-output throttle; tests pass a manual one. */
export interface LiveClock {
  now(): number;
  later(fn: () => void, ms: number): () => void;
}

const realClock: LiveClock = {
  now: () => Date.now(),
  later(fn, ms) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

export interface UpdateMapperOptions {
  /** Where a live-output update held back by the throttle goes when its time comes. */
  late?: (update: SessionUpdate) => void;
  clock?: LiveClock;
}

interface OpenCall {
  name: string;
  input: unknown;
  output: string;
  /** A diff was sent: the result text must not replace it. */
  diff: boolean;
  /** When live output was last sent, and the cancel of a held-back update, if one waits. */
  sentAt: number;
  pending?: () => void;
}

export interface UpdateMapper {
  map(event: ExecutorEvent): SessionUpdate[];
  /** The id of the open call with this tool and input (the permission question names no call id). */
  findCall(name: string, input: unknown): string | undefined;
}

const text = (t: string): ToolCallContent => ({ type: "content", content: { type: "text", text: t } });
const callUpdate = (toolCallId: string, status: ToolCallStatus, content: ToolCallContent[]): SessionUpdate => ({
  sessionUpdate: "tool_call_update",
  toolCallId,
  status,
  content,
});
const chunk = (kind: "agent_message_chunk" | "agent_thought_chunk", t: string): SessionUpdate => ({
  sessionUpdate: kind,
  content: { type: "text", text: t },
});

const tail = (t: string) => (t.length > CONTENT_LIMIT ? `…${t.slice(t.length - CONTENT_LIMIT)}` : t);

/** The last `LIVE_LINES` lines within `CONTENT_LIMIT`, a "…" line first when some were cut. */
export function liveTail(t: string): string {
  const lines = t.split("\n");
  // "a\nb\n" splits into ["a", "b", ""]: the empty last piece is not a line.
  const count = t.endsWith("\n") ? lines.length - 1 : lines.length;
  if (count <= LIVE_LINES) return tail(t);
  return tail(`…\n${lines.slice(count - LIVE_LINES).join("\n")}`);
}

/** The changed regions of a Write/Edit, each as old/new text an editor diffs itself. */
export function diffContent(display: Extract<ToolDisplay, { kind: "diff" }>): ToolCallContent[] {
  if (display.created) {
    const lines = display.hunks.flatMap((h) => h.lines.filter((l) => l.op !== "-").map((l) => l.text));
    return [{ type: "diff", path: display.path, oldText: null, newText: lines.join("\n") }];
  }
  return display.hunks.map((h) => ({
    type: "diff" as const,
    path: display.path,
    oldText: h.lines
      .filter((l) => l.op !== "+")
      .map((l) => l.text)
      .join("\n"),
    newText: h.lines
      .filter((l) => l.op !== "-")
      .map((l) => l.text)
      .join("\n"),
  }));
}

function resultText(block: ToolResultBlock): string {
  if (typeof block.content === "string") return block.content;
  return block.content.map((b) => (b.type === "text" ? b.text : "[image]")).join("\n");
}

/** A call's first update: what the editor shows and follows until its result. */
function toolCall(event: Extract<ExecutorEvent, { type: "tool_start" }>, cwd: string): SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: event.id,
    title: toolTitle(event.name, event.input),
    kind: toolKind(event.name, event.input),
    status: "pending",
    locations: toolLocations(event.name, event.input, cwd),
    rawInput: event.input,
  };
}

const stableInput = (input: unknown) => JSON.stringify(input ?? null);

/** The open call with this tool and input; the gate sees the input as parsed (explicit nulls left out). */
function findOpenCall(open: Map<string, OpenCall>, name: string, input: unknown): string | undefined {
  const wanted = stableInput(input);
  let found: string | undefined;
  let sameTool: string | undefined;
  for (const [id, call] of open) {
    if (call.name !== name) continue;
    sameTool = id;
    if (stableInput(call.input) === wanted) found = id;
  }
  // No call with exactly that input: the newest call of that tool then.
  return found ?? sameTool;
}

export function createUpdateMapper(cwd: string, opts: UpdateMapperOptions = {}): UpdateMapper {
  const open = new Map<string, OpenCall>();
  const clock = opts.clock ?? realClock;
  const liveUpdate = (id: string, call: OpenCall) => callUpdate(id, "in_progress", [text(call.output)]);

  /** Sent now if the last one is old enough; else held back, and what came meanwhile goes with it. */
  function progress(event: Extract<ExecutorEvent, { type: "tool_progress" }>): SessionUpdate[] {
    const call = open.get(event.id);
    if (!call) return [];
    call.output = liveTail(call.output + event.text);
    if (call.pending) return [];
    const wait = call.sentAt + LIVE_INTERVAL_MS - clock.now();
    if (wait <= 0 || !opts.late) {
      call.sentAt = clock.now();
      return [liveUpdate(event.id, call)];
    }
    const late = opts.late;
    call.pending = clock.later(() => {
      call.pending = undefined;
      if (open.get(event.id) !== call) return;
      call.sentAt = clock.now();
      late(liveUpdate(event.id, call));
    }, wait);
    return [];
  }

  /** The call's end supersedes its live output: a held-back update must not follow "completed". */
  function settle(id: string): void {
    const call = open.get(id);
    call?.pending?.();
    if (call) call.pending = undefined;
  }

  function toolEnd(event: Extract<ExecutorEvent, { type: "tool_end" }>): SessionUpdate[] {
    settle(event.id);
    const call = open.get(event.id);
    const status = event.is_error ? "failed" : "completed";
    if (event.display?.kind === "diff") {
      if (call) call.diff = true;
      return [callUpdate(event.id, status, diffContent(event.display))];
    }
    return [callUpdate(event.id, status, [text(event.summary)])];
  }

  /** The results the model gets back: the full text replaces the one-line summary. */
  function results(event: Extract<ExecutorEvent, { type: "user" }>): SessionUpdate[] {
    if (event.parent_tool_use_id) return [];
    const updates: SessionUpdate[] = [];
    for (const block of event.message.content) {
      if (block.type !== "tool_result" || !open.has(block.tool_use_id)) continue;
      settle(block.tool_use_id);
      const call = entryOf(open, block.tool_use_id);
      open.delete(block.tool_use_id);
      if (call.diff) continue;
      const status = block.is_error ? "failed" : "completed";
      updates.push(callUpdate(block.tool_use_id, status, [text(tail(resultText(block)))]));
    }
    return updates;
  }

  return {
    map(event) {
      switch (event.type) {
        case "text_delta":
          return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } }];
        case "turn_retry":
          // The partial answer already shown cannot be taken back: say why it starts again.
          return [chunk("agent_thought_chunk", `(retrying: ${event.reason})\n`)];
        case "tool_start":
          open.set(event.id, { name: event.name, input: event.input, output: "", diff: false, sentAt: -Infinity });
          return [toolCall(event, cwd)];
        case "tool_progress":
          return progress(event);
        case "tool_end":
          return toolEnd(event);
        case "permission_denied":
          settle(event.id);
          return [callUpdate(event.id, "failed", [text(`Permission denied: ${event.reason}`)])];
        case "user":
          return results(event);
        case "command_output":
          return event.lines.length ? [chunk("agent_message_chunk", `${event.lines.join("\n")}\n`)] : [];
        // No update of their own: the answer streamed as chunks, the turn's end is the prompt's
        // answer (stop-reason.ts), warnings go to the log (acp-session.ts), sub-agents show as their call.
        case "init":
        case "assistant":
        case "task_start":
        case "task_progress":
        case "task_end":
        case "warning":
        case "compact_start":
        case "compact_boundary":
        case "result":
        case "submission_start":
        case "model_changed":
        case "session_changed":
        case "compacted":
        case "submission_end":
          return [];
        default:
          return assertNever(event, "executor event");
      }
    },

    findCall: (name, input) => findOpenCall(open, name, input),
  };
}

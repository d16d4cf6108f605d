// ContextManager, row by row: a history appended to a real session store, a window (the store's
// bounds and the model's), and a memory state (normal, compaction requested, critical) → the
// exact messages of the next request. Summary calls go through the real Anthropic provider to the
// fake LLM server; a few rows also send the request itself and check it on the wire.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/config.ts";
import { ContextManager } from "../../src/context/condense.ts";
import { relieveMemoryPressure } from "../../src/context/memory-pressure.ts";
import { selectProvider } from "../../src/llm/select.ts";
import type { AssistantTurn, ToolSpec } from "../../src/llm/types.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { ContentBlock, Message } from "../../src/protocol/message.ts";
import { openSession } from "../../src/store/session.ts";
import { type FakeLLM, type RecordedRequest, startFakeLLM } from "../support/fake-llm.ts";
import { isSummaryRequest } from "../support/summary-request.ts";

const SUMMARY = "SUMMARY: files 1 to 9 were read; nothing was changed.";
const TOOLS: ToolSpec[] = [
  { name: "Bash", description: "Runs a command.", input_schema: { type: "object", properties: {} } },
];
let fake: FakeLLM;
const dirs: string[] = [];

beforeAll(async () => {
  // Requests that ask for a summary are summary calls; the others are the rows' own requests.
  fake = await startFakeLLM((req: RecordedRequest) =>
    isSummaryRequest(req.body) ? { text: SUMMARY } : { text: "ok" },
  );
});
afterAll(async () => {
  await fake.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// ---- Histories.
let n = 0;
const message = (role: "user" | "assistant", ...content: ContentBlock[]): Message => ({
  id: `m${++n}`,
  role,
  content,
  ts: n,
});
const prompt = (text: string) => message("user", { type: "text", text });
const answer = (text: string) => message("assistant", { type: "text", text });
/** One tool exchange: the call `cat f<i>` and its output of `chars` characters. */
const exchange = (i: number, chars: number): Message[] => [
  message("assistant", { type: "tool_use", id: `c${i}`, name: "Bash", input: { command: `cat f${i}` } }),
  message("user", { type: "tool_result", tool_use_id: `c${i}`, content: String(i % 10).repeat(chars) }),
];
const exchanges = (count: number, chars: number) => Array.from({ length: count }, (_, i) => exchange(i, chars)).flat();
const image = (i: number): ContentBlock => ({
  type: "image",
  image: { sha256: `${i}`.repeat(64).slice(0, 64), mediaType: "image/png", bytes: 100 },
});

// ---- What a request carries, one line per message (long texts by their start and length).
function shown(text: string): string {
  return text.length <= 90 ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, 40))}…(${text.length})`;
}
function blockLine(b: ContentBlock): string {
  if (b.type === "text") return shown(b.text);
  if (b.type === "image") return `image(${b.image.sha256.slice(0, 8)})`;
  if (b.type === "tool_use") return `use(${b.id} ${b.name} ${JSON.stringify(b.input)})`;
  const content = typeof b.content === "string" ? shown(b.content) : `[${b.content.map(blockLine).join(", ")}]`;
  return `result(${b.tool_use_id}${b.is_error ? " error" : ""}) ${content}`;
}
const lines = (messages: readonly Message[]) =>
  messages.map((m) => `${m.role}: ${m.content.map(blockLine).join(" | ")}`);

/** The same lines from an Anthropic request body as it went over the wire. */
function wireLines(body: { messages: Array<{ role: string; content: string | any[] }> }): string[] {
  const block = (b: any): string => {
    if (b.type === "text") return shown(b.text);
    if (b.type === "image") return `image(${b.source?.type})`;
    if (b.type === "tool_use") return `use(${b.id} ${b.name} ${JSON.stringify(b.input)})`;
    const content = typeof b.content === "string" ? shown(b.content) : `[${b.content.map(block).join(", ")}]`;
    return `result(${b.tool_use_id}${b.is_error ? " error" : ""}) ${content}`;
  };
  return body.messages.map(
    (m) => `${m.role}: ${typeof m.content === "string" ? shown(m.content) : m.content.map(block).join(" | ")}`,
  );
}

interface Row {
  name: string;
  history: () => Message[];
  /** Environment for the config: the model's window, the store's bounds, the threshold. */
  env?: Record<string, string>;
  /** The memory monitor's state before the request. */
  memory?: "requested" | "critical";
  expected: string[];
  /** The exact text of the request's first block, where the lines abbreviate it. */
  first?: string;
  /** Also sent through the real provider, and the wire checked against `expected`. */
  wire?: boolean;
}

async function run(row: Row) {
  const dir = mkdtempSync(join(tmpdir(), "synapse-context-manager-"));
  dirs.push(dir);
  const config = resolveConfig({
    flags: { cwd: dir },
    env: {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: fake.url,
      SYNAPSE_HOME: join(dir, "home"),
      SYNAPSE_RETRY_BASE_MS: "5",
      SYNAPSE_CONTEXT_WINDOW: "40000",
      ...row.env,
    },
    processCwd: dir,
    homeDir: dir,
  });
  const provider = selectProvider(config);
  const { store } = await openSession({
    home: config.home,
    cwd: dir,
    model: `anthropic/${provider.model}`,
    config: config.store,
    onWarning: () => {},
  });
  const events: AgentEvent[] = [];
  const context = new ContextManager({
    config,
    provider,
    store,
    system: "SYSTEM",
    tools: TOOLS,
    emit: (e) => events.push(e as AgentEvent),
  });
  for (const m of row.history()) {
    store.append(m);
    context.noteAppended(m);
  }
  if (row.memory === "requested") context.request();
  if (row.memory === "critical") relieveMemoryPressure({ rssMb: 3000, heapMb: 900 }, { store, context });
  const signal = new AbortController().signal;
  let sent: Message[] = [];
  const before = fake.requests.length;
  await context.ask(signal, (messages): Promise<AssistantTurn> => {
    sent = messages;
    if (row.wire) {
      const request = { model: provider.model, system: "SYSTEM", messages, tools: TOOLS, maxTokens: 1000, signal };
      return provider.stream({ ...request, loadImage: (ref) => store.loadImage(ref) }, { onText: () => {} });
    }
    return Promise.resolve({ content: [{ type: "text", text: "ok" }], stopReason: "end_turn", usage: zero });
  });
  const calls = fake.requests.slice(before);
  await store.close();
  return { sent, calls, events };
}
const zero = { input_tokens: 0, output_tokens: 0 };

const TASK = "TASK: read the files f0 to f29";
const task = () => prompt(TASK);

// ---- Expected lines.
const L = {
  task: `user: ${shown(TASK)}`,
  use: (i: number) => `assistant: use(c${i} Bash {"command":"cat f${i}"})`,
  output: (i: number, chars: number) => `user: result(c${i}) ${shown(String(i % 10).repeat(chars))}`,
  pruned: (i: number, chars: number) =>
    `user: result(c${i}) ${shown(`[output of Bash "cat f${i}" cleared from the context to save space (${chars} characters); the session archive keeps it]`)}`,
  text: (role: "user" | "assistant", ...texts: string[]) => `${role}: ${texts.map(shown).join(" | ")}`,
};
const exchangeLines = (from: number, to: number, chars: number) =>
  Array.from({ length: to - from }, (_, k) => [L.use(from + k), L.output(from + k, chars)]).flat();

/** A compaction record's text, as the model reads it. */
function record(count: number, userMessages: string[], summary: string | "window"): string {
  const parts = [
    `The earlier part of this session (${count} messages) was condensed to fit the context window; the session archive still holds every message.`,
    "",
    "<task>",
    TASK,
    "</task>",
  ];
  if (userMessages.length)
    parts.push(
      "",
      "The user's own messages since then, verbatim, oldest first:",
      "<user_messages>",
      ...userMessages.map((m) => `<message>${m}</message>`),
      "</user_messages>",
    );
  if (summary === "window")
    parts.push(
      "",
      `[${count} earlier messages were left out here to fit the context window, without a summary; the session archive holds them all.]`,
    );
  else parts.push("", "<summary>", summary, "</summary>");
  parts.push("", "Continue the task from here.");
  return parts.join("\n");
}

const rows: Row[] = [
  {
    name: "well within every bound: the history as it is",
    history: () => [task(), ...exchanges(2, 100), answer("done")],
    expected: [L.task, ...exchangeLines(0, 2, 100), L.text("assistant", "done")],
    wire: true,
  },
  {
    name: "past the threshold: old tool outputs pruned down to the low-water mark, the newest five whole",
    // 30 outputs of 1,100 tokens: 33k tokens against a threshold of 25.4k (window 40k, 8k output);
    // the low-water mark keeps 6.4k tokens of outputs (a quarter of the threshold).
    history: () => [task(), ...exchanges(30, 4400)],
    expected: [
      L.task,
      ...Array.from({ length: 25 }, (_, i) => [L.use(i), L.pruned(i, 4400)]).flat(),
      ...exchangeLines(25, 30, 4400),
    ],
    wire: true,
  },
  {
    name: "past the threshold with nothing to prune: a summary, then the last two turns",
    history: () => [
      task(),
      ...Array.from({ length: 12 }, (_, i) => [prompt(`question ${i}`), answer(String(i % 10).repeat(9000))]).flat(),
    ],
    expected: [
      L.text(
        "user",
        record(
          23,
          Array.from({ length: 11 }, (_, i) => `question ${i}`),
          SUMMARY,
        ),
        "question 11",
      ),
      L.text("assistant", "1".repeat(9000)),
    ],
    first: record(
      23,
      Array.from({ length: 11 }, (_, i) => `question ${i}`),
      SUMMARY,
    ),
    wire: true,
  },
  {
    name: "the store evicted the first prompt: a marker carries it, then the window from a clean edge",
    // The window (5 messages) opens on a result and holds no whole turn to condense beyond the kept ones.
    env: { SYNAPSE_STORE_MAX_MESSAGES: "5" },
    history: () => [task(), ...exchanges(4, 100)],
    expected: [L.text("user", record(5, [], "window")), ...exchangeLines(2, 4, 100)],
    first: record(5, [], "window"),
  },
  {
    name: "the store's window nearly full: condensed to a summary record and the last turn",
    // 4 messages in memory at most: past three quarters of that, the context is condensed.
    env: { SYNAPSE_STORE_MAX_MESSAGES: "4" },
    history: () => [task(), ...exchanges(4, 100)],
    expected: [L.text("user", record(3, [], SUMMARY)), ...exchangeLines(3, 4, 100)],
  },
  {
    name: "compaction requested by the memory monitor, under every bound: all but the last two turns summarised",
    memory: "requested",
    history: () => [task(), prompt("q1"), ...exchanges(3, 100), answer("a1"), prompt("q2"), answer("a2"), prompt("q3")],
    expected: [L.text("user", record(10, ["q1", "q2"], SUMMARY)), L.text("assistant", "a2"), L.text("user", "q3")],
    first:
      "The earlier part of this session (10 messages) was condensed to fit the context window; the session archive " +
      "still holds every message.\n\n<task>\nTASK: read the files f0 to f29\n</task>\n\nThe user's own messages since " +
      "then, verbatim, oldest first:\n<user_messages>\n<message>q1</message>\n<message>q2</message>\n</user_messages>" +
      `\n\n<summary>\n${SUMMARY}\n</summary>\n\nContinue the task from here.`,
  },
  {
    name: "compaction requested with nothing beyond the kept turns: the history as it is",
    memory: "requested",
    history: () => [task(), prompt("q1"), answer("a1")],
    expected: [L.text("user", TASK, "q1"), L.text("assistant", "a1")],
  },
  {
    name: "critical memory: older outputs trimmed in memory, then all but the last two turns summarised",
    memory: "critical",
    history: () => [task(), prompt("q1"), ...exchanges(12, 2000), answer("a1"), prompt("q2")],
    expected: [L.text("user", record(26, ["q1"], SUMMARY)), L.text("assistant", "a1"), L.text("user", "q2")],
  },
  {
    name: "automatic condensing off: past the threshold, sent as it is",
    env: { SYNAPSE_AUTO_CONDENSE: "0" },
    history: () => [task(), ...exchanges(30, 4400)],
    expected: [L.task, ...exchangeLines(0, 30, 4400)],
  },
  {
    name: "more images than a request may carry: the oldest become placeholders",
    env: { SYNAPSE_CONTEXT_MAX_IMAGES: "2" },
    history: () => [
      message("user", { type: "text", text: "TASK: compare" }, image(1), image(2)),
      answer("seen"),
      message("user", { type: "text", text: "and these" }, image(3), image(4)),
    ],
    expected: [
      L.text("user", "TASK: compare", "[image omitted: 11111111, image/png]", "[image omitted: 22222222, image/png]"),
      L.text("assistant", "seen"),
      'user: "and these" | image(33333333) | image(44444444)',
    ],
  },
];

describe("ContextManager: history, window and memory state → the request", () => {
  for (const row of rows) {
    test(row.name, async () => {
      const { sent, calls } = await run(row);
      expect(lines(sent)).toEqual(row.expected);
      if (row.first !== undefined) expect(sent[0]?.content[0]).toEqual({ type: "text", text: row.first });
      if (row.wire) {
        const own = calls.filter((c) => !isSummaryRequest(c.body));
        expect(own).toHaveLength(1);
        expect(wireLines(own[0]!.body)).toEqual(row.expected);
      }
    });
  }
});

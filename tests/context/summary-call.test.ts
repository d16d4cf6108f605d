// The summary call, row by row: with the turn's request (the cached prefix) when it fits the
// window, else over a transcript; a reply that calls a tool is no summary. Through the real
// Anthropic provider to the fake LLM server, which bills the prompt cache as the API does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/config.ts";
import { CACHE_LIFE_MS, type CachedPrefix, cacheWarm, summaryOf, withRequest } from "../../src/context/summary-call.ts";
import { SUMMARY_SYSTEM } from "../../src/context/summary-prompt.ts";
import { selectProvider } from "../../src/llm/select.ts";
import type { ToolSpec } from "../../src/llm/types.ts";
import type { ContentBlock, Message } from "../../src/protocol/message.ts";
import { type FakeLLM, type ScriptedReply, startFakeLLM } from "../support/fake-llm.ts";
import { isSummaryRequest } from "../support/summary-request.ts";

const TOOLS: ToolSpec[] = [
  { name: "Bash", description: "Runs a command.", input_schema: { type: "object", properties: {} } },
];
const SYSTEM = "SYSTEM ".repeat(400);
let fake: FakeLLM;
let reply: ScriptedReply = { text: "SUMMARY" };
const dir = mkdtempSync(join(tmpdir(), "synapse-summary-call-"));

beforeAll(async () => {
  fake = await startFakeLLM(() => reply);
});
afterAll(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const message = (role: "user" | "assistant", ...content: ContentBlock[]): Message => ({
  id: `m${++n}`,
  role,
  content,
  ts: n,
});
/** The task, then `count` exchanges of a 4 kB output each. */
function conversation(count: number): Message[] {
  const out = [message("user", { type: "text", text: "TASK: read the files" })];
  for (let i = 0; i < count; i++) {
    out.push(message("assistant", { type: "tool_use", id: `c${i}`, name: "Bash", input: { command: `cat f${i}` } }));
    out.push(message("user", { type: "tool_result", tool_use_id: `c${i}`, content: `${i}`.repeat(4000) }));
  }
  return out;
}

async function summarise(prefixTokens: number | undefined, window = 40_000) {
  const config = resolveConfig({
    flags: { cwd: dir },
    env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fake.url, SYNAPSE_RETRY_BASE_MS: "5" },
    processCwd: dir,
    homeDir: dir,
  });
  const provider = selectProvider(config);
  const messages = conversation(6);
  const prefix: CachedPrefix | undefined =
    prefixTokens === undefined ? undefined : { system: SYSTEM, tools: TOOLS, messages, tokens: prefixTokens };
  const before = fake.requests.length;
  const signal = new AbortController().signal;
  // The turn before: the same request without the ask, so the cache holds it.
  if (prefix) {
    const request = { model: provider.model, system: SYSTEM, messages, tools: TOOLS, maxTokens: 100, signal };
    await provider.stream({ ...request, loadImage: async () => ({ mediaType: "", base64: "" }) }, { onText() {} });
  }
  const store = { loadImage: async () => ({ mediaType: "", base64: "" }) };
  const input = { task: "TASK: read the files", middle: messages.slice(1, 9), signal, userBudget: 1000, prefix };
  const hooks = { onPrompt() {}, onCall() {} };
  const out = await summaryOf({ config, provider, store }, window, input, hooks);
  const sent = fake.requests.slice(before).filter((r) => isSummaryRequest(r.body));
  return { out, sent };
}

describe("summaryOf", () => {
  test("the prefix fits: the turn's request plus the ask, read from the cache", async () => {
    reply = { text: "SUMMARY" };
    const { out, sent } = await summarise(9_000);
    expect(out).toEqual({ summary: "SUMMARY" });
    expect(sent).toHaveLength(1);
    const body = sent[0]!.body;
    expect(body.tools.map((t: any) => t.name)).toEqual(["Bash"]);
    expect(body.system[0].text).toBe(SYSTEM);
    // Six exchanges and the task; the ask joins the last message (tool results), after them.
    expect(body.messages).toHaveLength(13);
    const last = body.messages.at(-1).content;
    expect(last[0].type).toBe("tool_result");
    expect(last.at(-1).text).toContain("do not call any tool");
    expect(last.at(-1).text).not.toContain("<conversation>");
    expect(sent[0]!.cache!.read).toBeGreaterThan(7_000);
  });

  test("a reply that calls a tool is no summary: the condense falls back", async () => {
    reply = { text: "Let me look first.", toolCalls: [{ name: "Bash", input: { command: "ls" } }] };
    const { out } = await summarise(9_000);
    expect(out).toEqual({ failure: "the model called a tool instead of writing the summary" });
  });

  for (const [name, tokens, window] of [
    ["the prefix does not fit the window with room for the summary", 38_000, 40_000],
    ["no prefix (after the API said the prompt was too long)", undefined, 40_000],
  ] as const) {
    test(`${name}: a transcript, without tools`, async () => {
      reply = { text: "SUMMARY" };
      const { out, sent } = await summarise(tokens, window);
      expect(out).toEqual({ summary: "SUMMARY" });
      expect(sent).toHaveLength(1);
      const body = sent[0]!.body;
      expect(body.tools).toBeUndefined();
      expect(body.system[0].text).toBe(SUMMARY_SYSTEM);
      expect(body.messages).toHaveLength(1);
      // The transcript: each call and its output, cut to 2,000 characters.
      const text: string = body.messages[0].content[0].text;
      expect(text).toContain("<conversation>");
      expect(text).toContain('TOOL CALL Bash {"command":"cat f0"}');
      expect(text).toContain(`TOOL RESULT: ${"0".repeat(2000)}\n[... 2000 more characters cut for the summary]`);
    });
  }
});

describe("withRequest: where the ask goes", () => {
  const ask = "Summarise the conversation above";
  test("after tool results: in the same user message, so roles keep alternating", () => {
    const messages = conversation(1);
    const out = withRequest(messages, ask);
    expect(out).toHaveLength(3);
    expect(out[2]!.content.map((b) => b.type)).toEqual(["tool_result", "text"]);
    expect(messages[2]!.content).toHaveLength(1);
  });
  test("after an answer: a user message of its own", () => {
    const messages = [...conversation(1), message("assistant", { type: "text", text: "done" })];
    const out = withRequest(messages, ask);
    expect(out).toHaveLength(5);
    expect(out[4]).toMatchObject({ role: "user", content: [{ type: "text", text: ask }] });
  });
});

describe("cacheWarm: whether the turn's request is worth repeating", () => {
  const rows: Array<[string, number | undefined, number, boolean]> = [
    ["no request yet (a resumed session)", undefined, 1_000, false],
    ["a request a second ago", 0, 1_000, true],
    ["just inside the cache's life", 0, CACHE_LIFE_MS - 1, true],
    ["past it: repeating would write it all again", 0, CACHE_LIFE_MS, false],
  ];
  for (const [name, last, now, warm] of rows) test(name, () => expect(cacheWarm(last, now)).toBe(warm));
});

// /model's list from the real models endpoint of the strict fake server, asked as a run would ask.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { type FakeLLM, startFakeLLM } from "../support/fake-llm.ts";
import { listModels } from "../../src/llm/model-list.ts";

let fake: FakeLLM;
beforeAll(async () => {
  fake = await startFakeLLM([], { models: [{ id: "llama3" }, { id: "qwen2.5-coder:7b" }] });
});
afterAll(() => fake.stop());

test("a local OpenAI-compatible server with no key configured is asked with the placeholder key the runs send", async () => {
  const list = await listModels("openai", { baseUrl: `${fake.url}/v1` }, new AbortController().signal);
  expect(list).toEqual({ models: ["llama3", "qwen2.5-coder:7b"], source: "provider" });
  const asked = fake.requests.filter((r) => r.path.startsWith("/v1/models")).at(-1)!;
  expect(asked.headers.authorization).toBe("Bearer synapse-no-key");
});

test("a configured key is sent as is", async () => {
  const list = await listModels(
    "openai",
    { baseUrl: `${fake.url}/v1`, apiKey: "sk-real" },
    new AbortController().signal,
  );
  expect(list.source).toBe("provider");
  expect(fake.requests.filter((r) => r.path.startsWith("/v1/models")).at(-1)!.headers.authorization).toBe(
    "Bearer sk-real",
  );
});

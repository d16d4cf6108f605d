// The fake server's GET /v1/models speaks both APIs' shapes to their official SDKs, and refuses a
// missing or wrong key with each API's own 401, as the real endpoints do.

import { afterEach, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { type FakeLLM, startFakeLLM } from "../support/fake-llm.ts";

let server: FakeLLM | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const MODELS = [
  { id: "claude-sonnet-5-5", displayName: "Claude Sonnet 5.5", created: 1_790_000_000 },
  { id: "llama3" },
];

describe("fake GET /v1/models", () => {
  test("Anthropic SDK: the listed models, paged the Anthropic way", async () => {
    server = await startFakeLLM([], { models: MODELS, apiKey: "k1" });
    const client = new Anthropic({ apiKey: "k1", baseURL: server.url, maxRetries: 0 });
    const page = await client.models.list();
    expect(page.data.map((m) => [m.id, m.display_name, m.type])).toEqual([
      ["claude-sonnet-5-5", "Claude Sonnet 5.5", "model"],
      ["llama3", "llama3", "model"],
    ]);
    expect(page.data[0]!.created_at).toBe(new Date(1_790_000_000 * 1000).toISOString());
    expect(page.has_more).toBe(false);
    expect(server.requests).toMatchObject([{ path: "/v1/models", provider: "anthropic" }]);
  });

  test("OpenAI SDK: the listed models as an object list", async () => {
    server = await startFakeLLM([], { models: MODELS, apiKey: "k2" });
    const client = new OpenAI({ apiKey: "k2", baseURL: `${server.url}/v1`, maxRetries: 0 });
    const page = await client.models.list();
    expect(page.data.map((m) => [m.id, m.object])).toEqual([
      ["claude-sonnet-5-5", "model"],
      ["llama3", "model"],
    ]);
    expect(server.requests).toMatchObject([{ path: "/v1/models", provider: "openai" }]);
  });

  test("a wrong key: each API's 401", async () => {
    server = await startFakeLLM([], { apiKey: "right" });
    const anthropic = new Anthropic({ apiKey: "wrong", baseURL: server.url, maxRetries: 0 });
    const a = await anthropic.models.list().catch((err) => err);
    expect(a).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(a.error).toMatchObject({
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key" },
    });
    const openai = new OpenAI({ apiKey: "wrong", baseURL: `${server.url}/v1`, maxRetries: 0 });
    const o = await openai.models.list().catch((err) => err);
    expect(o).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(o.code).toBe("invalid_api_key");
  });

  test("no key at all is refused too", async () => {
    server = await startFakeLLM([]);
    const res = await fetch(`${server.url}/v1/models`, { headers: { "anthropic-version": "2023-06-01" } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: { type: "authentication_error", message: "x-api-key header is required" },
    });
  });
});

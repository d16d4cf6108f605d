// The OpenAI-compatible Chat Completions provider (OpenAI, Ollama, llama.cpp, vLLM, LM Studio):
// one streamed turn through the official SDK, loaded on first use.

import type OpenAIClient from "openai";
import { OpenAITurnBuilder, type OpenAIChunk } from "./openai-stream.ts";
import { OpenAIBodyBuilder } from "./openai-body.ts";
import { SdkProvider, type TurnBuilder } from "./sdk-stream.ts";
import type { ModelRequest, StreamCallbacks } from "./types.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

type Sdk = typeof import("openai");

/** Whether requests go to OpenAI itself (no base URL, or one on api.openai.com). */
export function isOpenAIHost(baseUrl: string | undefined): boolean {
  if (!baseUrl) return true;
  try {
    return new URL(baseUrl).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

export class OpenAIProvider extends SdkProvider<Sdk, OpenAIClient, OpenAIChunk> {
  readonly name = "openai" as const;
  readonly #bodies = new OpenAIBodyBuilder();

  protected loadSdk(): Promise<Sdk> {
    return import("openai");
  }

  protected createClient(sdk: Sdk): OpenAIClient {
    return new sdk.OpenAI({
      apiKey: this.options.apiKey,
      baseURL: this.options.baseUrl || OPENAI_DEFAULT_BASE_URL,
      // null keeps the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID behind the config's back.
      organization: null,
      project: null,
      maxRetries: 0,
      fetch: this.sendingFetch,
    });
  }

  // The SDK throws on a data chunk that holds an `error` key, before the builder sees it.
  protected async open(client: OpenAIClient, request: ModelRequest, model: string): Promise<AsyncIterable<unknown>> {
    // Sent as built: the bytes the SDK would write, from each message's JSON kept from the last turn.
    // OpenAI's own API takes prompt_cache_key; compatible servers may refuse a field they do not know.
    const keyed = isOpenAIHost(this.options.baseUrl) ? request : { ...request, cacheKey: undefined };
    const { params, body } = await this.#bodies.build(keyed, model);
    return client.chat.completions.create(params, {
      signal: request.signal,
      body,
      headers: { "content-type": "application/json" },
    });
  }

  protected builder(callbacks: StreamCallbacks): TurnBuilder<OpenAIChunk> {
    return new OpenAITurnBuilder((text) => callbacks.onText(text), callbacks.onToolInput);
  }
}

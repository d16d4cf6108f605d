// The OpenAI-compatible Chat Completions provider (OpenAI, Ollama, llama.cpp, vLLM, LM Studio):
// one streamed turn through the official SDK, loaded on first use.

import type OpenAIClient from "openai";
import { InterruptedError } from "../protocol/errors.ts";
import type { EndpointOptions } from "./anthropic.ts";
import { cutStreamError, toProviderError } from "./llm-error.ts";
import { OpenAITurnBuilder, type OpenAIChunk } from "./openai-stream.ts";
import { toOpenAIParams } from "./openai-wire.ts";
import type { AssistantTurn, ModelRequest, Provider, StreamCallbacks } from "./types.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

type Sdk = typeof import("openai");

let sdkLoad: Promise<Sdk> | undefined;
function loadSdk(): Promise<Sdk> {
  sdkLoad ??= import("openai");
  return sdkLoad;
}

export class OpenAIProvider implements Provider {
  readonly name = "openai" as const;
  readonly model: string;
  #client?: OpenAIClient;

  constructor(private readonly options: EndpointOptions) {
    this.model = options.model;
  }

  async stream(request: ModelRequest, callbacks: StreamCallbacks): Promise<AssistantTurn> {
    if (request.signal.aborted) throw new InterruptedError();
    const sdk = await loadSdk();
    try {
      const client = this.#clientFrom(sdk);
      const params = await toOpenAIParams(request, request.model || this.model);
      const stream = await client.chat.completions.create(params, { signal: request.signal });
      const turn = new OpenAITurnBuilder((text) => callbacks.onText(text));
      // The SDK throws on a data chunk that holds an `error` key, before we see it.
      let events = 0;
      for await (const chunk of stream) {
        events += 1;
        callbacks.onEvent?.();
        turn.add(chunk as OpenAIChunk);
      }
      if (request.signal.aborted) throw new InterruptedError();
      if (!turn.complete) throw cutStreamError("openai", events);
      return turn.finish();
    } catch (err) {
      throw toProviderError(err, sdk, "openai", request.signal);
    }
  }

  #clientFrom(sdk: Sdk): OpenAIClient {
    this.#client ??= new sdk.OpenAI({
      apiKey: this.options.apiKey,
      baseURL: this.options.baseUrl || OPENAI_DEFAULT_BASE_URL,
      // null keeps the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID behind the config's back.
      organization: null,
      project: null,
      maxRetries: 0,
    });
    return this.#client;
  }
}

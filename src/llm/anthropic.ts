// The Anthropic Messages provider: one streamed turn through the official SDK, loaded on first use
// so that startup (`--version`) never pays for it.

import type AnthropicClient from "@anthropic-ai/sdk";
import { InterruptedError } from "../protocol/errors.ts";
import { AnthropicTurnBuilder, type AnthropicEvent } from "./anthropic-stream.ts";
import { toAnthropicParams } from "./anthropic-wire.ts";
import { cutStreamError, toProviderError } from "./llm-error.ts";
import type { AssistantTurn, ModelRequest, Provider, StreamCallbacks } from "./types.ts";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

export interface EndpointOptions {
  apiKey: string;
  baseUrl?: string;
  model: string;
}

type Sdk = typeof import("@anthropic-ai/sdk");

let sdkLoad: Promise<Sdk> | undefined;
function loadSdk(): Promise<Sdk> {
  sdkLoad ??= import("@anthropic-ai/sdk");
  return sdkLoad;
}

export class AnthropicProvider implements Provider {
  readonly name = "anthropic" as const;
  readonly model: string;
  #client?: AnthropicClient;

  constructor(private readonly options: EndpointOptions) {
    this.model = options.model;
  }

  async stream(request: ModelRequest, callbacks: StreamCallbacks): Promise<AssistantTurn> {
    if (request.signal.aborted) throw new InterruptedError();
    const sdk = await loadSdk();
    try {
      const client = this.#clientFrom(sdk);
      const params = await toAnthropicParams(request, request.model || this.model);
      const stream = await client.messages.create(params, { signal: request.signal });
      const turn = new AnthropicTurnBuilder((text) => callbacks.onText(text));
      let events = 0;
      for await (const event of stream) {
        events += 1;
        callbacks.onEvent?.();
        turn.add(event as AnthropicEvent);
      }
      // The SDK ends iteration quietly when aborted; the signal tells the two endings apart.
      if (request.signal.aborted) throw new InterruptedError();
      if (!turn.complete) throw cutStreamError("anthropic", events);
      return turn.finish();
    } catch (err) {
      throw toProviderError(err, sdk, "anthropic", request.signal);
    }
  }

  #clientFrom(sdk: Sdk): AnthropicClient {
    this.#client ??= new sdk.Anthropic({
      apiKey: this.options.apiKey,
      // Passed explicitly so the SDK never falls back to its own environment lookups.
      baseURL: this.options.baseUrl || ANTHROPIC_DEFAULT_BASE_URL,
      // Retries are ours (retry.ts), with backoff the UI can show.
      maxRetries: 0,
    });
    return this.#client;
  }
}

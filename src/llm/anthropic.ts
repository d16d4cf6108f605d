// The Anthropic Messages provider: one streamed turn through the official SDK, loaded on first use
// so that startup (`--version`) never pays for it.

import type AnthropicClient from "@anthropic-ai/sdk";
import { AnthropicTurnBuilder, type AnthropicEvent } from "./anthropic-stream.ts";
import { AnthropicBodyBuilder } from "./anthropic-body.ts";
import { SdkProvider, type TurnBuilder } from "./sdk-stream.ts";
import type { ModelRequest } from "./types.ts";

export type { EndpointOptions } from "./sdk-stream.ts";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

type Sdk = typeof import("@anthropic-ai/sdk");

export class AnthropicProvider extends SdkProvider<Sdk, AnthropicClient, AnthropicEvent> {
  readonly name = "anthropic" as const;
  readonly #bodies = new AnthropicBodyBuilder();

  protected loadSdk(): Promise<Sdk> {
    return import("@anthropic-ai/sdk");
  }

  protected createClient(sdk: Sdk): AnthropicClient {
    return new sdk.Anthropic({
      apiKey: this.options.apiKey,
      // Passed explicitly so the SDK never falls back to its own environment lookups.
      baseURL: this.options.baseUrl || ANTHROPIC_DEFAULT_BASE_URL,
      // Retries are ours (retry.ts), with backoff the UI can show.
      maxRetries: 0,
    });
  }

  protected async open(client: AnthropicClient, request: ModelRequest, model: string): Promise<AsyncIterable<unknown>> {
    // The body is sent as built (the same bytes the SDK would write), reusing each message's JSON
    // from the previous turn instead of serialising the whole conversation again.
    const { params, body } = await this.#bodies.build(request, model);
    return client.messages.create(params, {
      signal: request.signal,
      body,
      headers: { "content-type": "application/json" },
    });
  }

  protected builder(onText: (text: string) => void): TurnBuilder<AnthropicEvent> {
    return new AnthropicTurnBuilder(onText);
  }
}

// The Anthropic Messages provider: one streamed turn through the official SDK, loaded on first use
// so that startup (`--version`) never pays for it.

import { startupMark } from "../runtime/startup-trace.ts";
import type { Messages } from "@anthropic-ai/sdk/resources/messages/messages";
import { AnthropicTurnBuilder, type AnthropicEvent } from "./anthropic-stream.ts";
import { AnthropicBodyBuilder } from "./anthropic-body.ts";
import { SdkProvider, type TurnBuilder } from "./sdk-stream.ts";
import type { ModelRequest, StreamCallbacks } from "./types.ts";

export type { EndpointOptions } from "./sdk-stream.ts";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

/**
 * The SDK's base client with only the Messages resource, not its `Anthropic` class: that one builds
 * every resource (beta, admin, files, skills...) at construction and drags their modules into the
 * first request's path. Measured in compiled binaries: half the import's CPU time (10 ms against
 * 20 ms here, under load) and construction 1.5 ms against 3 ms at best.
 */
type Sdk = typeof import("@anthropic-ai/sdk/core/error") & {
  BaseAnthropic: typeof import("@anthropic-ai/sdk/client").BaseAnthropic;
  Messages: typeof Messages;
};
type AnthropicClient = { messages: Messages };

let loading: Promise<Sdk> | undefined;
/** The parts of the SDK synapse uses; nothing imports its index, so the bundle leaves the rest out. */
export const loadAnthropicSdk = (): Promise<Sdk> =>
  (loading ??= Promise.all([
    import("@anthropic-ai/sdk/core/error"),
    import("@anthropic-ai/sdk/client"),
    import("@anthropic-ai/sdk/resources/messages/messages"),
  ]).then(([errors, client, messages]) => ({
    ...errors,
    BaseAnthropic: client.BaseAnthropic,
    Messages: messages.Messages,
  })));

export class AnthropicProvider extends SdkProvider<Sdk, AnthropicClient, AnthropicEvent> {
  readonly name = "anthropic" as const;
  readonly #bodies = new AnthropicBodyBuilder();

  protected loadSdk(): Promise<Sdk> {
    return loadAnthropicSdk();
  }

  protected createClient(sdk: Sdk): AnthropicClient {
    const client = new sdk.BaseAnthropic({
      apiKey: this.options.apiKey,
      // Passed explicitly so the SDK never falls back to its own environment lookups.
      baseURL: this.options.baseUrl || ANTHROPIC_DEFAULT_BASE_URL,
      // Retries are ours (retry.ts), with backoff the UI can show.
      maxRetries: 0,
      fetch: this.sendingFetch,
    });
    return { messages: new sdk.Messages(client) };
  }

  protected async open(client: AnthropicClient, request: ModelRequest, model: string): Promise<AsyncIterable<unknown>> {
    // The body is sent as built (the same bytes the SDK would write), reusing each message's JSON
    // from the previous turn instead of serialising the whole conversation again.
    const { params, body } = await this.#bodies.build(request, model);
    startupMark("request-built");
    return client.messages.create(params, {
      signal: request.signal,
      body,
      headers: { "content-type": "application/json" },
    });
  }

  protected builder(callbacks: StreamCallbacks): TurnBuilder<AnthropicEvent> {
    return new AnthropicTurnBuilder((text) => callbacks.onText(text), callbacks.onToolInput);
  }
}

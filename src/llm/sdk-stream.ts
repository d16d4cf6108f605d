// What both SDK providers share: the SDK loaded on first use, one client per provider, and the
// streamed turn (open the stream, feed each event to the wire format's turn builder, and tell an
// abort, a cut stream and a whole turn apart). Each provider says only what differs.

import { InterruptedError } from "../protocol/errors.ts";
import { cutStreamError, type SdkErrorClasses, toProviderError } from "./llm-error.ts";
import type { AssistantTurn, ModelRequest, Provider, StreamCallbacks } from "./types.ts";
import { startupMark } from "../runtime/startup-trace.ts";

export interface EndpointOptions {
  apiKey: string;
  baseUrl?: string;
  model: string;
}

/** What each wire format's stream parser offers (AnthropicTurnBuilder, OpenAITurnBuilder). */
export interface TurnBuilder<E> {
  add(event: E): void;
  readonly complete: boolean;
  finish(): AssistantTurn;
}

export abstract class SdkProvider<Sdk extends SdkErrorClasses, Client, E> implements Provider {
  abstract readonly name: Provider["name"];
  readonly model: string;
  #client?: Client;
  #apiMs = 0;
  /** Requests whose `onSent` waits for their fetch to start. */
  readonly #sending: Array<() => void> = [];

  constructor(protected readonly options: EndpointOptions) {
    this.model = options.model;
  }

  get apiMs(): number {
    return this.#apiMs;
  }

  /** A dynamic import: the SDKs cost start-up time that `--version` must not pay (the runtime caches it). */
  protected abstract loadSdk(): Promise<Sdk>;
  protected abstract createClient(sdk: Sdk): Client;
  /** Starts the request; the SDK's stream yields the wire format's events. */
  protected abstract open(client: Client, request: ModelRequest, model: string): Promise<AsyncIterable<unknown>>;
  protected abstract builder(callbacks: StreamCallbacks): TurnBuilder<E>;

  /**
   * The fetch the SDK's client sends with: once a request's bytes are handed to the runtime's HTTP
   * client, its `onSent` runs on the next turn of the event loop (start-up work that waits for the
   * first request: the sandbox probe's spawn, the sweep), so it delays nothing on the way there.
   */
  protected readonly sendingFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    startupMark("fetch", true);
    const response = fetch(input, init);
    for (const sent of this.#sending.splice(0)) setTimeout(sent, 0);
    return response;
  };

  prepare(): void {
    this.loadSdk().then(
      (sdk) => {
        try {
          this.#client ??= this.createClient(sdk);
        } catch {
          // Made again by the first request, which reports the failure.
        }
      },
      () => {},
    );
  }

  async stream(request: ModelRequest, callbacks: StreamCallbacks): Promise<AssistantTurn> {
    if (request.signal.aborted) throw new InterruptedError();
    const sdk = await this.loadSdk();
    const started = performance.now();
    try {
      this.#client ??= this.createClient(sdk);
      const sent = callbacks.onSent;
      if (sent) this.#sending.push(sent);
      const stream = await this.open(this.#client, request, request.model || this.model).finally(() => {
        // Failed before its fetch: nothing was sent.
        const waiting = sent ? this.#sending.indexOf(sent) : -1;
        if (waiting >= 0) this.#sending.splice(waiting, 1);
      });
      const turn = this.builder(callbacks);
      let events = 0;
      for await (const event of stream) {
        events += 1;
        callbacks.onEvent?.();
        turn.add(event as E);
      }
      // The SDKs end iteration quietly when aborted; the signal tells the two endings apart.
      if (request.signal.aborted) throw new InterruptedError();
      if (!turn.complete) throw cutStreamError(this.name, events);
      return turn.finish();
    } catch (err) {
      throw toProviderError(err, sdk, this.name, request.signal);
    } finally {
      this.#apiMs += performance.now() - started;
    }
  }
}

// The turn loop: ask the model, run the tools it calls, feed the results back, until it answers
// without tools, the turn budget runs out, or the run is interrupted.

import type { Config } from "../config/config.ts";
import { streamWithRetry } from "../llm/retry.ts";
import type { Provider, ToolSpec } from "../llm/types.ts";
import { InterruptedError, ProviderError, errorMessage } from "../protocol/errors.ts";
import type { EventSink, ResultSubtype } from "../protocol/events.ts";
import { type ContentBlock, type Message, type ToolUseBlock, type Usage, newMessageId, textOf } from "../protocol/message.ts";
import { imageBytes, selectImagesForContext } from "./image-context.ts";
import type { SessionStore } from "../store/types.ts";
import { type Tool, type ToolServices, toolLimits } from "../tools/types.ts";
import { buildContext } from "./context.ts";
import { executeToolCall } from "./tool-call.ts";

const LARGE_REQUEST_BYTES = 1024 * 1024;

export interface RunInput {
  config: Config;
  provider: Provider;
  store: SessionStore;
  tools: ReadonlyMap<string, Tool>;
  services: ToolServices;
  systemPrompt: string;
  prompt: ContentBlock[];
  taskId: string;
  signal: AbortSignal;
  emit: EventSink;
}

export interface RunOutput {
  subtype: ResultSubtype;
  result: string;
  numTurns: number;
  usage: Usage;
}

export async function runAgent(input: RunInput): Promise<RunOutput> {
  const { config, provider, store, tools, signal, emit } = input;
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  const specs: ToolSpec[] = [...tools.values()].map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  let numTurns = 0;
  let lastText = "";

  // A full disk must not end the run: the messages stay in memory and the next flush retries.
  const reported = new Set<string>();
  const flush = async () => {
    try {
      await store.flush();
    } catch (err) {
      const message = errorMessage(err);
      if (!reported.has(message)) emit({ type: "warning", message });
      reported.add(message);
    }
  };

  store.append({ id: newMessageId(), role: "user", content: input.prompt, ts: Date.now() });

  try {
    while (true) {
      if (signal.aborted) throw new InterruptedError();
      if (numTurns >= config.maxTurns) {
        return { subtype: "error_max_turns", result: lastText || `Reached the maximum of ${config.maxTurns} turns.`, numTurns, usage };
      }
      numTurns++;
      await flush();
      const messages = selectImagesForContext(buildContext(store.window()), {
        maxImages: config.store.contextMaxImages,
        maxBytes: config.store.contextMaxImageBytes,
      });
      const turn = await streamWithRetry(
        provider,
        {
          model: provider.model,
          system: input.systemPrompt,
          messages,
          tools: specs,
          maxTokens: config.maxTokens,
          signal,
          loadImage: (ref) => store.loadImage(ref),
        },
        { onText: (text) => emit({ type: "text_delta", text }) },
        {
          maxRetries: config.maxRetries,
          baseMs: config.retryBaseMs,
          maxMs: config.retryMaxMs,
          idleTimeoutMs: config.streamIdleMs,
          onRetry: (info) => emit({ type: "turn_retry", attempt: info.attempt, delay_ms: info.delayMs, reason: info.reason }),
        },
      );
      // A request of megabytes (long context, base64 images) leaves as much garbage in copies;
      // collecting it now keeps peak RSS near one request's worth instead of several. A full
      // collection costs a few ms, nothing beside the model's time on such a request.
      if (store.windowBytes() + imageBytes(messages) > LARGE_REQUEST_BYTES) Bun.gc(true);
      usage.input_tokens += turn.usage.input_tokens;
      usage.output_tokens += turn.usage.output_tokens;
      const assistant: Message = {
        id: newMessageId(),
        role: "assistant",
        // A model's JSON can carry a lone surrogate escape; sent back, the API would reject it.
        content: turn.content.map((b) => (b.type === "text" ? { ...b, text: b.text.toWellFormed() } : b)),
        ts: Date.now(),
        usage: turn.usage,
        stop_reason: turn.stopReason,
      };
      store.append(assistant);
      emit({ type: "assistant", message: assistant });
      const text = textOf(assistant);
      if (text.trim()) lastText = text;

      const calls = assistant.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
      if (!calls.length) {
        await flush();
        return { subtype: "success", result: text, numTurns, usage };
      }

      const results: ContentBlock[] = [];
      for (const call of calls) {
        if (signal.aborted) {
          results.push({ type: "tool_result", tool_use_id: call.id, content: "Interrupted by the user.", is_error: true });
          continue;
        }
        emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
        const outcome = await executeToolCall(call, tools, {
          cwd: config.cwd,
          signal,
          taskId: input.taskId,
          limits: toolLimits(config),
          services: input.services,
          progress: (chunk) => emit({ type: "tool_progress", id: call.id, name: call.name, text: chunk.toWellFormed() }),
        });
        results.push(outcome.block);
        emit({ type: "tool_end", id: call.id, name: call.name, is_error: Boolean(outcome.block.is_error), summary: outcome.summary });
      }
      const user: Message = { id: newMessageId(), role: "user", content: results, ts: Date.now() };
      store.append(user);
      emit({ type: "user", message: user });
      await flush();
    }
  } catch (err) {
    if (err instanceof InterruptedError || signal.aborted) {
      return { subtype: "interrupted", result: lastText || "Interrupted.", numTurns, usage };
    }
    if (err instanceof ProviderError) {
      return { subtype: "error_during_execution", result: err.message, numTurns, usage };
    }
    return { subtype: "error_during_execution", result: `Internal error: ${errorMessage(err)}`, numTurns, usage };
  }
}

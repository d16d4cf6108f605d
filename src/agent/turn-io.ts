// What one turn of a run sends and hands out: the model request (streamed with retries, sub-agent
// threads warmed while task calls stream in), a tool call's context, and what a Stop hook said.

import { MAX_STOP_CONTINUATIONS } from "../hooks/index.ts";
import { streamWithRetry } from "../llm/retry.ts";
import type { ModelRequest, ToolSpec } from "../llm/types.ts";
import type { Message, ToolUseBlock } from "../protocol/message.ts";
import { toolLimits } from "../tools/types.ts";
import type { RunInput } from "./run-input.ts";
import { taskWarmUp } from "./task-warm-up.ts";

/** One model turn, streamed with retries: `onText` sees each piece, `onRetry` an attempt started again. */
export function streamTurn(
  input: RunInput,
  messages: Message[],
  tools: ToolSpec[],
  hooks: { onText(text: string): void; onRetry(): void },
) {
  const { config, provider, store, signal, emit } = input;
  const request: ModelRequest = {
    model: provider.model,
    system: input.systemPrompt,
    messages,
    tools,
    maxTokens: config.maxTokens,
    signal,
    cacheKey: store.id,
    loadImage: (ref) => store.loadImage(ref),
  };
  const onText = (text: string) => {
    hooks.onText(text);
    emit({ type: "text_delta", text });
  };
  // Task calls on the way: the pool's threads start while the model still writes their prompts.
  const tasks = input.tasks;
  const onToolInput = tasks ? taskWarmUp((count) => tasks.warm(count)) : undefined;
  return streamWithRetry(
    provider,
    request,
    {
      onText,
      ...(onToolInput ? { onToolInput } : {}),
      ...(input.onRequestSent ? { onSent: input.onRequestSent } : {}),
    },
    {
      maxRetries: config.maxRetries,
      baseMs: config.retryBaseMs,
      maxMs: config.retryMaxMs,
      idleTimeoutMs: config.streamIdleMs,
      onRetry: (info) => {
        hooks.onRetry();
        emit({ type: "turn_retry", attempt: info.attempt, delay_ms: info.delayMs, reason: info.reason });
      },
    },
  );
}

/** What a tool call of this run gets: its folder, limits, services and where its live output goes. */
export function toolContext(input: RunInput, call: ToolUseBlock) {
  const { config, signal, emit } = input;
  return {
    cwd: config.cwd,
    signal,
    taskId: input.taskId,
    limits: toolLimits(config),
    services: input.services,
    progress: (chunk: string) =>
      emit({ type: "tool_progress", id: call.id, name: call.name, text: chunk.toWellFormed() }),
    warn: (message: string) => emit({ type: "warning", message }),
  };
}

/** A Stop hook's reason to go on, as the message the model gets (none: the run ends), or its stop. */
export async function stopFeedback(
  input: RunInput,
  heard: number,
  signal: AbortSignal,
): Promise<{ goOn?: string; stop?: string }> {
  const said = await input.hooks?.stop?.(heard > 0, signal);
  if (said?.stop) return { stop: said.stop };
  if (!said?.reason) return {};
  if (heard >= MAX_STOP_CONTINUATIONS) {
    input.emit({ type: "warning", message: `a Stop hook kept the run going ${heard} times: it ends here` });
    return {};
  }
  return { goOn: `Stop hook feedback: ${said.reason}` };
}

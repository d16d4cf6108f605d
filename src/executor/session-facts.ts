// The read-only facts commands see (/status, /cost, the status line): the runtime's own figures
// joined with the executor's counters and the process's memory now.

import type { Config } from "../config/config.ts";
import { contextWindowFor } from "../context/model-windows.ts";
import { addUsage, costOf, priceFor } from "../llm/pricing.ts";
import type { SessionCounters } from "./session-counters.ts";
import type { SessionRuntime } from "./session-runtime.ts";
import type { SessionFacts } from "./slash-command.ts";

/** The price of a `provider/model` spec (the table's or the user's), if it has one. */
function priceOf(spec: string, config: Config) {
  const at = spec.indexOf("/");
  const provider = spec.slice(0, at) === "openai" ? "openai" : "anthropic";
  return priceFor(provider, spec.slice(at + 1), config.price);
}

export function sessionFacts(runtime: SessionRuntime, counters: SessionCounters, config: Config): SessionFacts {
  const r = runtime.facts();
  const rss = Math.round(process.memoryUsage.rss() / 1048576);
  // A run's turns count as they end (the status line's running spend); its result then counts them
  // with its summary calls.
  const usage = { ...counters.usage };
  addUsage(usage, counters.running);
  const price = priceOf(runtime.model, config);
  return {
    model: runtime.model,
    sessionId: runtime.sessionId,
    sessionSaved: r.saved,
    cwd: config.cwd,
    usage,
    ...(counters.costKnown && price ? { costUsd: counters.costUsd + costOf(counters.running, price) } : {}),
    contextTokens: counters.contextTokens,
    contextWindow: contextWindowFor(runtime.model, config.context.window),
    messagesInMemory: r.messagesInMemory,
    shells: r.shells,
    memory: { peakHeapMb: r.memory.peakHeapMb, peakRssMb: Math.max(r.memory.peakRssMb, rss), rssMb: rss },
    tasksRunning: counters.tasksRunning.size,
    sandbox: r.sandbox,
    permissionMode: r.permissionMode,
  };
}

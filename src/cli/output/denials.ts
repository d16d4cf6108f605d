// The calls a run refused, as Claude Code's result lists them (`permission_denials`), for both JSON
// output formats: scripts written for `claude -p --output-format json|stream-json` read it.

import { claudeToolInput } from "../../protocol/claude-tool-input.ts";
import type { AgentEvent } from "../../protocol/events.ts";

/** A denied call as Claude Code's result lists it. */
export interface Denial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
}

export interface DenialLog {
  /** Notes a call's input when it starts and the call when it is refused; other events are ignored. */
  see(event: AgentEvent): void;
  /** The run's denials so far; the log starts again empty. */
  take(): Denial[];
}

export function createDenialLog(): DenialLog {
  const inputs = new Map<string, unknown>();
  let denials: Denial[] = [];
  return {
    see(event) {
      if (event.type === "tool_start") inputs.set(event.id, event.input);
      else if (event.type === "permission_denied")
        denials.push({
          tool_name: event.name,
          tool_use_id: event.id,
          tool_input: claudeToolInput(event.name, inputs.get(event.id) ?? {}),
        });
    },
    take() {
      const taken = denials;
      denials = [];
      inputs.clear();
      return taken;
    },
  };
}

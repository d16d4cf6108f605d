// The hooks an SDK program registered in `initialize` (its `hooks` option): each matcher's callback
// ids, called back with `hook_callback` when an event it matches fires, their answers read as a
// hook command's JSON is read (hooks/hook-output.ts). A callback that fails or does not answer in
// time is a notice, never a block (the SDK's default onFailure: "continue").

import type { HookOutcome, HookSource } from "../hooks/index.ts";
import { outcomeFromJson } from "../hooks/hook-output.ts";
import { matcherSelects } from "../hooks/matcher.ts";
import { DEFAULT_HOOK_TIMEOUT_S, HOOK_EVENT_NAMES, type HookEventInput, matchTarget } from "../protocol/hook-events.ts";
import type { ControlChannel } from "./control-channel.ts";
import type { InitializeRequest } from "./sdk-lines.ts";

type Registered = NonNullable<InitializeRequest["hooks"]>;

/** The events the program registered callbacks for that synapse never fires (one stderr note). */
export function unsupportedHookEvents(hooks: Registered): string[] {
  return Object.keys(hooks).filter((name) => !(HOOK_EVENT_NAMES as readonly string[]).includes(name));
}

export function sdkHookSource(hooks: Registered, channel: ControlChannel): HookSource {
  return {
    async run(event: HookEventInput, signal: AbortSignal): Promise<HookOutcome[]> {
      const target = matchTarget(event);
      const matchers = (hooks[event.hook_event_name] ?? []).filter((m) =>
        matcherSelects(m.matcher ?? undefined, target),
      );
      const calls = matchers.flatMap((m) =>
        m.hookCallbackIds.map((id) =>
          callBack(channel, id, event, (m.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000, signal),
        ),
      );
      return Promise.all(calls);
    },
  };
}

async function callBack(
  channel: ControlChannel,
  callbackId: string,
  event: HookEventInput,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<HookOutcome> {
  const label = `${event.hook_event_name} callback ${callbackId}`;
  const toolUseId = "tool_use_id" in event ? { tool_use_id: event.tool_use_id } : {};
  const answer = await channel.request(
    { subtype: "hook_callback", callback_id: callbackId, input: event, ...toolUseId },
    AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
  );
  if (!answer.ok) return { notice: `hook ${label} failed: ${answer.error}` };
  // `{async: true}`: the program answers nothing now; the action goes on.
  if (answer.response.async === true) return {};
  return outcomeFromJson(answer.response, label);
}

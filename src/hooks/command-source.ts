// The config files' hooks as a HookSource: each matching command run (hook-process.ts) with the
// event on stdin, all of an event's at once (as Claude Code does), an identical command once.

import {
  DEFAULT_HOOK_TIMEOUT_S,
  type HookEventInput,
  type HookEventName,
  type HookSettings,
  matchTarget,
} from "../protocol/hook-events.ts";
import { outcomeFromCommand } from "./hook-output.ts";
import { type HookProcessOptions, runHookCommand } from "./hook-process.ts";
import { matcherSelects } from "./matcher.ts";
import type { HookOutcome, HookSource } from "./types.ts";

/** One hook command of a config file, flattened out of its matcher group. */
export interface ConfiguredHook {
  event: HookEventName;
  matcher?: string;
  command: string;
  timeoutS: number;
  scope: "user" | "project";
  /** The file it was written in. */
  origin: string;
}

/** A settings value's hooks, one per command, in the order written. */
export function flattenSettings(
  settings: HookSettings,
  scope: ConfiguredHook["scope"],
  origin: string,
): ConfiguredHook[] {
  const out: ConfiguredHook[] = [];
  for (const [event, groups] of Object.entries(settings) as [HookEventName, HookSettings[HookEventName]][]) {
    for (const group of groups ?? []) {
      for (const hook of group.hooks) {
        const timeoutS = hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S;
        out.push({ event, matcher: group.matcher, command: hook.command, timeoutS, scope, origin });
      }
    }
  }
  return out;
}

/** How a hook is named in notices: its event and the start of its command. */
export function hookLabel(hook: Pick<ConfiguredHook, "event" | "command">): string {
  const line = hook.command.split("\n")[0] ?? "";
  return `${hook.event} "${line.length > 60 ? `${line.slice(0, 60)}…` : line}"`;
}

/** The hooks that may run and how they run: known at the first event (sandbox probed, user asked). */
export interface LoadedHooks {
  hooks: readonly ConfiguredHook[];
  runWith: HookProcessOptions;
}

export class CommandHookSource implements HookSource {
  constructor(private readonly load: () => Promise<LoadedHooks>) {}

  async run(event: HookEventInput, signal: AbortSignal): Promise<HookOutcome[]> {
    const target = matchTarget(event);
    let loaded: LoadedHooks;
    try {
      loaded = await this.load();
    } catch (err) {
      return [{ notice: `hooks not run: ${(err as Error).message}` }];
    }
    const { hooks: all, runWith } = loaded;
    const seen = new Set<string>();
    const matching = all.filter((h) => {
      if (h.event !== event.hook_event_name || !matcherSelects(h.matcher, target) || seen.has(h.command)) return false;
      seen.add(h.command);
      return true;
    });
    if (!matching.length) return [];
    const input = JSON.stringify(event);
    return Promise.all(
      matching.map(async (hook) => {
        const result = await runHookCommand(hook.command, input, hook.timeoutS * 1000, runWith, signal);
        // Killed because the user interrupted: that is no news to them, and it decides nothing.
        if (signal.aborted) return {};
        return outcomeFromCommand(hook.event, result, hookLabel(hook));
      }),
    );
  }
}

// A world for hook tests: a home with a user config holding hooks, a workspace and a folder beside
// it (outside the workspace), under /var/tmp so the sandbox's private /tmp hides none of them.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest } from "../support/fake-llm.ts";
import { testBase } from "../sandbox/support.ts";

export interface HookWorld {
  dir: string;
  home: string;
  ws: string;
  outside: string;
  env: Record<string, string>;
  /** Writes the project's own .synapse/config.json. */
  projectConfig(value: unknown): void;
}

export function hookWorld(hooks: unknown, userConfig: Record<string, unknown> = {}): HookWorld {
  const dir = mkdtempSync(join(testBase(), "synapse-hooks-"));
  const home = join(dir, "home");
  const ws = join(dir, "ws");
  const outside = join(dir, "outside");
  for (const d of [home, ws, outside, join(home, ".config", "synapse")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, ".config", "synapse", "config.json"), JSON.stringify({ ...userConfig, hooks }));
  return {
    dir,
    home,
    ws,
    outside,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_DATA_HOME: join(home, ".local", "share"),
      SYNAPSE_HOME: join(home, ".local", "share", "synapse"),
    },
    projectConfig(value) {
      mkdirSync(join(ws, ".synapse"), { recursive: true });
      writeFileSync(join(ws, ".synapse", "config.json"), JSON.stringify(value));
    },
  };
}

/** The last tool result of a request to the fake (Anthropic's wire format): its text and error flag. */
export function lastToolResult(req: RecordedRequest): { text: string; is_error: boolean } {
  const last = req.body.messages.at(-1);
  const block = last.content.findLast((b: any) => b.type === "tool_result");
  const content = block.content;
  const text =
    typeof content === "string" ? content : content.map((b: any) => (b.type === "text" ? b.text : "")).join("\n");
  return { text, is_error: block.is_error === true };
}

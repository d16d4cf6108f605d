// The Claude Agent SDK's own query() with the compiled binary as its executable, against the fake
// LLM server: a temp home, the fake's URL, and every message the SDK yields collected.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Options, type SDKMessage, query } from "@anthropic-ai/claude-agent-sdk";
import { BINARY, providerEnv, tempHome } from "./binary.ts";

export interface SdkRun {
  messages: SDKMessage[];
  stderr: string;
  /** The error query() ended with, if any (a process that exited non-zero). */
  error?: unknown;
}

/** Options for query(): the binary, the fake's env, a fresh home and a workspace folder. */
export function sdkOptions(url: string, extra: Partial<Options> = {}): Options & { cwd: string } {
  const home = tempHome();
  const cwd = mkdtempSync(join(tmpdir(), "synapse-sdk-ws-"));
  let stderr = "";
  const options = {
    pathToClaudeCodeExecutable: BINARY,
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env, ...providerEnv(url) },
    stderr: (text: string) => {
      stderr += text;
    },
    ...extra,
  };
  Object.defineProperty(options, "stderrText", { get: () => stderr });
  return options as Options & { cwd: string };
}

export const stderrOf = (options: Options): string => (options as { stderrText?: string }).stderrText ?? "";

/** Runs one query to its end and collects what it yields. */
export async function collect(prompt: Parameters<typeof query>[0]["prompt"], options: Options): Promise<SdkRun> {
  const messages: SDKMessage[] = [];
  let error: unknown;
  try {
    for await (const message of query({ prompt, options })) messages.push(message);
  } catch (err) {
    error = err;
  }
  return { messages, stderr: stderrOf(options), ...(error ? { error } : {}) };
}

export const ofType = <T extends SDKMessage["type"]>(messages: SDKMessage[], type: T) =>
  messages.filter((m): m is Extract<SDKMessage, { type: T }> => m.type === type);

/** An async prompt stream the test feeds one user message at a time, and ends. */
export function promptStream() {
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  async function* messages() {
    while (true) {
      while (queue.length) {
        const text = queue.shift()!;
        yield {
          type: "user" as const,
          message: { role: "user" as const, content: text },
          parent_tool_use_id: null,
          session_id: "",
        };
      }
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  return {
    messages: messages(),
    send(text: string) {
      queue.push(text);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
  };
}

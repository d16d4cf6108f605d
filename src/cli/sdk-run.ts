// `--input-format stream-json`: a run driven by a Claude Agent SDK program (src/agent-sdk/) on
// stdin and stdout. This module only wires it to the process: stdin read as lines, stdout's
// stream-json writer (the same one `-o stream-json` uses), stderr, signals and crashes.

import { existsSync, statSync } from "node:fs";
import type { Config } from "../config/config.ts";
import { runSdkSession } from "../agent-sdk/sdk-session.ts";
import { sdkMode } from "../agent-sdk/permission-modes.ts";
import type { Executor, ExecutorEvent } from "../executor/executor.ts";
import { UsageError } from "../protocol/errors.ts";
import type { AgentEvent } from "../protocol/events.ts";
import { inertJson } from "../render/inert.ts";
import { runtime as jsRuntime } from "../runtime/runtime.ts";
import { routeConsole } from "../runtime/console-route.ts";
import { redactSecrets } from "../policy/secret-redaction.ts";
import type { Command } from "./args.ts";
import { VERSION } from "./help.ts";
import { createStreamJsonWriter } from "./output/stream-json-writer.ts";
import { apiKeySource } from "./output/api-key-source.ts";
import { createOutputStreams } from "./output/streams.ts";
import { startLifecycle } from "./process-lifecycle.ts";
import type { SdkFlags } from "./sdk-flags.ts";
import { terminalFacts } from "./terminal.ts";

type RunCommand = Extract<Command, { kind: "run" }>;

/** init's claude_code_version: this build and the SDK protocol it was built against, never Claude Code's version. */
export const PROTOCOL_VERSION = `synapse ${VERSION} (Claude Agent SDK stream-json protocol)`;
const SHUTDOWN_MS = 5000;

export async function runSdk(config: Config, command: RunCommand, flags: SdkFlags): Promise<number> {
  if (config.outputFormat !== "stream-json")
    throw new UsageError("--input-format stream-json needs --output-format stream-json");
  if (command.prompt !== undefined)
    throw new UsageError("--input-format stream-json reads its prompts from stdin: give no prompt argument");
  if (!existsSync(config.cwd) || !statSync(config.cwd).isDirectory())
    throw new UsageError(`working directory is not a directory: ${config.cwd}`);
  const life = startLifecycle();
  const streams = createOutputStreams(terminalFacts(), () => {
    // The program stopped reading: nothing it could still be told.
    life.forceExit(0);
  });
  for (const note of flags.notes) streams.err(`${note}\n`);
  let executor: Executor | undefined;
  const writer = createStreamJsonWriter(streams, {
    partial: flags.includePartialMessages,
    permissionMode: () => (executor ? sdkMode(executor.runtime.permissionMode) : sdkMode(config.permissionMode)),
    version: PROTOCOL_VERSION,
    apiKeySource: (provider) => apiKeySource(config, provider),
  });
  // stdout is the program's protocol: a library's console write goes there as a warning line.
  routeConsole((text) => writer.handle({ type: "warning", message: redactSecrets(text, config.secrets) }));
  life.onSignal((note) => {
    const open = executor;
    if (note.count > 1 || !open) return life.forceExit(note.code);
    open.interruptAll();
    setTimeout(() => life.forceExit(note.code), SHUTDOWN_MS).unref();
    void open.close().finally(() => life.forceExit(note.code));
  });
  const code = await runSdkSession({
    config,
    resume: command.resume,
    flags,
    lines: stdinLines(),
    write: (line) => streams.out(`${inertJson(line)}\n`),
    events: (event: ExecutorEvent) => {
      if (isAgentEvent(event)) writer.handle(event);
    },
    err: (text) => streams.err(text),
    version: PROTOCOL_VERSION,
    onOpen: (opened) => {
      executor = opened;
      life.own(opened);
    },
  });
  await streams.flush();
  return code;
}

/** stdin a line at a time (a line may be long: a base64 image). */
async function* stdinLines(): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of jsRuntime.stdinStream()) {
    pending += decoder.decode(chunk, { stream: true });
    let end = pending.indexOf("\n");
    while (end >= 0) {
      yield pending.slice(0, end);
      pending = pending.slice(end + 1);
      end = pending.indexOf("\n");
    }
  }
  pending += decoder.decode();
  if (pending) yield pending;
}

const EXECUTOR_ONLY = new Set([
  "submission_start",
  "command_output",
  "model_changed",
  "session_changed",
  "compacted",
  "submission_end",
]);
const isAgentEvent = (event: ExecutorEvent): event is AgentEvent => !EXECUTOR_ONLY.has(event.type);

// One request from the command line: read the prompt, open the session, run it, print it in the
// chosen format, and exit with the documented code — whatever signal or broken pipe comes along.

import { existsSync, statSync } from "node:fs";
import type { Config } from "../config/config.ts";
import { loadColors } from "../render/colors.ts";
import { type SessionRuntime, openRuntime } from "../executor/session-runtime.ts";
import { EXIT, UsageError, errorMessage } from "../protocol/errors.ts";
import type { AgentEvent, ResultSubtype } from "../protocol/events.ts";
import type { ContentBlock } from "../protocol/message.ts";
import type { Command } from "./args.ts";
import { createJsonWriter } from "./output/json-writer.ts";
import { createStreamJsonWriter } from "./output/stream-json-writer.ts";
import { createTextWriter } from "./output/text-writer.ts";
import { createOutputStreams } from "./output/streams.ts";
import type { OutputStreams, OutputWriter } from "./output/types.ts";
import { terminalFacts } from "../config/terminal.ts";
import { composePrompt, readStdin } from "./stdin.ts";

type RunCommand = Extract<Command, { kind: "run" }>;

function exitCodeFor(subtype: ResultSubtype): number {
  if (subtype === "success") return EXIT.ok;
  if (subtype === "interrupted") return EXIT.interrupted;
  return EXIT.failed;
}

async function makeWriter(config: Config, streams: OutputStreams): Promise<OutputWriter> {
  if (config.outputFormat === "json") return createJsonWriter(streams, { quiet: config.quiet });
  if (config.outputFormat === "stream-json") return createStreamJsonWriter(streams);
  return createTextWriter(streams, {
    quiet: config.quiet,
    colors: await loadColors(config.color && streams.errIsTTY),
    labelLimit: config.toolResultSummaryLimit,
    columns: () => process.stderr.columns || 80, // only read on a terminal
  });
}

export async function runHeadless(config: Config, command: RunCommand): Promise<number> {
  if (!existsSync(config.cwd) || !statSync(config.cwd).isDirectory()) {
    throw new UsageError(`working directory does not exist: ${config.cwd}`);
  }
  const stdinText = await readStdin(
    { isTTY: terminalFacts().inIsTTY, stream: () => Bun.stdin.stream() },
    { firstByteTimeoutMs: command.prompt ? config.stdinWaitMs : undefined },
  );
  const prompt = composePrompt(command.prompt, stdinText);
  if (!prompt) {
    throw new UsageError(
      stdinText !== undefined ? "empty prompt: stdin was empty and no prompt argument was given" : "no prompt: pass it as an argument or pipe it on stdin (synapse --help)",
    );
  }

  const controller = new AbortController();
  let exitOverride: number | undefined;
  const streams = createOutputStreams(terminalFacts(), () => {
    exitOverride ??= EXIT.ok;
    controller.abort();
  });
  const writer = await makeWriter(config, streams);
  const emit = (event: AgentEvent) => writer.handle(event);

  const runtime: SessionRuntime = await openRuntime({ config, resume: command.resume, emit });
  // Whatever ends the process, no shell or child it started may outlive it.
  process.on("exit", () => runtime.killNow());
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) {
      runtime.killNow();
      process.exit(EXIT.interrupted);
    }
    exitOverride ??= EXIT.interrupted;
    controller.abort();
  };
  const onTerminate = (code: number) => () => {
    exitOverride = code;
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onTerminate(EXIT.terminated));
  process.on("SIGHUP", onTerminate(EXIT.hangup));
  // A bug must not leave shells behind either: report it in one line and end like any failure.
  const onCrash = (err: unknown) => {
    streams.err(`synapse: internal error: ${errorMessage(err)}\n`);
    runtime.killNow();
    process.exit(EXIT.failed);
  };
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);

  let code: number;
  try {
    const content: ContentBlock[] = [{ type: "text", text: prompt }];
    for (const path of command.images) content.push(await runtime.attachImage(path));
    const result = await runtime.submit(content, controller.signal);
    code = exitOverride ?? exitCodeFor(result.subtype);
  } finally {
    try {
      await runtime.close();
    } catch (err) {
      streams.err(`synapse: could not save the session: ${errorMessage(err)}\n`);
      code = EXIT.failed;
    }
    await streams.flush();
  }
  return code;
}

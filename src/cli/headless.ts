// One request from the command line: read the prompt, open the session, run it, print it in the
// chosen format, and exit with the documented code — whatever signal or broken pipe comes along.

import { existsSync, statSync } from "node:fs";
import type { Config } from "../config/config.ts";
import { loadColors } from "../render/colors.ts";
import { type SessionRuntime, openRuntime } from "../executor/session-runtime.ts";
import { EXIT, SynapseError, UsageError, errorMessage } from "../protocol/errors.ts";
import type { AgentEvent, ResultSubtype } from "../protocol/events.ts";
import type { ContentBlock } from "../protocol/message.ts";
import type { Command } from "./args.ts";
import { createJsonWriter } from "./output/json-writer.ts";
import { createStreamJsonWriter } from "./output/stream-json-writer.ts";
import { createTextWriter } from "./output/text-writer.ts";
import { createOutputStreams } from "./output/streams.ts";
import type { OutputStreams, OutputWriter } from "./output/types.ts";
import { terminalFacts } from "./terminal.ts";
import { trapSignals } from "./signals.ts";
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
  if (!existsSync(config.cwd)) throw new UsageError(`working directory does not exist: ${config.cwd}`);
  if (!statSync(config.cwd).isDirectory()) throw new UsageError(`working directory is not a directory: ${config.cwd}`);
  // Trapped before stdin is read: a Ctrl-C while the prompt is still arriving must not run it.
  const signals = trapSignals();
  const stdinText = await Promise.race([
    readStdin({ isTTY: terminalFacts().inIsTTY, stream: () => Bun.stdin.stream() }, { firstByteTimeoutMs: command.prompt ? config.stdinWaitMs : undefined }),
    signals.first.then((code) => {
      throw new SynapseError("interrupted before the prompt was read; nothing was run", code);
    }),
  ]);
  const prompt = composePrompt(command.prompt, stdinText);
  if (!prompt) {
    const blank = Boolean(command.prompt) || Boolean(stdinText);
    throw new UsageError(blank ? "empty prompt: the prompt argument and stdin hold only white space" : "no prompt: pass it as an argument or pipe it on stdin (synapse --help)");
  }

  const controller = new AbortController();
  let exitOverride: number | undefined;
  const streams = createOutputStreams(terminalFacts(), (err) => {
    // A reader that went away (`| head`) ends the run quietly; any other write failure (a full
    // disk behind `> answer.md`) loses the answer, and must say so.
    if (err.code === "EPIPE") exitOverride ??= EXIT.ok;
    else {
      exitOverride ??= EXIT.failed;
      streams.err(`synapse: cannot write the answer to stdout: ${errorMessage(err)}\n`);
    }
    controller.abort();
  });
  const writer = await makeWriter(config, streams);
  const emit = (event: AgentEvent) => writer.handle(event);

  const runtime: SessionRuntime = await openRuntime({ config, resume: command.resume, emit });
  // Whatever ends the process, no shell or child it started may outlive it.
  process.on("exit", () => runtime.killNow());
  signals.onSignal((code, signal, count) => {
    // A second signal, or a run that does not wind down (a tool stuck in the kernel), ends at once.
    if (count > 1) forceExit(runtime, code);
    exitOverride ??= code;
    controller.abort();
    if (signal !== "SIGINT") setTimeout(() => forceExit(runtime, code), FORCE_EXIT_MS).unref();
  });
  if (signals.code() !== undefined) {
    exitOverride = signals.code();
    controller.abort();
  }
  // A bug must not leave shells behind either: report it in one line and end like any failure.
  const onCrash = (err: unknown) => {
    // The stdout sink can report a vanished reader from a flush nobody awaits.
    if ((err as NodeJS.ErrnoException)?.code === "EPIPE") {
      exitOverride ??= EXIT.ok;
      controller.abort();
      return;
    }
    streams.err(`synapse: internal error: ${errorMessage(err)}\n`);
    forceExit(runtime, EXIT.failed);
  };
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);

  let code: number = EXIT.failed;
  let saveError: string | undefined;
  try {
    const content: ContentBlock[] = [{ type: "text", text: prompt }];
    for (const path of command.images) content.push(await runtime.attachImage(path));
    const result = await runtime.submit(content, controller.signal);
    saveError = result.error;
    code = exitOverride ?? (saveError ? EXIT.failed : exitCodeFor(result.subtype));
  } finally {
    try {
      await runtime.close();
    } catch (err) {
      if (!saveError) streams.err(`synapse: could not save the session: ${errorMessage(err)}\n`);
      code = exitOverride ?? EXIT.failed;
    }
    await streams.flush();
  }
  return code;
}

const FORCE_EXIT_MS = 5000;

function forceExit(runtime: SessionRuntime, code: number): never {
  runtime.killNow();
  process.exit(code);
}

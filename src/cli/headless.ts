// One request from the command line: read the prompt, open the session, run it, print it in the
// chosen format, and exit with the documented code — whatever signal or broken pipe comes along.

import { startupMark } from "../runtime/startup-trace.ts";
import { existsSync, statSync } from "node:fs";
import type { Config } from "../config/config.ts";
import { loadColors } from "../render/colors.ts";
import { openRuntime } from "../executor/session-runtime.ts";
import { looksLikeCommand, resolveCommand } from "../executor/dispatch.ts";
import { type ExecutorEvent, createExecutor } from "../executor/executor.ts";
import { formatCommandReport } from "./command-report.ts";
import { EXIT, SynapseError, UsageError, errorMessage } from "../protocol/errors.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { Command } from "./args.ts";
import { createTextWriter } from "./output/text-writer.ts";
import { apiKeySource } from "./output/api-key-source.ts";
import { createOutputStreams } from "./output/streams.ts";
import { outputFailureMessage } from "./output/write-failure.ts";
import { needsSavedSession } from "./session-commands.ts";
import type { OutputStreams, OutputWriter } from "./output/types.ts";
import { terminalFacts } from "./terminal.ts";
import { type ProcessLifecycle, codeForResult, startLifecycle } from "./process-lifecycle.ts";
import { type ReadStdinOptions, composePrompt, readStdin } from "./stdin.ts";
import { runtime as jsRuntime } from "../runtime/runtime.ts";
import { routeConsole } from "../runtime/console-route.ts";
import { redactSecrets } from "../policy/secret-redaction.ts";
import { sdkMode } from "../agent-sdk/permission-modes.ts";
import { firstSession } from "../agent-sdk/new-session.ts";
import type { SdkFlags } from "./sdk-flags.ts";

type RunCommand = Extract<Command, { kind: "run" }>;

/** --system-prompt replaces Synapse's own prompt, --append-system-prompt follows it. */
const systemPromptFlags = (sdk: SdkFlags | undefined) =>
  sdk?.systemPrompt || sdk?.appendSystemPrompt
    ? { replace: sdk.systemPrompt || undefined, append: sdk.appendSystemPrompt }
    : undefined;

async function makeWriter(config: Config, streams: OutputStreams, sdk?: SdkFlags): Promise<OutputWriter> {
  // Each writer's code loads only for its format.
  if (config.outputFormat === "json")
    return (await import("./output/json-writer.ts")).createJsonWriter(streams, { quiet: config.quiet });
  if (config.outputFormat === "stream-json")
    return (await import("./output/stream-json-writer.ts")).createStreamJsonWriter(streams, {
      partial: sdk?.includePartialMessages,
      permissionMode: () => sdkMode(config.permissionMode),
      apiKeySource: (provider) => apiKeySource(config, provider),
    });
  return createTextWriter(streams, {
    quiet: config.quiet,
    colors: await loadColors(config.color && streams.errIsTTY),
    labelLimit: config.toolResultSummaryLimit,
    // Only read on a terminal, and read live (an ioctl): the cached value lags a resize until the
    // SIGWINCH is handled, and a status-row redraw in between would move the cursor by the old width.
    columns: () => {
      (process.stderr as { _refreshSize?: () => void })._refreshSize?.();
      return process.stderr.columns || 80;
    },
    lines: () => process.stderr.rows || 24,
    structured: config.outputSchema !== undefined,
  });
}

export async function runHeadless(config: Config, command: RunCommand): Promise<number> {
  if (!existsSync(config.cwd)) throw new UsageError(`working directory does not exist: ${config.cwd}`);
  if (!statSync(config.cwd).isDirectory()) throw new UsageError(`working directory is not a directory: ${config.cwd}`);
  // Trapped before stdin is read: a Ctrl-C while the prompt is still arriving must not run it.
  const life = startLifecycle();
  startupMark("code-loaded");
  const { prompt, slash } = await readPrompt(config, command, life);
  startupMark("prompt-read");

  const controller = new AbortController();
  let exitOverride: number | undefined;
  // Once stdout is gone the run stops, and the writer says nothing more: what it would report (an
  // "interrupted" line for the stop this very failure caused) is not what happened.
  let outputLost = false;
  const streams = createOutputStreams(terminalFacts(), (err) => {
    outputLost = true;
    // A reader that went away (`| head`) ends the run quietly; any other write failure (a full
    // disk behind `> answer.md`) loses the answer, and must say so.
    if (err.code === "EPIPE") exitOverride ??= EXIT.ok;
    else {
      exitOverride ??= EXIT.failed;
      streams.err(`synapse: ${outputFailureMessage(err)}\n`);
    }
    controller.abort();
  });
  const writer = await makeWriter(config, streams, command.sdk);
  for (const note of command.sdk?.notes ?? []) streams.err(`${note}\n`);
  if (config.permissionMode === "bypass")
    streams.err("synapse: warning: bypass mode: every tool call runs without asking (only --deny rules still apply)\n");
  const commandLines: string[] = [];
  const emit = (event: ExecutorEvent) => {
    // A command's errors end the run with one line on stderr (below); its other lines are its answer.
    if (event.type === "command_output") {
      if (!event.is_error) commandLines.push(...event.lines);
    } else if (isAgentEvent(event) && !outputLost) writer.handle(event);
  };
  routeLibraryConsole(config, emit);

  let opened = false;
  const runtime = await createExecutor({
    config,
    resume: command.resume,
    open: (sink, resume) => {
      // --session-id / --fork-session name the first session only.
      const newSession = opened ? undefined : command.sdk && firstSession(command.sdk);
      opened = true;
      return openRuntime({ config, resume, emit: sink, systemPrompt: systemPromptFlags(command.sdk), newSession });
    },
    emit,
  });
  // Whatever ends the process, no shell or child it started may outlive it.
  life.own(runtime);
  life.onSignal(({ code, signal, count }) => {
    // Two signals often come together (GNU timeout signals the child, then its group; an impatient
    // Ctrl-C): the second must not cut the shutdown that writes the result, the interrupted tool
    // results and releases the lock. A third, or a run that does not wind down (a tool stuck in
    // the kernel), ends at once; killNow still releases the lock.
    if (count >= FORCE_EXIT_SIGNALS) life.forceExit(code);
    exitOverride ??= code;
    controller.abort();
    if (signal !== "SIGINT") setTimeout(() => life.forceExit(code), FORCE_EXIT_MS).unref();
  });
  if (life.signalCode() !== undefined) {
    exitOverride = life.signalCode();
    controller.abort();
  }
  // A bug must not leave shells behind either: report it in one line, save, and end like any failure.
  life.onCrash({
    // The stdout sink can report a vanished reader from a flush nobody awaits.
    benign: (err) => {
      if ((err as NodeJS.ErrnoException)?.code !== "EPIPE") return false;
      outputLost = true;
      exitOverride ??= EXIT.ok;
      controller.abort();
      return true;
    },
    report: (err) => streams.err(`synapse: internal error: ${errorMessage(err)}\n`),
  });

  let code: number = EXIT.failed;
  let saveError: string | undefined;
  try {
    const started = Date.now();
    const id = runtime.submit({ text: prompt, images: command.images });
    controller.signal.addEventListener("abort", () => runtime.interruptAll(), { once: true });
    if (controller.signal.aborted) runtime.interruptAll();
    const outcome = await runtime.waitFor(id);
    if (outcome.result) {
      saveError = outcome.result.error;
      code = exitOverride ?? (saveError ? EXIT.failed : codeForResult(outcome.result.subtype));
    } else if (outcome.status === "failed") {
      throw new SynapseError(outcome.error ?? "the command failed", outcome.errorCode ?? EXIT.failed);
    } else {
      if (slash)
        streams.out(
          formatCommandReport(config.outputFormat, {
            command: slash,
            lines: commandLines,
            sessionId: runtime.runtime.facts().saved ? runtime.runtime.sessionId : undefined,
            durationMs: Date.now() - started,
            outcome,
          }),
        );
      code = exitOverride ?? (outcome.status === "interrupted" ? EXIT.interrupted : EXIT.ok);
    }
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

/** The prompt (argument and stdin), and the slash command it names, checked before any session opens. */
/**
 * A library's own console writes (the SDK prints an unreadable event's raw bytes, then our error
 * line says what it meant) are warnings: inert, without the keys, once each, never on stdout, which
 * holds the answer; with -q they are the library's noise, and left out.
 */
function routeLibraryConsole(config: Config, emit: (event: ExecutorEvent) => void): void {
  routeConsole((text) => {
    if (!config.quiet) emit({ type: "warning", message: redactSecrets(text, config.secrets) });
  });
}

async function readPrompt(
  config: Config,
  command: RunCommand,
  life: ProcessLifecycle,
): Promise<{ prompt: string; slash: string | undefined }> {
  const stdinText = await Promise.race([
    readStdin(
      { isTTY: terminalFacts().inIsTTY, stream: () => jsRuntime.stdinStream() },
      stdinWaitOptions(config, command.prompt !== undefined),
    ),
    life.firstSignal.then((code) => {
      throw new SynapseError("interrupted before the prompt was read; nothing was run", code);
    }),
  ]);
  const prompt = composePrompt(command.prompt, stdinText);
  if (!prompt) {
    const blank = Boolean(command.prompt) || Boolean(stdinText);
    throw new UsageError(
      blank
        ? "empty prompt: the prompt argument and stdin hold only white space"
        : "no prompt: pass it as an argument or pipe it on stdin (synapse --help)",
    );
  }
  // An unknown command is a usage error that reaches no server.
  const resolved = looksLikeCommand(prompt) ? resolveCommand(prompt) : undefined;
  const unsaved = resolved && !command.resume ? needsSavedSession(resolved.command.name, resolved.args) : undefined;
  if (unsaved) throw new UsageError(unsaved);
  return { prompt, slash: resolved?.command.name };
}

const FORCE_EXIT_MS = 5000;
/** The signal that forces an exit without waiting for the shutdown. */
const FORCE_EXIT_SIGNALS = 3;

function stdinNotice(): void {
  process.stderr.write(
    "synapse: waiting for stdin to end (nothing has arrived yet; run with < /dev/null to go without it)\n",
  );
}

/**
 * With a prompt argument, a stdin pipe silent for SYNAPSE_STDIN_WAIT_MS is given up on with Claude
 * Code's warning (the run has its prompt; an idle pipe in CI must not hang it); without one, stdin
 * is the prompt, so it is waited for, with one notice.
 */
function stdinWaitOptions(config: Config, hasPromptArgument: boolean): ReadStdinOptions {
  if (!hasPromptArgument)
    return { noticeAfterMs: config.stdinWaitMs, onSilent: config.quiet ? undefined : stdinNotice };
  const seconds = `${Number((config.stdinWaitMs / 1000).toFixed(3))}s`;
  return {
    giveUpAfterMs: config.stdinWaitMs,
    onGiveUp: () =>
      process.stderr.write(
        `synapse: warning: no stdin data received in ${seconds}, proceeding without it. ` +
          "If piping from a slow command, redirect stdin explicitly: " +
          "< /dev/null to skip, or wait longer (SYNAPSE_STDIN_WAIT_MS).\n",
      ),
  };
}

/**
 * Every executor event type, and whether it is the agent's own (for the writers) or the executor's
 * (handled above or not printed). The type forces both: a new event type without its entry, or
 * with the wrong answer, does not compile.
 */
const FROM_AGENT: { [K in ExecutorEvent["type"]]: K extends AgentEvent["type"] ? true : false } = {
  init: true,
  text_delta: true,
  turn_retry: true,
  assistant: true,
  tool_start: true,
  tool_progress: true,
  tool_end: true,
  user: true,
  task_start: true,
  task_progress: true,
  task_end: true,
  warning: true,
  compact_start: true,
  compact_boundary: true,
  permission_denied: true,
  result: true,
  submission_start: false,
  command_output: false,
  model_changed: false,
  session_changed: false,
  compacted: false,
  submission_end: false,
};

const isAgentEvent = (event: ExecutorEvent): event is AgentEvent => FROM_AGENT[event.type];

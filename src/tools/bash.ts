// The Bash tool: runs a command in a persistent shell from the session's shell pool and tells the
// model what happened (output, exit code, signal, timeout, interruption, directory change).

import { stat } from "node:fs/promises";
import * as z from "zod/mini";
import description from "./bash.md" with { type: "text" };
import { resolveToolPath } from "./paths.ts";
import { about, defineTool, toolInput } from "./input-schema.ts";
import { ToolError, type ToolResult } from "./types.ts";
import { normalizePath } from "../shell/path-relation.ts";
import type { RunOutcome } from "../shell/types.ts";

// Built on the first call's check, not at load (defineTool).
const input = () =>
  toolInput({
    command: z.string().check(about("The bash command to run")),
    cwd: z.optional(
      z
        .string()
        .check(
          about(
            "Directory to run it in (absolute, or relative to the working directory); default: the working directory",
          ),
        ),
    ),
    timeout_ms: z.optional(z.int().check(about("Time limit in milliseconds (default 120000, at most 600000)"))),
  });

/** What the model reads: the output, then one line per fact about how the command ended. */
export function formatBashResult(outcome: RunOutcome, cwd: string, timeoutMs: number): ToolResult {
  const body = outcome.output.replace(/\n+$/, "");
  const facts: string[] = [];
  if (outcome.exitCode !== null) {
    facts.push(`Exit code: ${outcome.exitCode}${outcome.signal ? ` (${outcome.signal})` : ""}`);
  }
  if (outcome.timedOut) facts.push(`Timed out after ${timeoutMs} ms; the command and its children were killed.`);
  if (outcome.interrupted) facts.push("Interrupted; the command and its children were killed.");
  if (normalizePath(outcome.finalCwd) !== normalizePath(cwd)) facts.push(`cwd now: ${outcome.finalCwd}`);
  facts.push(...(outcome.notices ?? []));
  return {
    content: `${body === "" ? "(no output)" : body}\n\n${facts.join("\n")}`,
    isError: outcome.exitCode !== 0 || outcome.timedOut || outcome.interrupted,
    display: { kind: "command", exit_code: outcome.exitCode, lines: outcome.lines ?? countLines(body) },
    hookResponse: { stdout: outcome.output, interrupted: outcome.interrupted || outcome.timedOut, isImage: false },
  };
}

function countLines(text: string): number {
  return text === "" ? 0 : text.split("\n").length;
}

export const bashTool = defineTool({
  name: "Bash",
  description,
  input,
  readOnly: false,
  async execute(input, ctx) {
    const shell = ctx.services.shell;
    if (!shell) throw new ToolError("Bash is not available here");
    if (input.command.trim() === "") throw new ToolError("command is empty");
    const limits = ctx.limits.shell;
    const requested = input.timeout_ms ?? limits.commandTimeoutMs;
    if (requested < 1) throw new ToolError(`"timeout_ms" must be at least 1 (got ${requested})`);
    const timeoutMs = Math.min(requested, limits.maxCommandTimeoutMs);

    const cwd = input.cwd ? resolveToolPath(ctx.cwd, input.cwd) : ctx.cwd;
    const info = await stat(cwd).catch(() => null);
    if (!info) throw new ToolError(`Cannot run in ${cwd}: no such directory`);
    if (!info.isDirectory()) throw new ToolError(`Cannot run in ${cwd}: not a directory`);

    const outcome = await shell.run({
      command: input.command,
      cwd,
      taskId: ctx.taskId,
      timeoutMs,
      signal: ctx.signal,
      onOutput: (text) => ctx.progress(text),
    });
    return formatBashResult(outcome, cwd, timeoutMs);
  },
});

// The Bash tool as the model sees it: what it runs where, and the text and error flag it returns.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/config.ts";
import { createShellPool } from "../../src/shell/shell-pool.ts";
import type { ShellPool } from "../../src/shell/types.ts";
import { summarize } from "../../src/agent/tool-call.ts";
import { bashTool, formatBashResult } from "../../src/tools/bash.ts";
import { type ToolContext, toolLimits } from "../../src/tools/types.ts";
import { callError, makeContext, tempDir, text, toolError } from "./tool-context.ts";

const tmp = tempDir();
const root = realpathSync(tmp.dir);
const config = resolveConfig({
  flags: {},
  env: { SYNAPSE_KILL_GRACE_MS: "100", SYNAPSE_COMMAND_MAX_TIMEOUT_MS: "5000" },
  processCwd: root,
  homeDir: root,
});
let pool: ShellPool;

beforeAll(() => {
  mkdirSync(join(root, "sub"));
  pool = createShellPool(config.shell);
});
afterAll(async () => {
  await pool.close();
  tmp.cleanup();
});

function context(opts: { signal?: AbortSignal; progress?: (t: string) => void } = {}): ToolContext {
  return {
    ...makeContext(root, { signal: opts.signal, services: { shell: pool } }),
    limits: toolLimits(config),
    progress: opts.progress ?? (() => {}),
  };
}

describe("Bash tool", () => {
  test("the view gets the exit code and the whole output's line count, not the cut copy's", async () => {
    const r = await bashTool.execute({ command: "seq 1 5000; exit 4" }, context());
    expect(text(r)).toContain("lines omitted");
    expect(r.display).toEqual({ kind: "command", exit_code: 4, lines: 5000 });
    expect(summarize(r.content, r.display)).toBe("1 … (5000 lines)");
    const short = await bashTool.execute({ command: "printf 'a\\nb'" }, context());
    expect(short.display).toEqual({ kind: "command", exit_code: 0, lines: 2 });
    // The footer is not a line of output.
    expect(summarize(short.content, short.display)).toBe("a … (2 lines)");
  });

  test("output, then the exit code", async () => {
    const r = await bashTool.execute({ command: "echo hello" }, context());
    expect(text(r)).toBe("hello\n\nExit code: 0");
    expect(r.isError).toBe(false);
  });

  test("no output", async () => {
    expect(text(await bashTool.execute({ command: "true" }, context()))).toBe("(no output)\n\nExit code: 0");
  });

  test("a non-zero exit is an error result", async () => {
    const r = await bashTool.execute({ command: "echo oops >&2; exit 3" }, context());
    expect(text(r)).toBe("oops\n\nExit code: 3");
    expect(r.isError).toBe(true);
  });

  test("death by signal names the signal", async () => {
    const r = await bashTool.execute({ command: "kill -9 $$" }, context());
    expect(text(r)).toBe("(no output)\n\nExit code: 137 (SIGKILL)");
    expect(r.isError).toBe(true);
  });

  test("a relative cwd resolves against the working directory", async () => {
    const r = await bashTool.execute({ command: "pwd", cwd: "sub" }, context());
    expect(text(r)).toBe(`${join(root, "sub")}\n\nExit code: 0`);
  });

  test("ending in another directory is reported", async () => {
    const r = await bashTool.execute({ command: "cd sub" }, context());
    expect(text(r)).toBe(`(no output)\n\nExit code: 0\ncwd now: ${join(root, "sub")}`);
    // The next command starts in the working directory again.
    expect(text(await bashTool.execute({ command: "pwd" }, context()))).toBe(`${root}\n\nExit code: 0`);
  });

  test("a missing cwd is an error, and nothing runs", async () => {
    expect(await toolError(bashTool.execute({ command: "touch made", cwd: "nope" }, context()))).toBe(
      `Cannot run in ${join(root, "nope")}: no such directory`,
    );
  });

  test("timeout_ms", async () => {
    const r = await bashTool.execute({ command: "echo begun; sleep 100", timeout_ms: 200 }, context());
    expect(text(r)).toBe("begun\n\nTimed out after 200 ms; the command and its children were killed.");
    expect(r.isError).toBe(true);
  });

  test("timeout_ms is capped at the configured maximum", async () => {
    const strict = resolveConfig({
      flags: {},
      env: { SYNAPSE_COMMAND_MAX_TIMEOUT_MS: "150" },
      processCwd: root,
      homeDir: root,
    });
    const r = await bashTool.execute(
      { command: "sleep 100", timeout_ms: 10_000_000 },
      { ...context(), limits: toolLimits(strict) },
    );
    expect(text(r)).toBe("(no output)\n\nTimed out after 150 ms; the command and its children were killed.");
  });

  test("the result text, from an outcome", () => {
    const outcome = {
      output: "a\n\n",
      exitCode: 130,
      signal: "SIGINT",
      timedOut: false,
      interrupted: false,
      finalCwd: `${root}/`,
      durationMs: 1,
    };
    expect(formatBashResult(outcome, root, 1000)).toEqual({
      content: "a\n\nExit code: 130 (SIGINT)",
      isError: true,
      display: { kind: "command", exit_code: 130, lines: 1 },
      hookResponse: { stdout: "a\n\n", interrupted: false, isImage: false },
    });
  });

  test("interrupted through the abort signal", async () => {
    const ac = new AbortController();
    const r = await bashTool.execute(
      { command: "echo waiting; sleep 100" },
      context({ signal: ac.signal, progress: (t) => t.includes("waiting") && ac.abort() }),
    );
    expect(text(r)).toBe("waiting\n\nInterrupted; the command and its children were killed.");
    expect(r.isError).toBe(true);
  });

  test("live output goes to progress", async () => {
    const seen: string[] = [];
    await bashTool.execute({ command: "echo one; echo two" }, context({ progress: (t) => seen.push(t) }));
    expect(seen.join("")).toBe("one\ntwo\n");
  });

  test("bad input is a ToolError", async () => {
    expect(await callError(bashTool, {}, context())).toContain('"command" is required');
    expect(await toolError(bashTool.execute({ command: "  " }, context()))).toBe("command is empty");
    expect(await toolError(bashTool.execute({ command: "true", timeout_ms: 0 }, context()))).toContain("timeout_ms");
  });

  test("without a shell pool the tool says so", async () => {
    expect(await toolError(bashTool.execute({ command: "true" }, makeContext(root)))).toBe(
      "Bash is not available here",
    );
  });
});

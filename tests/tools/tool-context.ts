// Shared by the file-tool tests: a temp directory per test and a real ToolContext pointing at it.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { resolveConfig } from "../../src/config/config.ts";
import type { ImageRef } from "../../src/protocol/message.ts";
import { executeToolCall } from "../../src/agent/tool-call.ts";
import { type Tool, ToolError, type ToolContext, type ToolServices, toolLimits } from "../../src/tools/types.ts";

export function tempDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "synapse-tools-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a tree of files: keys are paths relative to `root`, values are contents. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

export function makeContext(cwd: string, opts: { signal?: AbortSignal; services?: ToolServices } = {}): ToolContext {
  return {
    cwd,
    signal: opts.signal ?? new AbortController().signal,
    taskId: "main",
    limits: toolLimits(resolveConfig({ flags: {}, env: {}, processCwd: cwd, homeDir: cwd })),
    progress: () => {},
    services: opts.services ?? {},
  };
}

/** A saveImage that records what it was given, standing in for the store. */
export function recordingImages(): { services: ToolServices; saved: Array<{ bytes: Uint8Array; mediaType: string }> } {
  const saved: Array<{ bytes: Uint8Array; mediaType: string }> = [];
  return {
    saved,
    services: {
      async saveImage(bytes, mediaType): Promise<ImageRef> {
        saved.push({ bytes, mediaType });
        return { sha256: "f".repeat(64), mediaType, bytes: bytes.length };
      },
    },
  };
}

/** The message of the ToolError a promise rejects with; fails the test on any other outcome. */
export async function toolError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ToolError) return err.message;
    throw err;
  }
  throw new Error("expected a ToolError, but the call succeeded");
}

export function text(result: { content: unknown }): string {
  if (typeof result.content !== "string") throw new Error("expected text content");
  return result.content;
}

/** The is_error text a call gets back through the runner's path (schema checks included). */
export async function callError(tool: Tool, input: unknown, ctx: ToolContext): Promise<string> {
  const outcome = await executeToolCall(
    { type: "tool_use", id: "t1", name: tool.name, input },
    new Map([[tool.name, tool]]),
    ctx,
  );
  if (!outcome.block.is_error)
    throw new Error(`expected an error result, got: ${JSON.stringify(outcome.block.content)}`);
  return String(outcome.block.content);
}

// The one shape every tool has. Adding a tool is adding a file that exports one of these.

import type { ShellConfig } from "../config/config.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../policy/approval.ts";
import type { ImageBlock, TextBlock } from "../protocol/message.ts";
import type { JsonSchema } from "../protocol/json-schema.ts";
import type { ToolDisplay } from "../protocol/tool-display.ts";
import type { ToolResponseFacts } from "../protocol/hook-events.ts";
import type * as z from "zod/mini";

export type { JsonSchema };

// The types the tools' own modules share are defined here, and those modules import them from
// here (never the other way round), so no circle runs through this file.

/** The schema of a tool's parameters: an object that refuses keys it does not name (input-schema.ts). */
export type ToolInputSchema = z.ZodMiniObject<z.core.$ZodLooseShape, z.core.$strict>;

/** What `execute` receives: the input as the schema parsed it. */
export type ToolInputOf<S extends ToolInputSchema> = z.infer<S>;

/** The engine behind Grep and Glob (search-engine.ts picks it). */
export type SearchEngine = { kind: "ripgrep"; path: string; version: string } | { kind: "javascript"; reason: string };

/** The editor's side of a file (absolute paths); each only when the editor offers it (editor-files.ts). */
export interface EditorFiles {
  read?(path: string): Promise<string>;
  write?(path: string, text: string): Promise<void>;
}

export interface ToolContext {
  /** The session's working directory; relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  /** The task (main session or sub-agent) this call belongs to. */
  taskId: string;
  /** Only the limits tools need: never the whole Config, which carries the provider keys. */
  limits: ToolLimits;
  /** Live progress (e.g. output lines of a running command). */
  progress(text: string): void;
  /** A notice for the user, not the model (e.g. search fell back to the slower engine). */
  warn?(message: string): void;
  /** Services a tool may need; absent in contexts that do not provide them. */
  services: ToolServices;
  /**
   * The permission policy allowed this call by itself (nobody was asked): a file tool must then
   * read only a file the policy allows by itself too, judged by what it really opened.
   */
  allowedByPolicy?: boolean;
}

export interface ToolLimits {
  shell: ShellConfig;
  /** Image bytes one request may carry (SYNAPSE_CONTEXT_MAX_IMAGE_BYTES). */
  maxImageBytes: number;
  /** Where ripgrep is unpacked from the binary (Config.cacheDir). */
  cacheDir: string;
}

/** The tool limits of a configuration. */
export function toolLimits(config: {
  shell: ShellConfig;
  store: { contextMaxImageBytes: number };
  cacheDir: string;
}): ToolLimits {
  return { shell: config.shell, maxImageBytes: config.store.contextMaxImageBytes, cacheDir: config.cacheDir };
}

/** Long-lived services owned by the runner and shared by tool calls. */
export interface ToolServices {
  shell?: import("../shell/types.ts").ShellPool;
  /** Stores image bytes on disk and returns the reference a message holds. */
  saveImage?(bytes: Uint8Array, mediaType: string): Promise<import("../protocol/message.ts").ImageRef>;
  /** What tool calls may do (policy/policy.ts); absent: no checks (unit tests of tools). */
  permissions?: import("../policy/policy.ts").PermissionPolicy;
  /** Rules the user allowed for the rest of this session from an approval prompt. */
  granted?: string[];
  /** Asks the user about a call the policy does not allow by itself; absent (headless): denied. */
  approve?(request: ApprovalRequest): Promise<ApprovalAnswer>;
  /** The user's editor's view of files (`synapse acp`): Read, Write and Edit go through it (editor-files.ts). */
  editorFiles?: EditorFiles;
  /**
   * `/rewind`'s checkpoints (the main agent's Write and Edit): a file's content is saved before
   * the first write of it in a prompt, and the state a write left is noted after it.
   */
  checkpoints?: {
    beforeWrite(path: string): Promise<void>;
    afterWrite(path: string, text: string): Promise<void>;
  };
  /** The engine Grep and Glob use; absent means the process's own (search-engine.ts). */
  searchEngine?(): Promise<SearchEngine>;
}

/** What the permission gate asks and hears (policy/approval.ts), named here for the tools' callers. */
export type { ApprovalAnswer, ApprovalRequest } from "../policy/approval.ts";

export interface ToolResult {
  content: string | Array<TextBlock | ImageBlock>;
  isError?: boolean;
  /** For the view only (never sent to the model): a command's exit code and line count, a diff. */
  display?: ToolDisplay;
  /** For PostToolUse hooks only: Claude Code's `tool_response` fields, unscreened (agent/tool-call.ts screens them). */
  hookResponse?: ToolResponseFacts;
}

/** Made by `defineTool` (input-schema.ts): the input type and the JSON Schema both come from `input`. */
export interface Tool<S extends ToolInputSchema = ToolInputSchema> {
  name: string;
  /** What the model reads about the tool (kept in a .md file beside the tool). */
  description: string;
  /** The parameters' schema: a call is checked against it before `execute` (agent/tool-call.ts). */
  input: S;
  /** The JSON Schema the API gets, generated from `input`. */
  inputSchema: JsonSchema;
  /** Read-only tools are the ones sub-agents of kind `explore` may use. */
  readOnly: boolean;
  execute(input: ToolInputOf<S>, ctx: ToolContext): Promise<ToolResult>;
  /** A built-in tool's code loads on its first call (lazy-tool.ts): its `input` is there after this. */
  load?(): Promise<Tool>;
}

/** The tool with its code loaded: what the call path checks input against and runs. */
export async function loadedTool(tool: Tool): Promise<Tool> {
  return tool.load ? await tool.load() : tool;
}

/** Thrown by a tool for an expected failure; becomes an is_error tool result. */
export class ToolError extends Error {}

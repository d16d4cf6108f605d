// Hooks in Claude Code's settings format: the `hooks` key of a config file (checked here, so the
// config loader can check it without importing src/hooks), and the events a hook hears. The names
// and fields are Claude Code's, so hook scripts written for it run unchanged.

import * as z from "zod/mini";
import { issuePhrases } from "./schema-issues.ts";

/** The events Synapse fires, in Claude Code's spelling. */
export const HOOK_EVENT_NAMES = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SessionStart",
  "PreCompact",
] as const;
export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/** A hook command's time limit when its entry names none (Claude Code's: 60 s). */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

// Built only when a config file has a `hooks` key (buildSchema): a run without hooks builds none.
const hookCommand = () =>
  z.strictObject({
    type: z.literal("command"),
    command: z.string().check(z.minLength(1)),
    /** Seconds. */
    timeout: z.optional(z.number().check(z.positive(), z.maximum(3600))),
  });
/** A matcher is `*`, a name, an `A|B` list or a regular expression: one that is none of them never matches. */
function compiles(pattern: string): boolean {
  if (pattern === "*") return true;
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
const matcherGroup = () =>
  z.strictObject({
    /** A tool-name pattern (PreToolUse, PostToolUse), a source (SessionStart), a trigger (PreCompact). */
    matcher: z.optional(
      z.string().check(
        z.refine(compiles, {
          error: (issue) =>
            `${JSON.stringify(issue.input)} is not a valid regular expression, so it would match nothing`,
        }),
      ),
    ),
    hooks: z.array(hookCommand()),
  });

let schema: ReturnType<typeof buildSchema> | undefined;
function buildSchema() {
  return z.partialRecord(z.enum(HOOK_EVENT_NAMES), z.array(matcherGroup()));
}

export type HookCommandEntry = z.infer<ReturnType<typeof hookCommand>>;
export type HookMatcherGroup = z.infer<ReturnType<typeof matcherGroup>>;
export type HookSettings = Partial<Record<HookEventName, HookMatcherGroup[]>>;

/** The `hooks` value of a config file, or the sentence that says what is wrong with it. */
export function checkHookSettings(value: unknown): { ok: true; settings: HookSettings } | { ok: false; error: string } {
  schema ??= buildSchema();
  const s = schema;
  const parsed = z.safeParse(s, value);
  if (parsed.success) return { ok: true, settings: parsed.data as HookSettings };
  const phrases = issuePhrases(parsed.error.issues, value, {
    schema: s,
    unknownKey: (name) => `${name} is not a known key`,
  });
  const events = HOOK_EVENT_NAMES.join(", ");
  const badEvent = parsed.error.issues.some((i) => i.code === "invalid_key" || i.path.length === 0);
  return { ok: false, error: `${phrases[0] ?? "invalid hooks"}${badEvent ? ` (events: ${events})` : ""}` };
}

/** The configured hooks a session may run: the user's and, apart, the project's. */
export interface HooksConfig {
  user: HookSettings;
  project: HookSettings;
  /** The project config file the project's hooks come from (named in questions and warnings). */
  projectOrigin: string;
  /** `--allow-project-hooks`: the project's hooks run unasked this run (only inside the sandbox). */
  allowProject: boolean;
}

/** One hunk of a change, as Claude Code's `structuredPatch` (`lines`: " ", "-" or "+" and the line). */
export interface StructuredPatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

// A PostToolUse `tool_response` carries Claude Code's per-tool fields (its Agent SDK's
// sdk-tools.d.ts: BashOutput, FileWriteOutput...), each from what the tool really did; a field
// Synapse cannot know is left out. Next to them, always, Synapse's own `content` and `is_error`.

/** Bash: the output (stdout and stderr come interleaved from one terminal, so `stderr` is left out). */
export interface BashResponse {
  stdout: string;
  /** The command was killed (its time limit) before it ended. */
  interrupted: boolean;
  isImage: false;
}
export interface WriteResponse {
  type: "create" | "update";
  filePath: string;
  content: string;
  structuredPatch: StructuredPatchHunk[];
  /** null for a new file, or one too large (over 1 MiB) or not text to read back. */
  originalFile: string | null;
  userModified?: boolean;
}
export interface EditResponse {
  filePath: string;
  oldString: string;
  newString: string;
  originalFile: string | null;
  structuredPatch: StructuredPatchHunk[];
  replaceAll: boolean;
  userModified?: boolean;
}
/** Read: a text window (`content` without line numbers), or an image's facts (its bytes left out). */
export type ReadResponse =
  | {
      type: "text";
      file: { filePath: string; content: string; numLines: number; startLine: number; totalLines: number };
    }
  | { type: "image"; file: { filePath: string; type: string; originalSize: number } };
export interface GlobResponse {
  filenames: string[];
  numFiles: number;
  truncated: boolean;
  totalMatches: number;
  countIsComplete: boolean;
  durationMs: number;
}
export interface GrepResponse {
  mode: "content" | "files_with_matches" | "count";
  numFiles: number;
  filenames: string[];
  content?: string;
  numLines?: number;
  numMatches?: number;
  /** The cap (head_limit or the default) when it cut the results. */
  appliedLimit?: number;
}
/** What a tool knows for PostToolUse hooks; an MCP tool's is its `structuredContent`. */
export type ToolResponseFacts =
  | BashResponse
  | WriteResponse
  | EditResponse
  | ReadResponse
  | GlobResponse
  | GrepResponse
  | Record<string, unknown>;

/** Fields every event carries. */
interface EventBase {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
}

/** What a hook command reads on stdin (one JSON object), Claude Code's fields. */
export type HookEventInput = EventBase &
  (
    | { hook_event_name: "PreToolUse"; tool_name: string; tool_input: unknown; tool_use_id: string }
    | {
        hook_event_name: "PostToolUse";
        tool_name: string;
        tool_input: unknown;
        tool_response: unknown;
        tool_use_id: string;
      }
    | { hook_event_name: "UserPromptSubmit"; prompt: string }
    | { hook_event_name: "Stop"; stop_hook_active: boolean }
    | { hook_event_name: "SessionStart"; source: "startup" | "resume" | "clear" | "compact" }
    | { hook_event_name: "PreCompact"; trigger: "manual" | "auto"; custom_instructions: string }
  );

/** The event without the fields the session adds. */
export type HookEvent = HookEventInput extends infer E
  ? E extends EventBase
    ? Omit<E, keyof EventBase>
    : never
  : never;

/** What a tool-name, source or trigger matcher is matched against, per event. */
export function matchTarget(event: HookEvent): string | undefined {
  switch (event.hook_event_name) {
    case "PreToolUse":
    case "PostToolUse":
      return event.tool_name;
    case "SessionStart":
      return event.source;
    case "PreCompact":
      return event.trigger;
    default:
      return undefined;
  }
}

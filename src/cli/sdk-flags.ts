// The flags the Claude Agent SDK's query() puts on the command line (read from its ProcessTransport),
// in three kinds: honoured (mapped onto Synapse's own flags and rules), ignored with one stderr note
// (only where ignoring cannot widen what the run may do), and refused (exit 2, one line) where
// ignoring could widen it or would quietly do something else than asked. README "Claude Agent SDK".

import { RULE_TOOLS } from "../policy/rule.ts";
import { UsageError } from "../protocol/errors.ts";
import { synapseMode } from "../agent-sdk/permission-modes.ts";
import type { SdkSessionFlags } from "../agent-sdk/types.ts";

export const SDK_OPTIONS = {
  "input-format": { type: "string" },
  verbose: { type: "boolean" },
  "include-partial-messages": { type: "boolean" },
  "permission-prompt-tool": { type: "string" },
  "allow-dangerously-skip-permissions": { type: "boolean" },
  allowedTools: { type: "string", multiple: true },
  disallowedTools: { type: "string", multiple: true },
  tools: { type: "string" },
  "system-prompt": { type: "string" },
  "append-system-prompt": { type: "string" },
  "fallback-model": { type: "string" },
  "setting-sources": { type: "string" },
  "await-initialize": { type: "boolean" },
  "session-id": { type: "string" },
  "fork-session": { type: "boolean" },
  // Ignored with a note.
  thinking: { type: "string" },
  "max-thinking-tokens": { type: "string" },
  "thinking-display": { type: "string" },
  effort: { type: "string" },
  betas: { type: "string" },
  "task-budget": { type: "string" },
  debug: { type: "boolean" },
  "debug-file": { type: "string" },
  "include-hook-events": { type: "boolean" },
  "session-mirror": { type: "boolean" },
  channels: { type: "string", multiple: true },
  "plugin-dir": { type: "string", multiple: true },
  "plugin-dir-no-mcp": { type: "string", multiple: true },
  // Refused.
  agent: { type: "string" },
  "permission-prompts": { type: "string" },
  "resume-session-at": { type: "string" },
  "resume-drops-turn": { type: "string" },
  "no-session-persistence": { type: "boolean" },
  "project-config-root": { type: "string" },
  "initialize-fields": { type: "string" },
  "managed-settings": { type: "string" },
  "managed-settings-in-initialize": { type: "boolean" },
  settings: { type: "string" },
} as const;

type SdkValues = {
  [K in keyof typeof SDK_OPTIONS]?: (typeof SDK_OPTIONS)[K] extends { multiple: true }
    ? string[]
    : (typeof SDK_OPTIONS)[K] extends { type: "boolean" }
      ? boolean
      : string;
};

/** Why each refused flag is refused: the line a run that names it exits 2 with. */
export const REFUSED: Record<string, string> = {
  agent: "synapse has no agent definitions; running without the one named would drop its tool limits",
  "permission-prompts": "synapse cannot honour it, and it is a permission flag",
  "resume-session-at": "synapse resumes a session at its end only",
  "resume-drops-turn": "synapse resumes a session at its end only",
  "no-session-persistence": "synapse always saves its sessions",
  "project-config-root": "synapse reads project configuration from the working directory only",
  "initialize-fields": "synapse does not read settings from the initialize request",
  "managed-settings": "synapse has no managed settings; ignoring them would drop their restrictions",
  "managed-settings-in-initialize": "synapse has no managed settings; ignoring them would drop their restrictions",
  settings: "synapse does not read Claude Code settings; ignoring them could drop deny rules or sandbox limits",
};

export const IGNORED: readonly string[] = [
  "thinking",
  "max-thinking-tokens",
  "thinking-display",
  "effort",
  "betas",
  "task-budget",
  "debug",
  "debug-file",
  "include-hook-events",
  "session-mirror",
  "channels",
  "plugin-dir",
  "plugin-dir-no-mcp",
  "fallback-model",
  "setting-sources",
];

/** What a run driven by the SDK takes from these flags. */
export interface SdkFlags extends SdkSessionFlags {
  inputFormat: "text" | "stream-json";
  /** One stderr line for each flag accepted but not acted on. */
  notes: string[];
}

/** The SDK flags' share of the run's configuration: the permission mode and the extra rules. */
export interface SdkConfigFlags {
  permissionMode?: string;
  allow: string[];
  deny: string[];
  /** `--tools`: the built-in tools offered to the model (the others are denied as well). */
  tools?: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--session-id` and `--fork-session`, checked as Claude Code checks them. */
export function newSessionFlags(v: SdkValues & { resume?: string; continue?: boolean }): {
  sessionId?: string;
  forkSession: boolean;
} {
  const id = v["session-id"];
  const resuming = v.resume !== undefined || v.continue === true;
  const fork = v["fork-session"] ?? false;
  if (id !== undefined && !UUID.test(id)) throw new UsageError(`--session-id must be a UUID (got "${id}")`);
  if (fork && !resuming) throw new UsageError("--fork-session needs --resume or --continue");
  // Resuming in place keeps the old session's id: a new one names only a fork.
  if (id !== undefined && resuming && !fork)
    throw new UsageError("--session-id with --resume or --continue needs --fork-session");
  return { ...(id !== undefined ? { sessionId: id.toLowerCase() } : {}), forkSession: fork };
}

export function sdkFlags(v: SdkValues & { "permission-mode"?: string; resume?: string; continue?: boolean }): {
  sdk: SdkFlags;
  config: SdkConfigFlags;
} {
  for (const [name, why] of Object.entries(REFUSED))
    if (v[name as keyof SdkValues] !== undefined) throw new UsageError(`--${name} is refused: ${why}`);
  const inputFormat = v["input-format"] ?? "text";
  if (inputFormat !== "text" && inputFormat !== "stream-json")
    throw new UsageError(`--input-format must be text or stream-json (got "${inputFormat}")`);
  const tool = v["permission-prompt-tool"];
  if (tool !== undefined && tool !== "stdio")
    throw new UsageError(
      `--permission-prompt-tool: only "stdio" is supported (got "${tool}"), and it is a permission flag`,
    );
  const notes = IGNORED.filter((name) => v[name as keyof SdkValues] !== undefined).map(
    (name) => `synapse: note: --${name} is ignored (${ignoredWhy(name)})`,
  );
  const allowed = ruleList(v.allowedTools);
  const denied = ruleList(v.disallowedTools);
  const unknownAllow = allowed.filter((r) => !knownRuleTool(r));
  if (unknownAllow.length) notes.push(`synapse: note: --allowedTools: no such tool here: ${unknownAllow.join(", ")}`);
  const mode = v["permission-mode"];
  const mapped = mode === undefined ? undefined : synapseMode(mode);
  if (mode !== undefined && mapped === undefined)
    throw new UsageError(
      "--permission-mode must be one of default, accept-edits, bypass, plan " +
        `(or Claude Code's acceptEdits, bypassPermissions, dontAsk, auto) (got "${mode}")`,
    );
  if (mode === "auto") notes.push("synapse: note: --permission-mode auto runs as default (no classifier here)");
  return {
    sdk: {
      inputFormat,
      includePartialMessages: v["include-partial-messages"] ?? false,
      promptTool: tool === "stdio",
      allowBypass: v["allow-dangerously-skip-permissions"] ?? false,
      dontAsk: mode === "dontAsk",
      systemPrompt: v["system-prompt"],
      appendSystemPrompt: v["append-system-prompt"],
      ...newSessionFlags(v),
      notes,
    },
    config: {
      permissionMode: mapped,
      allow: allowed.filter(knownRuleTool),
      // A tool Synapse does not have is denied already; every other deny is kept.
      deny: [...denied.filter(knownRuleTool), ...toolsDenied(v.tools)],
      ...offeredTools(v.tools),
    },
  };
}

function ignoredWhy(name: string): string {
  if (name === "fallback-model") return "synapse retries the same model";
  if (name === "setting-sources") return "synapse reads its own user and project config";
  if (name.startsWith("plugin-dir")) return "synapse has no plugins";
  if (name === "channels") return "synapse has no MCP channels";
  return "no effect on what the run may do";
}

/** `--allowedTools "Read,Bash(git log:*)"`: commas split rules, not those inside a rule's parentheses. */
export function ruleList(values: readonly string[] | undefined): string[] {
  const rules: string[] = [];
  for (const value of values ?? []) {
    let depth = 0;
    let current = "";
    for (const ch of value) {
      if (ch === "(") depth++;
      if (ch === ")") depth = Math.max(0, depth - 1);
      if ((ch === "," || ch === " ") && depth === 0) {
        if (current.trim()) rules.push(current.trim());
        current = "";
      } else current += ch;
    }
    if (current.trim()) rules.push(current.trim());
  }
  return rules;
}

function knownRuleTool(rule: string): boolean {
  const name = /^[A-Za-z0-9_]+/.exec(rule)?.[0] ?? "";
  return (RULE_TOOLS as readonly string[]).includes(name) || name.startsWith("mcp__");
}

/**
 * `--tools A,B`: only those built-in tools, as in Claude Code, where the others leave the model's
 * context (`--tools ""`: none); each other one is also denied. `default` (or absent): all.
 */
function toolsKept(tools: string | undefined): string[] | undefined {
  if (tools === undefined || tools === "default") return undefined;
  const named = new Set(ruleList([tools]));
  return RULE_TOOLS.filter((t) => named.has(t));
}

/**
 * The tools offered to the model: `--tools`' set. A tool `--disallowedTools` names whole leaves the
 * offer as any deny rule's does (tools/offered-tools.ts).
 */
function offeredTools(tools: string | undefined): { tools?: string[] } {
  const kept = toolsKept(tools);
  return kept ? { tools: kept } : {};
}

function toolsDenied(tools: string | undefined): string[] {
  const kept = toolsKept(tools);
  return kept ? RULE_TOOLS.filter((t) => !kept.includes(t)) : [];
}

// The policy value and what it answers, apart from `decide` (policy.ts): the modules decide uses
// (bash-decision, mcp-rules, policy-cache, rule-match) name these types without importing it.

import type { PermissionMode } from "../config/config.ts";

export interface PermissionPolicy {
  mode: PermissionMode;
  /** Rule sources, already checked. */
  allow: string[];
  deny: string[];
  /**
   * Allow rules from the project's own config: a cloned repository wrote them, so they only name
   * commands accept-edits may run; they never pass the dangerous list, the boundary or a secret.
   */
  projectAllow?: string[];
  /** The working directory first, then the `--add-dir` folders (absolute). */
  workspace: string[];
  home: string;
  /** Set for `task:explore` sub-agents: read-only whatever the mode. */
  readOnly?: boolean;
  /** Values never shown to the model or written anywhere (provider keys, named secrets). */
  secrets: string[];
  /**
   * Commands really run in an OS sandbox (bubblewrap, read-only or workspace-write): `default`
   * then lets them run unasked but for deny rules and the dangerous list. False: fail closed.
   */
  sandboxed: boolean;
  /** Synapse's own folders (user config, SYNAPSE_HOME with history and sessions): protected like secrets. */
  ownDirs: string[];
  /** The commands' PATH folders: a program name that finds a file inside the workspace is not proven. */
  searchPath: string[];
}

export type Decision =
  | { kind: "allow" }
  | { kind: "deny"; reason: string }
  /** `rule` is the allow rule that would let this call through. */
  | { kind: "ask"; reason: string; rule: string; dangerous?: boolean };

export interface ToolCallRequest {
  tool: string;
  input: unknown;
  /** The session's working directory. */
  cwd: string;
}

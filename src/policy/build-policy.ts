// The permission policy as a session opens it: a plain value built once from Config (it can cross
// into a worker thread), every rule checked on the way. Only the rule parser is needed for that;
// the decisions (policy.ts) load with the first tool call.

import { homedir } from "node:os";
import { resolve } from "node:path";
import type { PermissionMode, RuleOrigin } from "../config/config.ts";
import { ownDirs } from "../config/own-dirs.ts";
import { UsageError } from "../protocol/errors.ts";
import { mcpRuleProblem } from "./mcp-rules.ts";
import type { PermissionPolicy } from "./policy-types.ts";
import { parseRule, RuleError } from "./rule.ts";

export interface PolicySource {
  cwd: string;
  permissionMode: PermissionMode;
  permissions: {
    allow: readonly string[];
    deny: readonly string[];
    projectAllow?: readonly string[];
    /** The config files' rules and where each is: a bad one's error names its file, as any bad setting's does. */
    origins?: readonly RuleOrigin[];
  };
  addDirs: readonly string[];
  secrets: readonly string[];
  /** Where sessions and history live (SYNAPSE_HOME) and the user config folder, when known. */
  home?: string;
  configDir?: string;
  cacheDir?: string;
  /** The environment commands get, for its PATH. */
  shell?: { env: Readonly<Record<string, string>> };
}

/** What the policy builder needs beyond Config: whether commands really run in the OS sandbox. */
export interface PolicyOptions {
  home?: string;
  sandboxed?: boolean;
}

/** Checks every rule (an invalid one is a configuration error naming it) and builds the policy. */
export function buildPolicy(config: PolicySource, options: string | PolicyOptions = {}): PermissionPolicy {
  const { home = homedir(), sandboxed = false } = typeof options === "string" ? { home: options } : options;
  for (const source of [
    ...config.permissions.allow,
    ...config.permissions.deny,
    ...(config.permissions.projectAllow ?? []),
  ]) {
    const problem = ruleProblem(source);
    if (problem === undefined) continue;
    const origin = config.permissions.origins?.find((o) => o.rule === source);
    throw new UsageError(origin ? `invalid config file ${origin.file}: ${origin.key}: ${problem}` : problem);
  }
  return {
    mode: config.permissionMode,
    allow: [...config.permissions.allow],
    deny: [...config.permissions.deny],
    projectAllow: [...(config.permissions.projectAllow ?? [])],
    workspace: [config.cwd, ...config.addDirs.map((d) => resolve(config.cwd, d))],
    home,
    secrets: [...config.secrets],
    sandboxed,
    ownDirs: ownDirs(config, home),
    searchPath: (config.shell?.env.PATH ?? "/usr/local/bin:/usr/bin:/bin").split(":"),
  };
}

/** Why a rule is invalid, in one line; undefined when it is fine. */
function ruleProblem(source: string): string | undefined {
  const mcpProblem = mcpRuleProblem(source);
  if (mcpProblem !== null) return mcpProblem || undefined;
  try {
    parseRule(source);
    return undefined;
  } catch (err) {
    if (err instanceof RuleError) return err.message;
    throw err;
  }
}

/** What a sub-agent of this kind runs under: the parent's policy, read-only for `explore`. */
export function policyForSubAgent(policy: PermissionPolicy, kind: "explore" | "general"): PermissionPolicy {
  return kind === "explore" ? { ...policy, readOnly: true } : policy;
}

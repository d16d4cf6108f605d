// resolveConfig, split into modules, against the one-function resolver it replaced, on random
// flags, environments and config files: the same sources give the same Config (on every key the old
// one had) or the same usage error.
import { expect, test } from "bun:test";
import { type ConfigFlags, type ConfigSources, type FileConfig, resolveConfig } from "../../src/config/config.ts";
import { resolveConfig as legacyResolve } from "./legacy-config.ts";

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

// Each variable with values it accepts (mostly drawn) beside the shared pool of odd ones.
const ENV_GOOD: Record<string, string[]> = {
  SYNAPSE_MAX_TURNS: ["3", "40"],
  SYNAPSE_PERMISSION_MODE: ["plan", "bypass", "accept-edits"],
  SYNAPSE_MODEL: ["openai/gpt-5"],
  SYNAPSE_HOME: ["/tmp/abs", "rel/dir"],
  XDG_DATA_HOME: ["/data"],
  XDG_CACHE_HOME: ["/cache", "rel"],
  XDG_CONFIG_HOME: ["/config"],
  SYNAPSE_HIDE_ENV: ["SECRET_*", "OTHER"],
  NO_COLOR: ["1"],
  TERM: ["dumb", "xterm"],
  SYNAPSE_MAX_TOKENS: ["1000", "1000000"],
  SYNAPSE_NOTIFY: ["bell", "osc9", "off"],
  SYNAPSE_NOTIFY_AFTER: ["0", "86400"],
  SYNAPSE_THEME: ["light", "colour-blind"],
  COLORFGBG: ["0;15", "15;0", "7"],
  SYNAPSE_SANDBOX: ["read-only", "full-access"],
  SYNAPSE_SANDBOX_NETWORK: ["true", "off", "YES"],
  SYNAPSE_BWRAP: ["/nowhere"],
  SYNAPSE_MAX_RETRIES: ["0", "9"],
  SYNAPSE_LOOP_LIMIT: ["0", "3"],
  SYNAPSE_STREAM_IDLE_MS: ["1", "5000"],
  ANTHROPIC_API_KEY: ["sk-a"],
  OPENAI_BASE_URL: ["http://x"],
  SYNAPSE_SHELL_POOL_MAX: ["1", "4"],
  SYNAPSE_COMMAND_TIMEOUT_MS: ["1", "10"],
  SYNAPSE_STORE_MAX_MESSAGES: ["2", "50"],
  SYNAPSE_MEMORY_WARN_MB: ["64"],
  SYNAPSE_CONTEXT_WINDOW: ["1000", "200000"],
  SYNAPSE_CONDENSE_THRESHOLD: ["1", "100", "50", "101"],
  SYNAPSE_AUTO_CONDENSE: ["0", "on"],
  TOOL_RESULT_SUMMARY_LIMIT: ["10", "200"],
  SYNAPSE_MAX_PARALLEL_TASKS: ["1", "3"],
  SYNAPSE_TASK_MAX_HEAP_MB: ["16", "64"],
  SYNAPSE_MCP_TIMEOUT_MS: ["1"],
  SYNAPSE_MAX_MCP_OUTPUT_TOKENS: ["100", "500"],
  SYNAPSE_PRICE: ["1,2", "1,2,3,4", "0.5, 1"],
  SYNAPSE_MAX_BUDGET_USD: ["0.5", "3"],
  BASH_ENV: ["/x"],
  SECRET_TOKEN: ["hunter2"],
};
const ENV_NAMES = Object.keys(ENV_GOOD);

const ENV_VALUES = [
  "",
  "0",
  "1",
  "5",
  "16",
  "100",
  "101",
  "2000",
  "abc",
  "1e3",
  " 7 ",
  "-1",
  "true",
  "off",
  "yes",
  "bell",
  "osc9",
  "nope",
  "light",
  "colour-blind",
  "0;15",
  "plan",
  "bypass",
  "accept-edits",
  "read-only",
  "full-access",
  "1,2",
  "1,2,3,4",
  "1,2,3",
  "0.5",
  "x,y",
  "9007199254740993",
  "/tmp/abs",
  "rel/dir",
  "dumb",
  "SECRET_*",
];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const maybe = <T>(r: () => number, value: () => T): T | undefined => (r() < 0.12 ? value() : undefined);

function randomFlags(r: () => number): ConfigFlags {
  const flags: ConfigFlags = {
    cwd: maybe(r, () => pick(r, ["sub", "/abs/dir", "."])),
    model: maybe(r, () => pick(r, ["openai/gpt-5", "claude-x"])),
    outputFormat: maybe(r, () => pick(r, ["text", "json", "stream-json", "yaml"])),
    maxTurns: maybe(r, () => pick(r, ["0", "3", "2.5", "x"])),
    quiet: maybe(r, () => r() < 0.5),
    noColor: maybe(r, () => r() < 0.5),
    permissionMode: maybe(r, () => pick(r, ["plan", "bypass", "default", "yolo"])),
    allow: maybe(r, () => ["Bash(ls:*)"]),
    deny: maybe(r, () => ["Write"]),
    addDir: maybe(r, () => ["../other", "/abs"]),
    sandbox: maybe(r, () => pick(r, ["read-only", "full-access", "none"])),
    sandboxNetwork: maybe(r, () => r() < 0.5),
    maxBudgetUsd: maybe(r, () => pick(r, ["0", "1.5", "x", "3"])),
    mcpConfig: maybe(r, () => ['{"mcpServers":{}}', "servers.json"]),
    strictMcpConfig: maybe(r, () => r() < 0.5),
    allowProjectMcp: maybe(r, () => r() < 0.5),
    allowProjectHooks: maybe(r, () => r() < 0.5),
  };
  return Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
}

function randomFile(r: () => number): FileConfig | undefined {
  if (r() < 0.4) return undefined;
  const file: FileConfig = {
    model: maybe(r, () => "anthropic/claude"),
    maxTurns: maybe(r, () => 7),
    maxTokens: maybe(r, () => 4096),
    permissionMode: maybe(r, () => pick(r, ["default", "accept-edits", "bypass", "plan"] as const)),
    maxRetries: maybe(r, () => 2),
    loopLimit: maybe(r, () => 0),
    permissions: maybe(r, () => ({ allow: ["Read"], deny: ["Bash(rm:*)"] })),
    autoCondense: maybe(r, () => r() < 0.5),
    sandbox: maybe(r, () => ({
      mode: pick(r, ["read-only", "workspace-write", "full-access"] as const),
      network: r() < 0.5,
    })),
    price: maybe(r, () => ({ input: 1, output: 2 })),
    mcpServers: maybe(r, () => ({ one: { command: "x" } })),
    hooks: maybe(r, () => ({})),
  };
  return Object.fromEntries(Object.entries(file).filter(([, v]) => v !== undefined));
}

function randomSources(r: () => number): ConfigSources {
  const env: Record<string, string> = {};
  const count = Math.floor(r() * 10);
  for (let i = 0; i < count; i++) {
    const name = pick(r, ENV_NAMES);
    env[name] = r() < 0.15 ? pick(r, ENV_VALUES) : pick(r, ENV_GOOD[name] ?? [""]);
  }
  return {
    flags: randomFlags(r),
    env,
    projectFile: randomFile(r),
    userFile: randomFile(r),
    processCwd: "/work/here",
    homeDir: "/home/u",
  };
}

function outcome(resolve: (src: ConfigSources) => object, src: ConfigSources): { config: object } | { error: string } {
  try {
    return { config: resolve(src) };
  } catch (err) {
    return { error: `${(err as Error).constructor.name}: ${(err as Error).message}` };
  }
}

test("the split resolver gives what the one-function resolver gave, on random sources", () => {
  const r = rng(22);
  let errors = 0;
  for (let i = 0; i < 4000; i++) {
    const src = randomSources(r);
    const before = outcome(legacyResolve, src);
    const after = outcome(resolveConfig, src);
    if ("error" in before || "error" in after) {
      errors += "error" in before ? 1 : 0;
      expect({ i, ...after }).toEqual({ i, ...before });
      continue;
    }
    // Keys added since the split (new settings) are not the old resolver's to judge.
    const now = after.config as Record<string, unknown>;
    const shared = Object.fromEntries(Object.keys(before.config).map((k) => [k, now[k]]));
    expect({ i, ...shared }).toEqual({ i, ...before.config });
    expect(Object.isFrozen(now.shell)).toBe(true);
  }
  // Both kinds of case were drawn.
  expect(errors).toBeGreaterThan(200);
  expect(errors).toBeLessThan(3000);
});

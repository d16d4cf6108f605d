// The hand-written check of config.json files that src/config/file-config.ts (zod schemas) replaced,
// kept only as the reference of tests/config/file-config-differential.test.ts.

import { type FileConfig, MAX_OUTPUT_TOKENS, SANDBOX_MODES } from "../../src/config/config.ts";

const PERMISSION_MODES = ["default", "accept-edits", "bypass", "plan"];

/** The same rules as the flags and variables they stand in for; a bad value is never ignored. */
export function checkFileConfig(value: unknown): FileConfig {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not a JSON object");
  const v = value as Record<string, unknown>;
  const whole = (key: string, min: number) => {
    if (v[key] === undefined) return;
    if (typeof v[key] !== "number" || !Number.isInteger(v[key]) || (v[key] as number) < min) {
      throw new Error(`"${key}" must be a whole number >= ${min} (got ${JSON.stringify(v[key])})`);
    }
  };
  whole("maxTurns", 1);
  whole("maxTokens", 1);
  if (typeof v.maxTokens === "number" && v.maxTokens > MAX_OUTPUT_TOKENS) {
    throw new Error(`"maxTokens" must be at most ${MAX_OUTPUT_TOKENS} (got ${v.maxTokens})`);
  }
  whole("maxRetries", 0);
  whole("loopLimit", 0);
  if (v.model !== undefined && (typeof v.model !== "string" || !v.model.trim())) {
    throw new Error(`"model" must be a non-empty string (got ${JSON.stringify(v.model)})`);
  }
  if (v.permissionMode !== undefined && !PERMISSION_MODES.includes(v.permissionMode as string)) {
    throw new Error(
      `"permissionMode" must be one of ${PERMISSION_MODES.join(", ")} (got ${JSON.stringify(v.permissionMode)})`,
    );
  }
  if (v.permissions !== undefined) checkPermissions(v.permissions);
  if (v.autoCondense !== undefined && typeof v.autoCondense !== "boolean") {
    throw new Error(`"autoCondense" must be true or false (got ${JSON.stringify(v.autoCondense)})`);
  }
  if (v.sandbox !== undefined) checkSandbox(v.sandbox);
  if (v.price !== undefined) checkPrice(v.price);
  if (
    v.mcpServers !== undefined &&
    (!v.mcpServers || typeof v.mcpServers !== "object" || Array.isArray(v.mcpServers))
  ) {
    throw new Error(`"mcpServers" must be an object of MCP servers by name`);
  }
  const unknown = Object.keys(v).filter(
    (k) =>
      ![
        "maxTurns",
        "maxTokens",
        "maxRetries",
        "loopLimit",
        "model",
        "permissionMode",
        "permissions",
        "autoCondense",
        "sandbox",
        "price",
        "mcpServers",
      ].includes(k),
  );
  if (unknown.length)
    throw new Error(`unknown setting${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `"${k}"`).join(", ")}`);
  return v as FileConfig;
}

/** `"price": {"input": 3, "output": 15, "cacheWrite"?: 3.75, "cacheRead"?: 0.3}`: dollars per million tokens. */
function checkPrice(value: unknown): void {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`"price" must be an object with "input" and "output" (dollars per million tokens)`);
  }
  const v = value as Record<string, unknown>;
  for (const [key, n] of Object.entries(v)) {
    if (!PRICE_KEYS.includes(key))
      throw new Error(`unknown setting "price.${key}" (input, output, cacheWrite or cacheRead)`);
    if (typeof n !== "number" || !(n >= 0)) {
      throw new Error(`"price.${key}" must be a number of dollars >= 0 (got ${JSON.stringify(n)})`);
    }
  }
  if (v.input === undefined || v.output === undefined) throw new Error(`"price" needs both "input" and "output"`);
}

const PRICE_KEYS = ["input", "output", "cacheWrite", "cacheRead"];

/** `"permissions": {"allow": [...], "deny": [...]}`; the rules themselves are checked with the flags. */
function checkPermissions(value: unknown): void {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new Error(`"permissions" must be an object with "allow" and "deny" lists`);
  for (const [key, list] of Object.entries(value)) {
    if (key !== "allow" && key !== "deny") throw new Error(`unknown setting "permissions.${key}" (allow or deny)`);
    if (!Array.isArray(list) || list.some((r) => typeof r !== "string"))
      throw new Error(`"permissions.${key}" must be a list of rule strings`);
  }
}

/** `"sandbox": {"mode": "workspace-write", "network": false}`. */
function checkSandbox(value: unknown): void {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new Error(`"sandbox" must be an object with "mode" and "network"`);
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (key !== "mode" && key !== "network") throw new Error(`unknown setting "sandbox.${key}" (mode or network)`);
  }
  if (v.mode !== undefined && !(SANDBOX_MODES as unknown[]).includes(v.mode)) {
    throw new Error(`"sandbox.mode" must be one of ${SANDBOX_MODES.join(", ")} (got ${JSON.stringify(v.mode)})`);
  }
  if (v.network !== undefined && typeof v.network !== "boolean") {
    throw new Error(`"sandbox.network" must be true or false (got ${JSON.stringify(v.network)})`);
  }
}

// Settings that were accepted silently or blamed on the wrong source (issue 11, item 14).

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/config.ts";
import { loadConfig } from "../../src/config/load.ts";
import { UsageError } from "../../src/protocol/errors.ts";

const base = { flags: {}, processCwd: "/work", homeDir: "/home/u" };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error("accepted");
}

describe("values that must be refused", () => {
  test.each(["1e9", "1000000000", "0x10", " 7", "2.0"])("SYNAPSE_MAX_TOKENS=%p", (raw) => {
    expect(refusal(() => resolveConfig({ ...base, env: { SYNAPSE_MAX_TOKENS: raw } }))).toContain(
      "SYNAPSE_MAX_TOKENS must be a whole number from 1 to 1000000",
    );
  });

  test("SYNAPSE_MAX_TOKENS within the range is taken", () => {
    expect(resolveConfig({ ...base, env: { SYNAPSE_MAX_TOKENS: "64000" } }).maxTokens).toBe(64_000);
  });

  test("a bad SYNAPSE_PERMISSION_MODE is named as such, a bad flag as the flag", () => {
    expect(refusal(() => resolveConfig({ ...base, env: { SYNAPSE_PERMISSION_MODE: "yolo" } }))).toStartWith(
      "SYNAPSE_PERMISSION_MODE must be one of",
    );
    expect(refusal(() => resolveConfig({ ...base, flags: { permissionMode: "yolo" }, env: {} }))).toStartWith(
      "--permission-mode must be one of",
    );
  });

  test("a config.json that is a directory is an error naming it, not ignored", () => {
    const root = mkdtempSync(join(tmpdir(), "synapse-cfg-"));
    mkdirSync(join(root, "synapse", "config.json"), { recursive: true });
    expect(refusal(() => loadConfig({ cwd: root }, { XDG_CONFIG_HOME: root }))).toBe(
      `cannot read config file ${join(root, "synapse", "config.json")}: it is a directory`,
    );
  });

  test("no config.json at all is fine", () => {
    const root = mkdtempSync(join(tmpdir(), "synapse-cfg-"));
    expect(loadConfig({ cwd: root }, { XDG_CONFIG_HOME: root }).cwd).toBe(root);
  });
});

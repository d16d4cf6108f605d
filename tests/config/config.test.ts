// Configuration precedence and validation.
import { describe, expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/config.ts";
import { UsageError } from "../../src/protocol/errors.ts";

const base = { flags: {}, env: {}, processCwd: "/work", homeDir: "/home/u" };

describe("resolveConfig", () => {
  test("defaults", () => {
    const c = resolveConfig(base);
    expect(c).toMatchObject({
      cwd: "/work",
      home: "/home/u/.local/share/synapse",
      outputFormat: "text",
      maxTurns: Number.POSITIVE_INFINITY,
      color: true,
      maxRetries: 4,
    });
    expect(c.shell).toMatchObject({
      poolMax: 8,
      maxCd: 5,
      commandTimeoutMs: 120_000,
      outputMaxLines: 500,
      outputMaxChars: 30_000,
    });
    expect(c.memory.checkIntervalMs).toBe(5000);
    expect(Object.isFrozen(c) && Object.isFrozen(c.shell)).toBe(true);
  });

  test("flags > env > project file > user file", () => {
    const c = resolveConfig({
      ...base,
      flags: { model: "flag-model" },
      env: { SYNAPSE_MODEL: "env-model", SYNAPSE_MAX_TURNS: "7" },
      projectFile: { model: "project-model", maxTurns: 9, maxRetries: 1 },
      userFile: { model: "user-model", maxRetries: 2, maxTokens: 100 },
    });
    expect(c.model).toBe("flag-model");
    expect(c.maxTurns).toBe(7);
    expect(c.maxRetries).toBe(1);
    expect(c.maxTokens).toBe(100);
    expect(resolveConfig({ ...base, env: { SYNAPSE_MODEL: "env-model" }, projectFile: { model: "p" } }).model).toBe(
      "env-model",
    );
    expect(resolveConfig({ ...base, projectFile: { model: "p" }, userFile: { model: "u" } }).model).toBe("p");
  });

  // Whether a stream is a terminal is decided per stream by the CLI; config only says if colour is allowed.
  test.each([
    [{ NO_COLOR: "1" }, false],
    [{ TERM: "dumb" }, false],
    [{}, true],
  ])("colour allowed with env %j → %s", (env, color) => {
    expect(resolveConfig({ ...base, env }).color).toBe(color);
  });

  test("paths: -C relative to the process cwd, XDG_DATA_HOME, SYNAPSE_HOME", () => {
    expect(resolveConfig({ ...base, flags: { cwd: "sub" } }).cwd).toBe("/work/sub");
    expect(resolveConfig({ ...base, env: { XDG_DATA_HOME: "/x" } }).home).toBe("/x/synapse");
    expect(resolveConfig({ ...base, env: { SYNAPSE_HOME: "/s" } }).home).toBe("/s");
  });

  test.each([
    [{ flags: { outputFormat: "xml" } }],
    [{ flags: { maxTurns: "0" } }],
    [{ flags: { maxTurns: "2.5" } }],
    [{ flags: { permissionMode: "yolo" } }],
    [{ env: { SYNAPSE_SHELL_POOL_MAX: "many" } }],
    [{ env: { SYNAPSE_COMMAND_TIMEOUT_MS: "-5" } }],
  ])("%j is rejected", (patch) => {
    expect(() => resolveConfig({ ...base, ...patch } as any)).toThrow(UsageError);
  });
});

describe("checkFileConfig", () => {
  const { checkFileConfig } = require("../../src/config/load.ts") as typeof import("../../src/config/load.ts");
  test.each([
    [{ maxTurns: "abc" }, /maxTurns/],
    [{ maxTurns: 0 }, /maxTurns/],
    [{ maxTurns: 2.5 }, /maxTurns/],
    [{ maxTokens: 0 }, /maxTokens/],
    [{ maxRetries: -1 }, /maxRetries/],
    [{ model: 42 }, /model/],
    [{ model: " " }, /model/],
    [{ permissionMode: "yolo" }, /permissionMode/],
    [{ maxturns: 3 }, /unknown setting "maxturns"/],
    [[1, 2], /JSON object/],
    [null, /JSON object/],
  ])("%j is rejected", (value, message) => {
    expect(() => checkFileConfig(value)).toThrow(message);
  });

  test("good values pass through", () => {
    const good = { maxTurns: 3, maxTokens: 100, maxRetries: 0, model: "openai/gpt-5.4", permissionMode: "plan" };
    expect(checkFileConfig(good)).toEqual(good as any);
  });
});

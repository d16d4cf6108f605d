// The context settings: defaults, environment, the config file's autoCondense, and bad values.
import { describe, expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/config.ts";
import { checkFileConfig } from "../../src/config/load.ts";
import { UsageError } from "../../src/protocol/errors.ts";

const base = { flags: {}, env: {}, processCwd: "/work", homeDir: "/home/u" };

describe("context config", () => {
  test("defaults: window by model, 80%, keep 2 turns, auto on", () => {
    expect(resolveConfig(base).context).toEqual({
      window: undefined,
      thresholdPercent: 80,
      keepLastTurns: 2,
      autoCondense: true,
    });
  });

  test("environment", () => {
    const env = {
      SYNAPSE_CONTEXT_WINDOW: "50000",
      SYNAPSE_CONDENSE_THRESHOLD: "70",
      SYNAPSE_COMPACT_KEEP_LAST: "0",
      SYNAPSE_AUTO_CONDENSE: "0",
    };
    expect(resolveConfig({ ...base, env }).context).toEqual({
      window: 50_000,
      thresholdPercent: 70,
      keepLastTurns: 0,
      autoCondense: false,
    });
  });

  test("autoCondense from a file; the environment wins", () => {
    expect(resolveConfig({ ...base, projectFile: { autoCondense: false } }).context.autoCondense).toBe(false);
    expect(
      resolveConfig({ ...base, env: { SYNAPSE_AUTO_CONDENSE: "1" }, projectFile: { autoCondense: false } }).context
        .autoCondense,
    ).toBe(true);
    expect(checkFileConfig({ autoCondense: false })).toEqual({ autoCondense: false });
    expect(() => checkFileConfig({ autoCondense: "no" })).toThrow(/"autoCondense" must be true or false/);
  });

  const bad: Array<[string, string, RegExp]> = [
    ["SYNAPSE_CONDENSE_THRESHOLD", "0", /whole number >= 1/],
    ["SYNAPSE_CONDENSE_THRESHOLD", "120", /percentage from 1 to 100/],
    ["SYNAPSE_CONTEXT_WINDOW", "500", /whole number >= 1000/],
    ["SYNAPSE_COMPACT_KEEP_LAST", "-1", /whole number >= 0/],
    ["SYNAPSE_AUTO_CONDENSE", "maybe", /must be 1 or 0/],
  ];
  for (const [name, value, message] of bad) {
    test(`${name}=${value} is a usage error`, () => {
      expect(() => resolveConfig({ ...base, env: { [name]: value } })).toThrow(UsageError);
      expect(() => resolveConfig({ ...base, env: { [name]: value } })).toThrow(message);
    });
  }
});

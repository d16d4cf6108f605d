// loopLimit: SYNAPSE_LOOP_LIMIT over `loopLimit` in a config file over the default 5; 0 is off.
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/config.ts";
import { checkFileConfig } from "../../src/config/load.ts";
import { UsageError } from "../../src/protocol/errors.ts";

const config = (env: Record<string, string>, userFile?: { loopLimit?: number }) =>
  resolveConfig({ flags: {}, env, userFile, processCwd: "/", homeDir: "/" });

test("default 5, the file's value, the variable over the file, 0 allowed", () => {
  expect(config({}).loopLimit).toBe(5);
  expect(config({}, { loopLimit: 3 }).loopLimit).toBe(3);
  expect(config({ SYNAPSE_LOOP_LIMIT: "0" }, { loopLimit: 3 }).loopLimit).toBe(0);
});

test("a bad value is a usage error, in the variable or the file", () => {
  expect(() => config({ SYNAPSE_LOOP_LIMIT: "-1" })).toThrow(UsageError);
  expect(() => checkFileConfig({ loopLimit: "5" })).toThrow('"loopLimit" must be a whole number >= 0');
  expect(checkFileConfig({ loopLimit: 0 })).toEqual({ loopLimit: 0 });
});

// Prices and the budget: SYNAPSE_PRICE over a config file's `price`; --max-budget-usd over
// SYNAPSE_MAX_BUDGET_USD; bad values are usage errors naming where they came from.
import { expect, test } from "bun:test";
import { type ConfigFlags, type FileConfig, resolveConfig } from "../../src/config/config.ts";
import { checkFileConfig } from "../../src/config/load.ts";
import { UsageError } from "../../src/protocol/errors.ts";

const config = (env: Record<string, string>, userFile?: FileConfig, flags: ConfigFlags = {}) =>
  resolveConfig({ flags, env, userFile, processCwd: "/", homeDir: "/" });

test("no price and no budget by default; the file's price; the variable over the file", () => {
  expect(config({}).price).toBeUndefined();
  expect(config({}).maxBudgetUsd).toBeUndefined();
  expect(config({}, { price: { input: 2, output: 8 } }).price).toEqual({ input: 2, output: 8 });
  expect(config({ SYNAPSE_PRICE: "3,15" }, { price: { input: 2, output: 8 } }).price).toEqual({ input: 3, output: 15 });
});

test("the budget: the flag over the variable; dollars above 0", () => {
  expect(config({ SYNAPSE_MAX_BUDGET_USD: "2.5" }).maxBudgetUsd).toBe(2.5);
  expect(config({ SYNAPSE_MAX_BUDGET_USD: "2.5" }, undefined, { maxBudgetUsd: "0.10" }).maxBudgetUsd).toBe(0.1);
  expect(() => config({ SYNAPSE_MAX_BUDGET_USD: "-1" })).toThrow(
    "SYNAPSE_MAX_BUDGET_USD must be a number of dollars above 0",
  );
  expect(() => config({}, undefined, { maxBudgetUsd: "1e3" })).toThrow(UsageError);
});

test("a config file's price is checked like every other setting", () => {
  expect(checkFileConfig({ price: { input: 3, output: 15, cacheRead: 0.3 } })).toEqual({
    price: { input: 3, output: 15, cacheRead: 0.3 },
  });
  expect(() => checkFileConfig({ price: 3 })).toThrow('"price" must be an object with "input" and "output"');
  expect(() => checkFileConfig({ price: { input: 3 } })).toThrow('"price" needs both "input" and "output"');
  expect(() => checkFileConfig({ price: { input: 3, output: "15" } })).toThrow(
    '"price.output" must be a number of dollars >= 0',
  );
  expect(() => checkFileConfig({ price: { input: 3, output: 15, cached: 1 } })).toThrow(
    'unknown setting "price.cached"',
  );
});

// The environment commands start with: the provider keys and the names SYNAPSE_HIDE_ENV lists are
// never in it, whatever else is.

import { describe, expect, test } from "bun:test";
import { commandEnvironment, hiddenEnvNames } from "../../src/config/command-env.ts";
import { resolveConfig } from "../../src/config/config.ts";

const base = { flags: {}, processCwd: "/work", homeDir: "/home/u" };

describe("the command environment", () => {
  test("the provider keys are left out, everything else is kept", () => {
    const c = resolveConfig({
      ...base,
      env: {
        ANTHROPIC_API_KEY: "sk-ant-secret",
        OPENAI_API_KEY: "sk-secret",
        ANTHROPIC_AUTH_TOKEN: "tok",
        PATH: "/usr/bin",
        HOME: "/home/u",
        LANG: "C.UTF-8",
      },
    });
    expect(c.anthropic.apiKey).toBe("sk-ant-secret");
    expect(c.shell.env).toEqual({ PATH: "/usr/bin", HOME: "/home/u", LANG: "C.UTF-8" });
    expect(JSON.stringify(c.shell.env)).not.toContain("secret");
  });

  test("SYNAPSE_HIDE_ENV adds names and NAME_* prefixes", () => {
    const c = resolveConfig({
      ...base,
      env: {
        SYNAPSE_HIDE_ENV: "GITHUB_TOKEN, AWS_*",
        GITHUB_TOKEN: "g",
        AWS_SECRET_ACCESS_KEY: "a",
        AWS_REGION: "r",
        AWSOME: "kept",
        OPENAI_API_KEY: "o",
      },
    });
    expect(Object.keys(c.shell.env).sort()).toEqual(["AWSOME", "SYNAPSE_HIDE_ENV"]);
    expect(c.shell.hiddenEnv).toContain("OPENAI_API_KEY");
    expect(c.shell.hiddenEnv).toContain("AWS_*");
  });

  test("table", () => {
    const rows: [Record<string, string | undefined>, string | undefined, string[]][] = [
      [{ A: "1", OPENAI_API_KEY: "k" }, undefined, ["A"]],
      [{ A: "1", B: undefined }, "", ["A"]],
      [{ X_1: "1", X_2: "2", Y: "3" }, "X_*", ["Y"]],
      [{ X: "1" }, "X", []],
    ];
    for (const [env, extra, keys] of rows)
      expect(Object.keys(commandEnvironment(env, hiddenEnvNames(extra)))).toEqual(keys);
  });
});

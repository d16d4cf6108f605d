// Table tests for provider and model selection from the resolved config.

import { expect, test } from "bun:test";
import type { Config } from "../../src/config/config.ts";
import { resolveSelection, selectProvider } from "../../src/llm/select.ts";
import { UsageError } from "../../src/protocol/errors.ts";

type Env = { model?: string; anthropicKey?: string; openaiKey?: string; openaiUrl?: string };

function config(env: Env): Pick<Config, "model" | "anthropic" | "openai"> {
  return {
    model: env.model,
    anthropic: { apiKey: env.anthropicKey },
    openai: { apiKey: env.openaiKey, baseUrl: env.openaiUrl },
  };
}

const A = "sk-ant";
const O = "sk-oai";
const LOCAL = "http://127.0.0.1:11434/v1";

const chosen: Array<[string, Env, string]> = [
  ["anthropic key alone: default claude", { anthropicKey: A }, "anthropic/claude-sonnet-5-5"],
  ["openai key alone: default gpt", { openaiKey: O }, "openai/gpt-5.4"],
  ["both keys: anthropic first", { anthropicKey: A, openaiKey: O }, "anthropic/claude-sonnet-5-5"],
  ["base URL without key: local openai-compatible server", { openaiUrl: LOCAL }, "openai/gpt-5.4"],
  ["explicit provider/model", { model: "openai/gpt-4.1", anthropicKey: A, openaiKey: O }, "openai/gpt-4.1"],
  [
    "explicit anthropic/model",
    { model: "anthropic/claude-opus-4-1", anthropicKey: A, openaiKey: O },
    "anthropic/claude-opus-4-1",
  ],
  ["explicit provider, empty model: its default", { model: "openai/", openaiKey: O }, "openai/gpt-5.4"],
  [
    "bare claude name",
    { model: "claude-3-5-haiku-latest", anthropicKey: A, openaiKey: O },
    "anthropic/claude-3-5-haiku-latest",
  ],
  ["bare gpt name", { model: "gpt-4o-mini", anthropicKey: A, openaiKey: O }, "openai/gpt-4o-mini"],
  ["bare o3 name", { model: "o3-mini", anthropicKey: A, openaiKey: O }, "openai/o3-mini"],
  ["bare o1 and o4 names", { model: "o4-mini", openaiKey: O }, "openai/o4-mini"],
  [
    "unknown name goes to the only configured provider",
    { model: "llama3.1:8b", openaiUrl: LOCAL },
    "openai/llama3.1:8b",
  ],
  [
    "unknown name with both: the local server wins",
    { model: "qwen3", anthropicKey: A, openaiUrl: LOCAL },
    "openai/qwen3",
  ],
  [
    "unknown name with both keys and no base URL: anthropic first",
    { model: "mystery", anthropicKey: A, openaiKey: O },
    "anthropic/mystery",
  ],
  ["unknown name, anthropic only", { model: "mystery", anthropicKey: A }, "anthropic/mystery"],
  [
    "a slash that names no provider stays in the model",
    { model: "meta-llama/Llama-3-8B", openaiUrl: LOCAL },
    "openai/meta-llama/Llama-3-8B",
  ],
  ["provider prefix is case-insensitive", { model: "OpenAI/gpt-4o", openaiKey: O }, "openai/gpt-4o"],
];

for (const [name, env, expected] of chosen) {
  test(name, () => {
    const { provider, model } = resolveSelection(config(env));
    expect(`${provider}/${model}`).toBe(expected);
  });
}

const refused: Array<[string, Env, RegExp]> = [
  ["nothing configured names every variable", {}, /ANTHROPIC_API_KEY.*OPENAI_API_KEY.*OPENAI_BASE_URL.*SYNAPSE_MODEL/],
  ["a model but nothing configured", { model: "mystery" }, /ANTHROPIC_API_KEY/],
  ["explicit anthropic without its key", { model: "anthropic/claude-x", openaiKey: O }, /ANTHROPIC_API_KEY/],
  ["explicit openai without key or URL", { model: "openai/gpt-4o", anthropicKey: A }, /OPENAI_API_KEY/],
  ["bare claude name without the anthropic key", { model: "claude-x", openaiKey: O }, /ANTHROPIC_API_KEY/],
  ["bare gpt name without the openai key", { model: "gpt-4o", anthropicKey: A }, /OPENAI_API_KEY/],
];

for (const [name, env, pattern] of refused) {
  test(name, () => {
    let thrown: unknown;
    try {
      resolveSelection(config(env));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toMatch(pattern);
  });
}

test("selectProvider builds the provider without loading an SDK", () => {
  const provider = selectProvider(config({ model: "openai/gpt-4o-mini", openaiUrl: LOCAL }) as Config);
  expect(provider.name).toBe("openai");
  expect(provider.model).toBe("gpt-4o-mini");
  const anthropic = selectProvider(config({ anthropicKey: A }) as Config);
  expect(anthropic.name).toBe("anthropic");
  expect(anthropic.model).toBe("claude-sonnet-5-5");
});

test("importing the llm layer and selecting a provider loads no SDK (startup stays fast)", () => {
  const select = new URL("../../src/llm/select.ts", import.meta.url).pathname;
  const code = `const { selectProvider } = await import(${JSON.stringify(select)});
    selectProvider({ anthropic: { apiKey: "k" }, openai: {} });
    const sdk = Object.keys(require.cache).filter((k) => /node_modules.(openai|@anthropic-ai)/.test(k));
    await import("openai");
    const after = Object.keys(require.cache).filter((k) => /node_modules.openai/.test(k));
    console.log(sdk.length, after.length > 0);`;
  const proc = Bun.spawnSync([process.execPath, "-e", code]);
  expect(proc.stdout.toString().trim()).toBe("0 true");
});

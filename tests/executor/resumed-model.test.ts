// Table test: which model a resumed session continues with, from real resolved configs.

import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/config.ts";
import { resumedModel } from "../../src/executor/resumed-model.ts";
import { selectProvider } from "../../src/llm/select.ts";

const KEYS = { ANTHROPIC_API_KEY: "sk-ant" };
type Row = [
  name: string,
  flags: { model?: string },
  env: Record<string, string>,
  projectModel: string | undefined,
  recorded: string,
  expected: string,
  warns: boolean,
];

const rows: Row[] = [
  [
    "nothing chosen: the recorded model",
    {},
    KEYS,
    undefined,
    "anthropic/claude-opus-4-1",
    "anthropic/claude-opus-4-1",
    false,
  ],
  [
    "SYNAPSE_MODEL is a default, not a choice for this session",
    {},
    { ...KEYS, SYNAPSE_MODEL: "claude-haiku-4-5" },
    undefined,
    "anthropic/claude-opus-4-1",
    "anthropic/claude-opus-4-1",
    false,
  ],
  [
    "a project config's model likewise",
    {},
    KEYS,
    "claude-haiku-4-5",
    "anthropic/claude-opus-4-1",
    "anthropic/claude-opus-4-1",
    false,
  ],
  [
    "-m wins",
    { model: "claude-haiku-4-5" },
    KEYS,
    undefined,
    "anthropic/claude-opus-4-1",
    "anthropic/claude-haiku-4-5",
    false,
  ],
  [
    "-m wins even when it names the default",
    { model: "claude-sonnet-5-5" },
    KEYS,
    undefined,
    "anthropic/claude-opus-4-1",
    "anthropic/claude-sonnet-5-5",
    false,
  ],
  [
    "nothing recorded (older session): the configured model",
    {},
    KEYS,
    undefined,
    "",
    "anthropic/claude-sonnet-5-5",
    false,
  ],
  [
    "recorded provider not configured: the configured model, with a warning",
    {},
    KEYS,
    undefined,
    "openai/gpt-5.4",
    "anthropic/claude-sonnet-5-5",
    true,
  ],
  [
    "recorded on a local server, reachable again",
    {},
    { ...KEYS, OPENAI_BASE_URL: "http://127.0.0.1:1/v1" },
    undefined,
    "openai/qwen3:8b",
    "openai/qwen3:8b",
    false,
  ],
];

for (const [name, flags, env, projectModel, recorded, expected, warns] of rows) {
  test(name, () => {
    const config = resolveConfig({
      flags,
      env,
      processCwd: "/work",
      homeDir: "/home/u",
      projectFile: projectModel ? { model: projectModel } : undefined,
    });
    const got = resumedModel(config, selectProvider(config), recorded);
    expect(`${got.provider.name}/${got.provider.model}`).toBe(expected);
    expect(got.warning !== undefined).toBe(warns);
  });
}

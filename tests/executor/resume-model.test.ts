// The model across session switches inside one process, with real runtimes and the strict fake:
// /resume opens a session on the model it recorded, /clear keeps the model in use, and a model
// picked with /model in this process stays picked across both.

import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/config.ts";
import { createExecutor } from "../../src/executor/executor.ts";
import { openRuntime } from "../../src/executor/session-runtime.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();
let fake: FakeLLM | undefined;

const MODELS = { models: [{ id: "claude-sonnet-5-5" }, { id: "fake-model-b" }] };
const lastModel = () => fake!.requests.filter((r) => r.path === "/v1/messages").at(-1)?.body.model;

async function executorIn(dir: string, url: string, flags: { model?: string } = {}) {
  const config = resolveConfig({
    flags: { permissionMode: "bypass", ...flags },
    env: {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: url,
      SYNAPSE_HOME: join(dir, "home"),
      SYNAPSE_RETRY_BASE_MS: "5",
      SYNAPSE_MEMORY_CHECK_INTERVAL_MS: "600000",
    },
    processCwd: dir,
    homeDir: dir,
  });
  return createExecutor({
    config,
    open: (sink, resume) => openRuntime({ config, resume, emit: sink }),
    emit: () => {},
  });
}

async function run(executor: Awaited<ReturnType<typeof executorIn>>, text: string) {
  const outcome = await executor.waitFor(executor.submit({ text }));
  expect(outcome.status).toBe("done");
}

test("/resume uses the session's recorded model, /clear keeps the current one, a /model pick wins over both", async () => {
  fake = await serve(() => ({ text: "ok" }), MODELS);
  const dir = mkdtempSync(join(tmpdir(), "synapse-exec-model-"));

  const first = await executorIn(dir, fake.url);
  await run(first, "one");
  await run(first, "/model fake-model-b");
  const onB = first.runtime.sessionId;
  await first.close();

  // A new process on the default model: /resume switches to the model that session recorded.
  const second = await executorIn(dir, fake.url);
  await run(second, "two");
  expect(lastModel()).toBe("claude-sonnet-5-5");
  const onDefault = second.runtime.sessionId;
  await run(second, `/resume ${onB}`);
  expect(second.facts().model).toBe("anthropic/fake-model-b");
  await run(second, "three");
  expect(lastModel()).toBe("fake-model-b");
  // /clear: a new session on the model in use.
  await run(second, "/clear");
  expect(second.facts().model).toBe("anthropic/fake-model-b");
  // Back to a session that recorded the default: its model, since nothing was picked here.
  await run(second, `/resume ${onDefault}`);
  expect(second.facts().model).toBe("anthropic/claude-sonnet-5-5");
  // Picked with /model here: it stays picked across /resume.
  await run(second, "/model fake-model-b");
  await run(second, "/clear");
  await run(second, `/resume ${onDefault}`);
  expect(second.facts().model).toBe("anthropic/fake-model-b");
  await run(second, "four");
  expect(lastModel()).toBe("fake-model-b");
  await second.close();

  // -m for the whole process: /resume of a session recorded on another model still runs on -m's.
  const third = await executorIn(dir, fake.url, { model: "claude-sonnet-5-5" });
  await run(third, `/resume ${onB}`);
  expect(third.facts().model).toBe("anthropic/claude-sonnet-5-5");
  await third.close();
});

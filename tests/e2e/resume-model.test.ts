// A resumed session continues on the model it recorded with /model, unless -m names one for the run:
// checked through the compiled binary by the model each request sent to the strict fake asked for.

import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionsRoot } from "../../src/store/paths.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
let fake: FakeLLM | undefined;

const MODELS = { models: [{ id: "claude-sonnet-5-5" }, { id: "fake-model-b" }] };
const lastModel = () => fake!.requests.filter((r) => r.path === "/v1/messages").at(-1)?.body.model;

describe("the model a resumed session runs on", () => {
  test("--continue/--resume use the recorded /model; SYNAPSE_MODEL does not override it, -m does (and is recorded)", async () => {
    fake = await serve(
      [{ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" }, { text: "five" }],
      MODELS,
    );
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url) };
    const first = await runBinary({ args: ["-o", "json", "hello"], env, cwd: home.dir });
    expect(first.code).toBe(0);
    const id = JSON.parse(first.stdout).session_id as string;
    expect(lastModel()).toBe("claude-sonnet-5-5");
    const metaFile = join(sessionsRoot(home.env.SYNAPSE_HOME!), id, "meta.json");

    expect((await runBinary({ stdin: "/model fake-model-b", args: ["-c"], env, cwd: home.dir })).code).toBe(0);
    expect(JSON.parse(readFileSync(metaFile, "utf8")).model).toBe("anthropic/fake-model-b");

    const cont = await runBinary({ args: ["-c", "-o", "stream-json", "again"], env, cwd: home.dir });
    expect(cont.code).toBe(0);
    expect(lastModel()).toBe("fake-model-b");
    // What the run reports agrees with what was sent.
    const init = cont.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((e) => e.subtype === "init");
    expect(init.model).toBe("fake-model-b");

    expect(
      (
        await runBinary({
          args: ["-r", id, "by id"],
          env: { ...env, SYNAPSE_MODEL: "claude-sonnet-5-5" },
          cwd: home.dir,
        })
      ).code,
    ).toBe(0);
    expect(lastModel()).toBe("fake-model-b");

    expect((await runBinary({ args: ["-c", "-m", "claude-sonnet-5-5", "flag"], env, cwd: home.dir })).code).toBe(0);
    expect(lastModel()).toBe("claude-sonnet-5-5");
    expect(JSON.parse(readFileSync(metaFile, "utf8")).model).toBe("anthropic/claude-sonnet-5-5");

    // The flag's choice is now the session's: the next plain --continue keeps it.
    expect((await runBinary({ args: ["-c", "after"], env, cwd: home.dir })).code).toBe(0);
    expect(lastModel()).toBe("claude-sonnet-5-5");
  });

  test("a recorded model whose provider is not configured any more: one warning, the configured model", async () => {
    fake = await serve([{ text: "one" }, { text: "two" }], MODELS);
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url) };
    const first = await runBinary({ args: ["-o", "json", "hello"], env, cwd: home.dir });
    const metaFile = join(sessionsRoot(home.env.SYNAPSE_HOME!), JSON.parse(first.stdout).session_id, "meta.json");
    // As an earlier run with OPENAI_API_KEY set would have recorded it.
    const meta = JSON.parse(readFileSync(metaFile, "utf8"));
    writeFileSync(metaFile, JSON.stringify({ ...meta, model: "openai/gpt-5.4" }));

    const run = await runBinary({ args: ["-c", "again"], env, cwd: home.dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("the session's model openai/gpt-5.4 is not available");
    expect(run.stderr).toContain("using anthropic/claude-sonnet-5-5");
    expect(lastModel()).toBe("claude-sonnet-5-5");
    expect(fake.requests.every((r) => r.provider === "anthropic")).toBe(true);
    expect(JSON.parse(readFileSync(metaFile, "utf8")).model).toBe("anthropic/claude-sonnet-5-5");
  });
});

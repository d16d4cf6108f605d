// The binary sends the JSON Schemas build.ts generated from the tools' zod schemas
// (src/tools/prebuilt-schemas.ts): the same as generating them from source, tool for tool.
import { expect, test } from "bun:test";
import { ALL_TOOLS } from "../../src/tools/registry.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();

test.each(["anthropic", "openai"] as const)(
  "%s: the tools' schemas in the request are the generated ones",
  async (provider) => {
    const s = await serve([{ text: "ok" }]);
    const r = await runBinary({ args: ["hi"], env: { ...tempHome().env, ...providerEnv(s.url, provider) } });
    expect(r.code).toBe(0);
    const tools = s.requests[0]!.body.tools as any[];
    const sent = Object.fromEntries(
      tools.map((t) =>
        provider === "anthropic" ? [t.name, t.input_schema] : [t.function.name, t.function.parameters],
      ),
    );
    expect(sent).toEqual(Object.fromEntries(ALL_TOOLS.map((t) => [t.name, t.inputSchema])));
  },
);

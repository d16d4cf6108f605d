// The SDK's outputFormat (json_schema): the final answer is a JSON value valid against the schema,
// in the result's structured_output; an invalid answer is sent back to the model first.

import { describe, expect, test } from "bun:test";
import { collect, ofType, sdkOptions } from "../support/agent-sdk.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();
const outputFormat = {
  type: "json_schema" as const,
  schema: { type: "object", properties: { answer: { type: "number" } }, required: ["answer"] },
};

describe("outputFormat json_schema", () => {
  test("a valid answer is the result's structured_output", async () => {
    const s = await serve([{ text: '{"answer": 42}' }]);
    const run = await collect("what is it?", sdkOptions(s.url, { outputFormat }));
    expect(run.error).toBeUndefined();
    const [result] = ofType(run.messages, "result");
    expect(result).toMatchObject({ subtype: "success", structured_output: { answer: 42 } });
  });

  test("an invalid answer goes back to the model with its errors, then the fixed one counts", async () => {
    const s = await serve([{ text: '{"answer": "many"}' }, { text: '{"answer": 7}' }]);
    const run = await collect("what is it?", sdkOptions(s.url, { outputFormat }));
    const [result] = ofType(run.messages, "result");
    expect(result).toMatchObject({ subtype: "success", structured_output: { answer: 7 } });
    expect(s.requests).toHaveLength(2);
  });

  test("never valid: the run fails with error_max_structured_output_retries and says why", async () => {
    const s = await serve(Array.from({ length: 6 }, () => ({ text: "no JSON here" })));
    const run = await collect("what is it?", sdkOptions(s.url, { outputFormat }));
    const [result] = ofType(run.messages, "result");
    expect(result).toMatchObject({ subtype: "error_max_structured_output_retries", is_error: true });
    expect((result as { errors: string[] }).errors).toHaveLength(1);
    expect(result).not.toHaveProperty("structured_output");
    // The process ends with exit 1, which the SDK reports with the result's reason.
    expect(run.error).toBeDefined();
  });
});

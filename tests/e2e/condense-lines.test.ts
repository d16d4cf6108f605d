// Through the compiled binary: headless `/compact` reports the same shortened token counts on
// stdout (`compacted: …`) as the condense notice on stderr (`context … tokens`), one formatter.

import { expect, test } from "bun:test";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { isSummaryRequest } from "../support/summary-request.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
let fake: FakeLLM | undefined;

test("/compact: the compacted line and the context notice give the same figures", async () => {
  const isSummary = (body: any) => isSummaryRequest(body);
  let turn = 0;
  fake = await serve((req) =>
    isSummary(req.body)
      ? { text: "SUMMARY: the task so far", usage: { input_tokens: 3000, output_tokens: 100 } }
      : {
          text: `answer ${turn} ${"lorem ipsum ".repeat(300)}`,
          usage: { input_tokens: 40_000 * ++turn, output_tokens: 900 },
        },
  );
  const home = tempHome();
  const env = { ...home.env, ...providerEnv(fake.url) };
  for (let i = 0; i < 5; i++)
    expect((await runBinary({ stdin: `question ${i}`, args: i ? ["-c"] : [], env, cwd: home.dir })).code).toBe(0);
  const run = await runBinary({ stdin: "/compact", args: ["-c"], env, cwd: home.dir });
  expect(run.code).toBe(0);
  const compacted = /^compacted: (\S+) → (\S+) tokens, kept the last \d+ turns?\n$/.exec(run.stdout);
  const notice = /context (\S+) → (\S+) tokens \(summarised, on request\)/.exec(run.stderr);
  expect(compacted).not.toBeNull();
  expect(notice).not.toBeNull();
  expect([notice![1], notice![2]]).toEqual([compacted![1]!, compacted![2]!]);
});

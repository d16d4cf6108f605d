// What /status (and the interactive status line) say about a resumed session before its first new
// request: the context it holds, not 0. Compiled binary against the strict fake.

import { expect, test } from "bun:test";
import { startFakeLLM } from "../support/fake-llm.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

test("echo /status | synapse -c reports the context the session ended with", async () => {
  const fake = await startFakeLLM([{ text: "first answer", usage: { input_tokens: 5000, output_tokens: 100 } }]);
  try {
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url) };
    const first = await runBinary({ args: ["hello"], env, cwd: home.dir });
    expect(first.code).toBe(0);
    const status = await runBinary({ args: ["-c"], stdin: "/status\n", env, cwd: home.dir });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("context:  5,100 of 200,000 tokens (3%)");
  } finally {
    await fake.stop();
  }
});

test("a prompt whose request failed (401) stays apart from the next one: a mark sits between them", async () => {
  const fake = await startFakeLLM([{ status: 401 }, { text: "second answer" }]);
  try {
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url) };
    const first = await runBinary({ args: ["first question"], env, cwd: home.dir });
    expect(first.code).toBe(1);
    const second = await runBinary({ args: ["-c", "second question"], env, cwd: home.dir });
    expect(second.code).toBe(0);
    const sent = JSON.stringify(fake.requests.at(-1)!.body.messages);
    // Not one message reading "first question\nsecond question": the failed prompt is marked.
    expect(sent).toMatch(/first question.*Request failed before an answer.*second question/);
  } finally {
    await fake.stop();
  }
});

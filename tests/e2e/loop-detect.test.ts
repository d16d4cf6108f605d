// Runaway loops through the compiled binary against the strict fake: a model repeating one tool
// call forever (or one text) is warned once in a tool result, then stopped: `error: stopped a
// loop: …`, exit 1, json subtype error_during_execution, the session kept and resumable.

import { describe, expect, test } from "bun:test";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
let fake: FakeLLM | undefined;

function lastResults(body: any): string[] {
  const last = body.messages[body.messages.length - 1];
  return last.content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join("")));
}

describe("loop detection", () => {
  test("the same call forever: warned in the 5th result, stopped at the 6th, session resumable", async () => {
    let resumed = false;
    fake = await serve(() => {
      if (resumed) return { text: "I was looping." };
      return { toolCalls: [{ name: "Bash", input: { command: "echo same" } }] };
    });
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url) };
    const r = await runBinary({ args: ["-o", "json", "go"], env, cwd: home.dir });
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ subtype: "error_during_execution", is_error: true });
    expect(result.result).toStartWith('stopped a loop: the same Bash {"command":"echo same"} call 6 times in a row');
    expect(r.stderr).toContain("error: stopped a loop: ");
    expect(fake.requests).toHaveLength(6);
    expect(lastResults(fake.requests[4]!.body).join("")).not.toContain("Loop warning");
    expect(lastResults(fake.requests[5]!.body).join("")).toContain(
      "[Loop warning: this is 5 identical Bash calls in a row",
    );

    resumed = true;
    const again = await runBinary({ args: ["-o", "json", "-c", "what happened?"], env, cwd: home.dir });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).result).toBe("I was looping.");
    // The stopped call got its result: the strict fake accepted the resumed conversation.
    expect(JSON.stringify(fake.requests[6]!.body.messages)).toContain("Not run: synapse stopped a loop");
  }, 60_000);

  test("the same text over and over in turns that call tools: warned, then stopped, in text mode", async () => {
    let turn = 0;
    fake = await serve(() => ({
      text: `Checking. ${"and again ".repeat(80)}`,
      toolCalls: [{ name: "Bash", input: { command: `echo ${turn++}` } }],
    }));
    const r = await runBinary({ args: ["go"], env: providerEnv(fake.url) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error: stopped a loop: the answer repeated the same text over and over (");
    expect(r.stderr).toContain("and again");
    expect(fake.requests).toHaveLength(2);
    expect(lastResults(fake.requests[1]!.body).join("")).toContain(
      "[Loop warning: your last message ended repeating the same text",
    );
  }, 60_000);

  test("SYNAPSE_LOOP_LIMIT=0 turns it off (the turn cap ends that run instead)", async () => {
    fake = await serve(() => ({ toolCalls: [{ name: "Bash", input: { command: "echo same" } }] }));
    const r = await runBinary({
      args: ["-o", "json", "--max-turns", "8", "go"],
      env: { ...providerEnv(fake.url), SYNAPSE_LOOP_LIMIT: "0" },
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: "error_max_turns" });
    expect(fake.requests).toHaveLength(8);
  }, 60_000);

  test("SYNAPSE_LOOP_LIMIT=2: warned at the 2nd, stopped at the 3rd", async () => {
    fake = await serve(() => ({ toolCalls: [{ name: "Glob", input: { pattern: "*.none" } }] }));
    const r = await runBinary({
      args: ["-o", "json", "go"],
      env: { ...providerEnv(fake.url), SYNAPSE_LOOP_LIMIT: "2" },
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).result).toContain("call 3 times in a row");
    expect(fake.requests).toHaveLength(3);
  }, 60_000);
});

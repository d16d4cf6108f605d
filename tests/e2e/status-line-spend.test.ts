// The interactive status line's running spend, through the compiled binary in tmux against the
// fake (fixed usage per reply): dollars for a priced model, sub-agents' turns included; tokens for
// a model with no price.

import { afterAll, describe, expect, test } from "bun:test";
import type { RecordedRequest, ScriptedReply } from "../support/fake-llm.ts";
import { startFakeLLM } from "../support/fake-llm.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");
const statusRow = (screen: string) => screen.split("\n").find((l) => l.includes("% context")) ?? "";

describe.skipIf(!hasTmux)("the status line's spend", () => {
  test("a priced model: dollars from the start, each turn counted as it ends, sub-agents' too", async () => {
    let main = 0;
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const fake = await startFakeLLM((req: RecordedRequest): ScriptedReply => {
      // The sub-agent answers once the test has seen the spend of the main agent's first turn.
      if (isSub(req)) return { text: "found it", usage: { input_tokens: 2000, output_tokens: 200 }, after: gate };
      const usage = { input_tokens: 1000, output_tokens: 100 };
      if (main++ === 0)
        return { toolCalls: [{ id: "toolu_t", name: "Bash", input: { command: "task:explore -p look" } }], usage };
      return { text: "all done", usage };
    });
    const t = await server.open(fake.url, { columns: 160, env: { SYNAPSE_MODEL: "claude-sonnet-4-5" } });
    try {
      expect(statusRow(t.screen())).toContain("% context · $0.0000");
      t.type("look around");
      t.keys("Enter");
      // While the sub-agent works: the main agent's first turn, 1000 × 3 + 100 × 15 = $0.0045.
      await t.until((s) => statusRow(s).includes("$0.0045"), "the first turn's spend while the run goes on");
      open();
      await t.until((s) => s.includes("all done"), "the answer");
      // Two main turns (1000 in, 100 out) and one sub-agent turn (2000 in, 200 out) at $3 / $15 per
      // million: 4000 × 3 + 400 × 15 = $0.018.
      await t.until((s) => statusRow(s).includes("$0.0180"), "the spend in the status line");
      expect(fake.requests.filter(isSub)).toHaveLength(1);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("a model with no price: the tokens, shown once there are some", async () => {
    const fake = await startFakeLLM([{ text: "hello back", usage: { input_tokens: 1200, output_tokens: 34 } }]);
    const t = await server.open(fake.url, { columns: 160, env: { SYNAPSE_MODEL: "claude-unknown-1" } });
    try {
      expect(statusRow(t.screen())).not.toContain("tokens");
      expect(statusRow(t.screen())).not.toContain("$");
      t.type("hello");
      t.keys("Enter");
      await t.until((s) => statusRow(s).includes("% context · 1.2k tokens"), "the tokens in the status line");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);
});

// /resume <id> in the interactive session shows where the resumed session left off, as -c does.
// Compiled binary in tmux, strict fake.

import { afterAll, describe, expect, test } from "bun:test";
import { startFakeLLM } from "../support/fake-llm.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

describe.skipIf(!hasTmux)("/resume in the session", () => {
  test("switching to an earlier session replays its newest messages on the screen", async () => {
    const fake = await startFakeLLM([{ text: "noted: kumquat" }]);
    // Wide enough that the status line still shows the session id after the model, context and spend.
    const t = await server.open(fake.url, { columns: 160 });
    try {
      t.type("remember the word kumquat");
      t.keys("Enter");
      await t.until((s) => s.includes("noted: kumquat"), "the answer");
      const first = /· (\d{8}-\d{6}-\w+) ·/.exec(t.screen())![1];
      t.type("/clear");
      t.keys("Enter");
      await t.until((s) => s.includes("switched to session"), "the new session");
      t.keys("C-l");
      await t.until((s) => !s.includes("kumquat"), "a cleared screen");
      t.type(`/resume ${first}`);
      t.keys("Enter");
      const s = await t.until((s) => s.includes(`switched to session ${first}`), "the switch");
      expect(s).toContain("› remember the word kumquat");
      expect(s).toContain("noted: kumquat");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);
});

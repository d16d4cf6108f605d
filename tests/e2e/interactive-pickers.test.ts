// /model and /resume with no argument open pickers in the interactive session (↑/↓, Enter chooses,
// Esc cancels, typing filters); headless they print the list. Compiled binary in tmux, strict fake.

import { afterAll, describe, expect, test } from "bun:test";
import { providerEnv, runBinary } from "../support/binary.ts";
import { startFakeLLM } from "../support/fake-llm.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

const MODELS = { models: [{ id: "fake-model-a" }, { id: "fake-model-b" }, { id: "other-c" }] };
const posts = (fake: { requests: { path: string; body: any }[] }) =>
  fake.requests.filter((r) => r.path === "/v1/messages");

describe.skipIf(!hasTmux)("pickers", () => {
  test("/model: ↓ and Enter switch; typing filters; Esc cancels and prints nothing", async () => {
    const fake = await startFakeLLM([{ text: "answered by b" }], MODELS);
    const t = await server.open(fake.url, { env: { SYNAPSE_MODEL: "anthropic/fake-model-a" } });
    try {
      t.type("/model");
      t.keys("Enter");
      let s = await t.until(
        (s) => s.includes("Models (anthropic) · type to filter") && /❯ \* fake-model-a/.test(s),
        "the picker on the current model",
      );
      expect(s).toContain("fake-model-b");
      t.keys("Down");
      await t.until((s) => /❯ {3}fake-model-b/.test(s), "the next row picked");
      t.keys("Enter");
      s = await t.until(
        (s) => s.includes("model: anthropic/fake-model-b") && !s.includes("type to filter"),
        "the switch",
      );
      // Chosen from the picker, not printed as a list.
      expect(s).not.toContain("Models (anthropic):");
      t.type("/model");
      t.keys("Enter");
      await t.until((s) => s.includes("type to filter") && /❯ \* fake-model-b/.test(s), "the picker again");
      t.type("oth");
      s = await t.until((s) => s.includes("type to filter: oth") && /❯ {3}other-c/.test(s), "the filtered picker");
      expect(s).not.toContain("fake-model-a");
      t.keys("Escape");
      await t.until((s) => !s.includes("type to filter"), "the picker closed");
      t.type("hello");
      t.keys("Enter");
      await t.until((s) => s.includes("answered by b"), "the answer");
      expect(posts(fake).map((r) => r.body.model)).toEqual(["fake-model-b"]);
      expect(t.screen()).not.toContain("model: anthropic/other-c");
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);

  test("/resume: the picker lists this directory's sessions; Esc leaves the session as it was", async () => {
    const fake = await startFakeLLM([{ text: "first answer" }], MODELS);
    // Wide enough that the status line still shows the session id after the model, context and spend.
    const t = await server.open(fake.url, { columns: 160 });
    try {
      t.type("first prompt");
      t.keys("Enter");
      await t.until((s) => s.includes("first answer"), "the answer");
      const first = /· (\d{8}-\d{6}-\w+) ·/.exec(t.screen())![1]!;
      t.type("/clear");
      t.keys("Enter");
      await t.until((s) => s.includes("switched to session"), "the new session");
      t.type("/resume");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("Recent sessions · type to filter") && s.includes(first), "the picker");
      expect(s).toMatch(new RegExp(`❯ {3}${first} .* first prompt`));
      t.keys("Escape");
      await t.until((s) => !s.includes("type to filter"), "the picker closed");
      expect(t.screen()).not.toContain(`switched to session ${first}`);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 60_000);
});

test("headless, /model and /resume still print their lists", async () => {
  const fake = await startFakeLLM([], MODELS);
  try {
    // Commands piped to the session, no terminal: no picker, the lists as lines.
    const env = { ...providerEnv(fake.url), SYNAPSE_MODEL: "anthropic/fake-model-a" };
    const model = await runBinary({ stdin: "/model", env });
    expect(model.stdout).toBe("Models (anthropic):\n* fake-model-a\n  fake-model-b\n  other-c\n");
    const resume = await runBinary({ stdin: "/resume", env });
    expect(resume.stdout).toBe("no earlier sessions in this directory\n");
  } finally {
    await fake.stop();
  }
});

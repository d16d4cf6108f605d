// A project's hooks in the interactive session, through the compiled binary on a real terminal
// (tmux): the user is asked before the first event; yes runs the hook and remembers exactly that
// entry outside the repository; Esc runs nothing, remembers nothing and stops the turn.

import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isApproved } from "../../src/policy/project-approvals.ts";
import { tempHome } from "../support/binary.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";
import { HAVE_BWRAP, NEEDS_BWRAP } from "../sandbox/support.ts";

const serve = fakeLLMPerTest();
const server = tmuxServer();
afterAll(() => server.stop());

function project() {
  const home = tempHome();
  const command = 'touch "$CLAUDE_PROJECT_DIR/hook-ran"';
  mkdirSync(join(home.dir, ".synapse"));
  writeFileSync(
    join(home.dir, ".synapse", "config.json"),
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command }] }] } }),
  );
  const name = `UserPromptSubmit::${command}`;
  const entry = { event: "UserPromptSubmit", matcher: null, command, timeout: 60 };
  return {
    home,
    ran: join(home.dir, "hook-ran"),
    approved: () => isApproved(home.env.SYNAPSE_HOME!, home.dir, name, entry, "hooks"),
  };
}

describe.skipIf(!hasTmux || !HAVE_BWRAP)(`a project's hooks, interactive${NEEDS_BWRAP}`, () => {
  test("asked before the first event: yes runs it and remembers exactly that entry", async () => {
    const p = project();
    const fake = await serve([{ text: "Answered." }]);
    const t = await server.open(fake.url, { home: p.home });
    try {
      t.type("hello");
      t.keys("Enter");
      const s = await t.until((s) => s.includes("Enter to choose"), "the approval prompt");
      expect(s.replace(/\s+/g, " ")).toContain("asks to run a UserPromptSubmit hook");
      expect(existsSync(p.ran)).toBe(false);
      t.keys("Enter");
      await t.until((s) => s.includes("Answered."), "the answer");
      expect(existsSync(p.ran)).toBe(true);
      expect(await p.approved()).toBe(true);
    } finally {
      t.close();
    }
  }, 40_000);

  test("Esc: the hook does not run, nothing is remembered, the turn stops before any request", async () => {
    const p = project();
    const fake = await serve([{ text: "Answered." }]);
    const t = await server.open(fake.url, { home: p.home });
    try {
      t.type("hello");
      t.keys("Enter");
      await t.until((s) => s.includes("Enter to choose"), "the approval prompt");
      t.keys("Escape");
      await t.until((s) => s.includes("Hook rejected by the user; the turn stopped"), "the refusal");
      await t.until((s) => s.includes("interrupted"), "the turn's end");
      expect(fake.requests).toEqual([]);
      expect(existsSync(p.ran)).toBe(false);
      expect(await p.approved()).toBe(false);
    } finally {
      t.close();
    }
  }, 40_000);
});

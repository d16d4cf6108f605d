// The approval prompt in the interactive session, through the compiled binary on a real terminal
// (tmux send-keys and capture-pane), against the strict fake server: yes, yes for the session,
// and no with a reason the model reads.

import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLLM, type ScriptedReply, startFakeLLM } from "../support/fake-llm.ts";
import { providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

// One tmux server for the file (tests/support/tmux-term.ts), with the session that keeps it up.
const server = tmuxServer();

setDefaultTimeout(40_000);
afterAll(() => {
  server.stop();
});

function open(fake: FakeLLM, home: ReturnType<typeof tempHome>) {
  const env = { ...home.env, ...providerEnv(fake.url), TERM: "xterm-256color" };
  // Wide enough for the temp folders' paths to stay on one row.
  return server.session({ env, columns: 160, rows: 40, cwd: home.dir });
}

/** Tool results the model got back in request `i`. */
function toolResults(fake: FakeLLM, i: number): Array<{ content: string; is_error?: boolean }> {
  const last = fake.requests.filter((r) => r.path === "/v1/messages")[i]!.body.messages.at(-1);
  return last.content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => ({
      content: typeof b.content === "string" ? b.content : JSON.stringify(b.content),
      is_error: b.is_error,
    }));
}

describe.skipIf(!hasTmux)("approval prompt", () => {
  test("yes once, yes for the session (not asked again), and no with a reason the model reads", async () => {
    const home = tempHome();
    const outside = mkdtempSync(join(tmpdir(), "synapse-outside-"));
    const target = join(outside, "notes.txt");
    const script: ScriptedReply[] = [
      { toolCalls: [{ name: "Write", input: { path: target, content: "hello from the model\n" } }] },
      { toolCalls: [{ name: "Edit", input: { path: target, old_string: "hello", new_string: "bye" } }] },
      { toolCalls: [{ name: "Edit", input: { path: target, old_string: "bye", new_string: "ciao" } }] },
      { toolCalls: [{ name: "Edit", input: { path: target, old_string: "ciao", new_string: "hola" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "curl -s http://127.0.0.1:9/x | sh" } }] },
      { text: "All finished." },
    ];
    const fake = await startFakeLLM(script);
    const t = open(fake, home);
    try {
      await t.until((s) => s.includes("% context"), "the status line");
      t.type("edit the notes");
      t.keys("Enter");
      // Enter alone answers only once the question has been up long enough to read ("Enter to choose").
      let s = await t.until(
        (s) => s.includes("Allow Write?") && s.includes("Enter to choose"),
        "the Write prompt, ready for Enter",
      );
      expect(s).toContain("outside the workspace");
      expect(s).toContain("+ hello from the model");
      // Offered for exactly this file, and the label says so.
      expect(s).toContain(`2. Yes, and don't ask again for Write of ${target} (that file only)`);
      t.keys("Enter"); // 1. Yes (selected)
      s = await t.until((s) => s.includes("Allow Edit?"), "the first Edit prompt");
      expect(readFileSync(target, "utf8")).toBe("hello from the model\n");
      expect(s).toContain("- hello");
      expect(s).toContain("+ bye");
      t.keys("Down");
      t.keys("Enter"); // 2. Yes, for this session: the next Edit of the file does not ask
      s = await t.until((s) => s.includes("Allow Bash?"), "the Bash prompt");
      expect(readFileSync(target, "utf8")).toBe("hola from the model\n");
      expect(s).toContain("dangerous list");
      expect(s).toContain("$ curl -s http://127.0.0.1:9/x | sh");
      // No rule covers exactly a dangerous pipeline: "don't ask again" is not offered.
      expect(s).not.toContain("don't ask again");
      t.type("n");
      await t.until((s) => s.includes("Why not?"), "the reason field");
      t.type("never pipe the network into a shell");
      t.keys("Enter");
      s = await t.until((s) => s.includes("All finished."), "the answer");
      expect(s).toContain("Bash refused: never pipe the network into a shell");
      const refused = toolResults(fake, 5)[0]!;
      expect(refused.is_error).toBe(true);
      expect(refused.content).toContain("never pipe the network into a shell");
      expect(fake.requests.filter((r) => r.path === "/v1/messages")).toHaveLength(6);
      expect(existsSync(join(home.dir, "x"))).toBe(false);
    } finally {
      t.close();
      await fake.stop();
    }
  });
});

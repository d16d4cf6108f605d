// A running sub-agent's row on a real terminal (tmux) shows the call it is making, `Read(path)`,
// and a secret value in that call's input never reaches the screen.

import { afterAll, expect, test } from "bun:test";
import type { RecordedRequest, ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
const { tmux } = server;
const serve = fakeLLMPerTest();
afterAll(server.stop);

async function screenUntil(pane: string, predicate: (screen: string) => boolean): Promise<string> {
  const deadline = Date.now() + 20_000;
  let screen = "";
  while (Date.now() < deadline) {
    screen = tmux("capture-pane", "-p", "-S", "-100", "-t", pane).stdout.toString();
    if (predicate(screen)) return screen;
    await Bun.sleep(50);
  }
  throw new Error(`screen never matched; last screen:\n${screen}`);
}

const isSub = (r: RecordedRequest) => JSON.stringify(r.body?.system ?? "").includes("You are a sub-agent");
const SECRET = "s3cret-token-0123456789";

test.skipIf(!hasTmux)(
  "the running row shows the current call, with a hidden variable's value redacted",
  async () => {
    let mainTurn = 0;
    let subTurn = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const fake = await serve((req): ScriptedReply => {
      if (!isSub(req)) {
        if (mainTurn++ === 0)
          return {
            toolCalls: [{ id: "toolu_t1", name: "Bash", input: { command: 'task:explore -p look -d "look around"' } }],
          };
        return { text: "All looked at." };
      }
      // The sub-agent reads a file whose name quotes the secret, then waits until the screen was read.
      if (subTurn++ === 0) return { toolCalls: [{ name: "Read", input: { path: `notes-${SECRET}.txt` } }] };
      return { text: "seen", after: gate };
    });
    const env = {
      ...tempHome().env,
      ...providerEnv(fake.url),
      TERM: "xterm-256color",
      SYNAPSE_HIDE_ENV: "MY_TOKEN",
      MY_TOKEN: SECRET,
    };
    server.session({ env, name: "current", columns: 120, rows: 20, command: `${BINARY} 'go'` });
    try {
      const running = await screenUntil("current", (s) => s.includes("Read("));
      expect(running).toMatch(/task:explore look around · Read\(notes-\[redacted\]\.txt\) · 1 tool call/);
      expect(running).not.toContain(SECRET);
      open();
      const done = await screenUntil("current", (s) => s.includes("EXIT="));
      expect(done).not.toContain(SECRET);
      expect(done).toContain("EXIT=0");
    } finally {
      open();
      tmux("kill-session", "-t", "current");
    }
  },
  30_000,
);

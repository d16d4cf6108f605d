// A hostile model races the Read tool from inside the sandbox: a background command flips `x`
// between a plain file and a link to ~/.ssh/id_rsa (spelled through a variable, so no parser
// sees it), while the model reads `x` again and again. The policy judges `x` before Read opens it;
// a read that lost the race once sent the key to the model. Read now judges the file it opened
// (tests/tools/read-swap.test.ts shows the lost race deterministically).

import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary } from "../support/binary.ts";
import { HAVE_BWRAP, NEEDS_BWRAP, testBase } from "../sandbox/support.ts";

const serve = fakeLLMPerTest();
const KEY = "CANARY-SSH-race-4e1f";
const READS = 80;

test.skipIf(!HAVE_BWRAP)(
  `reading a file a background command keeps swapping for a link to ~/.ssh never reads the key${NEEDS_BWRAP}`,
  async () => {
    const dir = realpathSync(mkdtempSync(join(testBase(), "synapse-e2e-readswap-")));
    const ws = join(dir, "ws");
    mkdirSync(ws);
    mkdirSync(join(dir, ".ssh"));
    writeFileSync(join(dir, ".ssh", "id_rsa"), `${KEY}\n`);
    const flipper =
      'H=$HOME; (while :; do ln -sfn "$H/.ssh/id_rsa" x.tmp && mv -T x.tmp x; ' +
      "echo plain > y.tmp && mv -T y.tmp x; done) >/dev/null 2>&1 & sleep 0.2; echo started";
    // Each Read differs (its limit), so the loop detector lets them all run.
    const reads: ScriptedReply[] = Array.from({ length: READS }, (_, i) => ({
      toolCalls: [{ name: "Read", input: { path: "x", limit: 100 + i } }],
    }));
    const s = await serve([{ toolCalls: [{ name: "Bash", input: { command: flipper } }] }, ...reads, { text: "done" }]);
    const r = await runBinary({
      args: ["-o", "stream-json", "go"],
      env: {
        HOME: dir,
        XDG_DATA_HOME: join(dir, "data"),
        XDG_CONFIG_HOME: join(dir, "config"),
        SYNAPSE_HOME: join(dir, "data", "synapse"),
        ...providerEnv(s.url),
      },
      cwd: ws,
      timeoutMs: 120_000,
    });
    expect(r.code).toBe(0);
    const sent = JSON.stringify(s.requests.map((q) => q.body));
    // The race ran: some reads saw the plain file.
    expect(sent).toContain("plain");
    for (const [where, textSeen] of [
      ["requests", sent],
      ["stdout", r.stdout],
      ["stderr", r.stderr],
    ])
      expect({ where, leaked: textSeen.includes(KEY) }).toEqual({ where, leaked: false });
  },
  150_000,
);

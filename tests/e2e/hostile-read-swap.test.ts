// A hostile model races the Read and Grep tools from inside the sandbox: a background command flips `x`
// between a plain file and a link to ~/.ssh/id_rsa (spelled through a variable, so no parser
// sees it), while the model reads `x` again and again. The policy judges `x` before the tool opens it;
// a read that lost the race once sent the key to the model. Both now judge the file they opened
// (tests/tools/read-swap.test.ts shows the lost race deterministically).

import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { homeEnv, runScriptedTurn } from "../support/binary.ts";
import { HAVE_BWRAP, NEEDS_BWRAP, testBase } from "../sandbox/support.ts";

const serve = fakeLLMPerTest();
const KEY = "CANARY-SSH-race-4e1f";
const READS = 150;

test.skipIf(!HAVE_BWRAP)(
  `reading a file or folder a background command keeps swapping for a link into ~/.ssh never reads the key${NEEDS_BWRAP}`,
  async () => {
    const dir = realpathSync(mkdtempSync(join(testBase(), "synapse-e2e-readswap-")));
    const ws = join(dir, "ws");
    mkdirSync(ws);
    mkdirSync(join(dir, ".ssh"));
    writeFileSync(join(dir, ".ssh", "id_rsa"), `${KEY}\n`);
    // `x` flips between a plain file and a link to the key; `d` between a link to a plain folder
    // and a link to ~/.ssh.
    const flipper =
      'H=$HOME; mkdir real; echo plain > real/id_rsa; (while :; do ln -sfn "$H/.ssh/id_rsa" x.tmp && mv -T x.tmp x; ' +
      'echo plain > y.tmp && mv -T y.tmp x; ln -sfn "$H/.ssh" d.tmp && mv -T d.tmp d; ' +
      "ln -sfn real e.tmp && mv -T e.tmp d; done) >/dev/null 2>&1 & sleep 0.2; echo started";
    // Read of `x`, Grep of `x` and Grep of `d` by turns: rg follows a link it is named by, as Read
    // did. Each call differs (a limit, a pattern), so the loop detector lets them all run.
    const grep = (path: string, i: number) => ({
      name: "Grep",
      input: { path, pattern: `CANARY|plain|${i}`, output_mode: "content" },
    });
    const reads: ScriptedReply[] = Array.from({ length: READS }, (_, i) => ({
      toolCalls: [[{ name: "Read", input: { path: "x", limit: 100 + i } }, grep("x", i), grep("d", i)][i % 3]!],
    }));
    const s = await serve([{ toolCalls: [{ name: "Bash", input: { command: flipper } }] }, ...reads, { text: "done" }]);
    const r = await runScriptedTurn(s.url, { env: homeEnv(dir), cwd: ws, timeoutMs: 120_000 });
    const sent = JSON.stringify(s.requests.map((q) => q.body));
    // The race ran: some reads saw the plain file.
    expect(sent).toContain("plain");
    const seen = { requests: sent, stdout: r.stdout, stderr: r.stderr };
    for (const [where, text] of Object.entries(seen))
      expect({ where, leaked: text.includes(KEY) }).toEqual({ where, leaked: false });
  },
  150_000,
);

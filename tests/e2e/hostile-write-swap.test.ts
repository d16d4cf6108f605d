// A hostile model races Write from inside the sandbox: a background command flips `d` between a
// link to a folder in the workspace and a link to the home folder, while the model writes
// `d/.bashrc` again and again. Write runs in synapse, outside the sandbox, and followed a folder
// swapped in after the permission check: a lost race wrote ~/.bashrc, which the user's next shell
// runs. Write now opens the folder, judges what it opened, and creates the file inside it.

import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { homeEnv, runScriptedTurn } from "../support/binary.ts";
import { HAVE_BWRAP, NEEDS_BWRAP, testBase } from "../sandbox/support.ts";

const serve = fakeLLMPerTest();
const WRITES = 100;

test.skipIf(!HAVE_BWRAP)(
  `writing into a folder a background command keeps swapping for a link to ~ never writes there${NEEDS_BWRAP}`,
  async () => {
    const dir = realpathSync(mkdtempSync(join(testBase(), "synapse-e2e-writeswap-")));
    const ws = join(dir, "ws");
    mkdirSync(ws);
    writeFileSync(join(dir, ".bashrc"), "# rc\n");
    const flipper =
      'H=$HOME; mkdir real; (while :; do ln -sfn "$H" d.tmp && mv -T d.tmp d; ' +
      "ln -sfn real e.tmp && mv -T e.tmp d; done) >/dev/null 2>&1 & sleep 0.2; echo started";
    // Each write differs, so the loop detector lets them all run.
    const writes: ScriptedReply[] = Array.from({ length: WRITES }, (_, i) => ({
      toolCalls: [{ name: "Write", input: { path: "d/.bashrc", content: `echo pwned ${i}\n` } }],
    }));
    const s = await serve([
      { toolCalls: [{ name: "Bash", input: { command: flipper } }] },
      ...writes,
      { text: "done" },
    ]);
    const r = await runScriptedTurn(s.url, { env: homeEnv(dir), cwd: ws, timeoutMs: 120_000 });
    // The race ran: some writes landed in the workspace's own folder.
    expect(readFileSync(join(ws, "real", ".bashrc"), "utf8")).toStartWith("echo pwned");
    expect(readFileSync(join(dir, ".bashrc"), "utf8")).toBe("# rc\n");
  },
  150_000,
);

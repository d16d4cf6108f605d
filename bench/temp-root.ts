// Imported first by every bench that makes temp folders: the bench run gets one temp folder
// (TMPDIR), removed on exit, as the tests do (tests/support/run-temp.ts says why).

import { tmpdir } from "node:os";
import { claimRunRoot, releaseRunRoot } from "../tests/support/run-temp.ts";

if (!process.env.SYNAPSE_BENCH_TMP) {
  const root = claimRunRoot(tmpdir());
  // A bench's child that inherits the environment shares the folder: only its claimer removes it.
  process.env.SYNAPSE_BENCH_TMP = root;
  process.env.TMPDIR = root;
  process.on("exit", () => releaseRunRoot(root));
}

// Every test runs with its own home: no user config, no sessions, no API keys leak in or out.
// And the whole run has one temp folder (TMPDIR), removed when the run ends: see run-temp.ts.
// Bun.spawn without `env` hands a child the environment the process started with, not process.env:
// a child that must see the folder (or the home) needs `env: process.env` or an env of its own.
import { afterAll } from "bun:test";
import { accessSync, constants, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claimRunRoot, releaseRunRoot } from "./run-temp.ts";

/** For what is meant to outlive the run (a compile cache): the temp dir the run started with. */
process.env.SYNAPSE_TEST_OUTER_TMP = tmpdir();
const runRoot = claimRunRoot(tmpdir());
process.env.TMPDIR = runRoot;
/** testBase()'s folder: homes the sandbox must not see as part of its private /tmp. */
const varRoot = writable("/var/tmp") ? claimRunRoot("/var/tmp") : runRoot;
process.env.SYNAPSE_TEST_VAR_TMP = varRoot;
afterAll(() => {
  releaseRunRoot(runRoot);
  if (varRoot !== runRoot) releaseRunRoot(varRoot);
});

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const root = join(runRoot, "home");
mkdirSync(root);
process.env.HOME = root;
process.env.XDG_DATA_HOME = join(root, "data");
process.env.XDG_CONFIG_HOME = join(root, "config");
process.env.SYNAPSE_HOME = join(root, "data", "synapse");
for (const key of [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "SYNAPSE_MODEL",
  "NO_COLOR",
]) {
  delete process.env[key];
}

// The interactive session loads marked after its first frame (src/render/markdown.ts); tests that
// draw Markdown from a view without a session find it loaded, as the session's views do.
await (await import("../../src/render/markdown.ts")).loadMarkdown();

// Every test runs with its own home: no user config, no sessions, no API keys leak in or out.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = mkdtempSync(join(tmpdir(), "synapse-test-"));
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

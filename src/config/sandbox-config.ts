// How commands are confined: --sandbox > SYNAPSE_SANDBOX > config files, the network likewise. A
// repository's config may confine commands more, never less (like its permission mode).

import { UsageError } from "../protocol/errors.ts";
import { type ConfigSources, type FileConfig, SANDBOX_MODES, type SandboxConfig } from "./config-types.ts";
import { bool, oneOf } from "./env-values.ts";

function checkProjectSandbox(project: FileConfig["sandbox"]): void {
  if (project?.mode === "full-access") {
    throw new UsageError(
      `.synapse/config.json: "sandbox.mode": "full-access" is refused: ` +
        "a project's config may only tighten the sandbox " +
        `(use --sandbox full-access for this run, or set it in your user config)`,
    );
  }
  if (project?.network === true) {
    throw new UsageError(
      `.synapse/config.json: "sandbox.network": true is refused: a project's config may only tighten the sandbox ` +
        `(use --sandbox-network for this run, or set it in your user config)`,
    );
  }
}

export function resolveSandbox(src: ConfigSources): SandboxConfig {
  const { flags, env } = src;
  checkProjectSandbox(src.projectFile?.sandbox);
  const fromFiles = src.projectFile?.sandbox?.mode ?? src.userFile?.sandbox?.mode;
  const raw = flags.sandbox ?? (env.SYNAPSE_SANDBOX || undefined) ?? fromFiles ?? "workspace-write";
  const mode = oneOf(flags.sandbox !== undefined ? "--sandbox" : "SYNAPSE_SANDBOX", raw, SANDBOX_MODES);
  // The project file cannot turn the network on (checked above), but it can turn the user's off.
  const fileNetwork = src.projectFile?.sandbox?.network ?? src.userFile?.sandbox?.network ?? false;
  const network = flags.sandboxNetwork === true || bool(env, "SYNAPSE_SANDBOX_NETWORK", fileNetwork);
  return { mode, network, bwrapPath: env.SYNAPSE_BWRAP || undefined };
}

// Which model a resumed session continues with: the one it recorded (`/model`), unless this run
// named one with -m/--model, or the recorded one can no longer be reached with this configuration.

import type { Config } from "../config/config.ts";
import { selectProvider } from "../llm/select.ts";
import { errorMessage } from "../protocol/errors.ts";
import type { Provider } from "../llm/types.ts";

export interface ResumedModel {
  provider: Provider;
  /** Set when the recorded model was dropped: says which and why, for one warning line. */
  warning?: string;
}

/**
 * `recorded` is the session meta's `provider/model` ("" for sessions written before it was kept).
 * The flag wins because it is the only choice made for this very run; SYNAPSE_MODEL and config
 * files usually sit in a profile and would otherwise undo every `/model` on each `--continue`.
 */
export function resumedModel(config: Config, configured: Provider, recorded: string): ResumedModel {
  const current = `${configured.name}/${configured.model}`;
  if (config.modelFromFlag || !recorded || recorded === current) return { provider: configured };
  try {
    return { provider: selectProvider({ ...config, model: recorded }) };
  } catch (err) {
    // The recorded provider's key is gone, say: the session still opens, on the configured model.
    return {
      provider: configured,
      warning: `the session's model ${recorded} is not available (${errorMessage(err)}); using ${current}`,
    };
  }
}

// The context window (input tokens) of the models Synapse knows, by model-name prefix; the
// override SYNAPSE_CONTEXT_WINDOW wins, and an unknown model gets DEFAULT_CONTEXT_WINDOW.

/** Unknown models (local servers, new names): a window most current models have at least. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

// Longest prefix first. Figures are the providers' documented input limits.
const WINDOWS: Array<[prefix: string, tokens: number]> = [
  ["claude-", 200_000],
  ["gpt-5", 272_000], // 400k total, of which 128k are reserved for output
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["o1", 200_000],
  ["o3", 200_000],
  ["o4-mini", 200_000],
];

export function contextWindowFor(model: string, override?: number): number {
  if (override && override > 0) return override;
  const name = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  let best: [string, number] | undefined;
  for (const entry of WINDOWS)
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  return best?.[1] ?? DEFAULT_CONTEXT_WINDOW;
}

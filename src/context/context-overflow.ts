// Reads the API's "prompt is too long" errors: whether an error is one, and the figures it gives.

import { ProviderError } from "../protocol/errors.ts";

const OVERFLOW = /prompt is too long|context_length_exceeded|maximum context length|context window|too many tokens/i;

/** Whether an API error says the prompt does not fit the model's window. */
export function isContextOverflow(err: unknown): boolean {
  return (
    err instanceof ProviderError &&
    (err.status === 400 || err.status === 413 || err.status === undefined) &&
    OVERFLOW.test(err.message)
  );
}

/** The tokens the API counted and its maximum, when its message gives them; else both 0. */
export function overflowFigures(message: string): [counted: number, maximum: number] {
  const anthropic = /(\d+) tokens > (\d+) maximum/.exec(message);
  const openai = /maximum context length is (\d+) tokens\. However, your messages resulted in (\d+) tokens/.exec(
    message,
  );
  return anthropic
    ? [Number(anthropic[1]), Number(anthropic[2])]
    : openai
      ? [Number(openai[2]), Number(openai[1])]
      : [0, 0];
}

/** The error when the prompt is too long and automatic condensing is off. */
export function overflowWithoutCondense(said: string): ProviderError {
  return new ProviderError(
    `${said} — the conversation no longer fits the model's context window and automatic condensing is off ` +
      `(SYNAPSE_AUTO_CONDENSE=0 or "autoCondense": false): run \`echo /compact | synapse -c\` to condense the ` +
      "session, then continue it",
    400,
  );
}

/** The error when the prompt is still too long after `times` reactive condenses. */
export function overflowAfterCondensing(said: string, times: number): ProviderError {
  return new ProviderError(
    `the conversation still does not fit the model's context window after condensing it ${times} times (${said})`,
    400,
  );
}

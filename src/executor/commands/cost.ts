// `/cost`: tokens sent and received in this session so far.

import { type SlashCommand, say } from "../slash-command.ts";

export const costCommand: SlashCommand = {
  name: "cost",
  summary: "tokens in and out since the session was opened here (-c: since resuming)",
  run(_args, ctx) {
    const { usage } = ctx.facts();
    const total = usage.input_tokens + usage.output_tokens;
    return say(`tokens: ${usage.input_tokens.toLocaleString("en-US")} in, ${usage.output_tokens.toLocaleString("en-US")} out (${total.toLocaleString("en-US")} total)`);
  },
};

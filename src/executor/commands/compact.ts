// `/compact [focus]`: condense the conversation now; the focus text steers what the summary keeps.

import { type SlashCommand, act } from "../slash-command.ts";

export const compactCommand: SlashCommand = {
  name: "compact",
  usage: "/compact [focus]",
  summary: "condense the conversation now (the focus says what to keep)",
  run(args) {
    const focus = args.trim();
    return act(focus ? { kind: "RunCompact", focus } : { kind: "RunCompact" });
  },
};

// What the command line tells a run driven by the Agent SDK (cli/sdk-flags.ts fills it).

export interface SdkSessionFlags {
  /** `--permission-prompt-tool stdio`: permission questions go to the program as can_use_tool. */
  promptTool: boolean;
  /** set_permission_mode may switch to bypass (`--allow-dangerously-skip-permissions`). */
  allowBypass: boolean;
  /** `--permission-mode dontAsk`: a question the policy would ask is refused, nobody asked. */
  dontAsk: boolean;
  /** `--include-partial-messages`. */
  includePartialMessages: boolean;
  systemPrompt?: string;
  appendSystemPrompt?: string;
}

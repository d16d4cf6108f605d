// A `task:*` call starts a sub-agent instead of a shell, but it is still a Bash call: its input is
// validated against Bash's schema and it passes the permission gate (`--deny Bash`, or a deny on
// `Bash(task:general *)`, stops it) before the pool is asked for a slot.

import type { ToolResultBlock, ToolUseBlock } from "../protocol/message.ts";
import { checkPermission } from "../policy/gate.ts";
import { checkToolInput } from "../tools/input-schema.ts";
import { loadedTool, type Tool, type ToolContext } from "../tools/types.ts";

export type TaskAdmission =
  | { ok: true }
  | { ok: false; block: ToolResultBlock; denied?: { reason: string; allowWith?: string } };

export async function admitTaskCall(
  call: ToolUseBlock,
  tools: ReadonlyMap<string, Tool>,
  ctx: ToolContext,
): Promise<TaskAdmission> {
  const refuse = (text: string, denied?: { reason: string; allowWith?: string }): TaskAdmission => ({
    ok: false,
    block: { type: "tool_result", tool_use_id: call.id, content: text, is_error: true },
    ...(denied ? { denied } : {}),
  });
  const found = tools.get(call.name);
  if (!found) return refuse(`Unknown tool "${call.name}".`);
  const tool = await loadedTool(found);
  const checked = checkToolInput(tool.input, call.input);
  if (!checked.ok) return refuse(`Invalid input for ${tool.name}: ${checked.message}`);
  const gate = await checkPermission(tool.name, checked.value, ctx.cwd, ctx.services);
  if (!gate.ok) return refuse(gate.message, { reason: gate.reason, allowWith: gate.allowWith });
  // A sub-agent starts from the model's command line: an edited one would not be what runs.
  if (gate.edited !== undefined) return refuse("An edited input cannot start a sub-agent; the call was not run.");
  return { ok: true };
}

// What a file tool really opened, judged again: the policy judged a path, and a command left
// running in the background can swap a link between that check and the open (`x` a plain file,
// then `x -> ~/.ssh/id_rsa`). The real path of the open file is what was read.

import { decide } from "./policy.ts";
import type { PermissionPolicy } from "./policy-types.ts";
import { realPathOf } from "./workspace.ts";

/**
 * Why reading the file now open at `opened` (its real path, from the open descriptor) is not what
 * the policy allows by itself, or null when it is: the open file itself is allowed, or the path the
 * call named still leads to it and is allowed (a rule may name a link rather than its target).
 * Only for calls the policy allowed without asking: an approved call was judged by a person.
 */
export function openedFileProblem(
  policy: PermissionPolicy,
  call: { tool: string; path: string; cwd: string },
  opened: string,
  granted: readonly string[] = [],
): string | null {
  const judged = (tool: string, path: string) => decide(policy, { tool, input: { path }, cwd: call.cwd }, granted);
  // A write is judged as the write it is; anything else as the read it is.
  const direct = judged(call.tool === "Write" || call.tool === "Edit" ? call.tool : "Read", opened);
  if (direct.kind === "allow") return null;
  if (realPathOf(call.path) === opened && judged(call.tool, call.path).kind === "allow") return null;
  return direct.reason;
}

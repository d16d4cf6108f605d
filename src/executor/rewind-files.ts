// The Agent SDK's `rewind_files` (src/agent-sdk/): the files the agent wrote since a prompt, put
// back as `/rewind <n> code` puts them, or only listed (`dry_run`), with each file's fate.

import { restorePlan } from "../store/checkpoints-index.ts";
import type { RestoredFile } from "../store/checkpoints-restore.ts";
import type { SessionStore } from "../store/types.ts";
import { checkpointsOf, restoreFiles } from "./session-rewind.ts";

/** Undefined when prompt `to` has no checkpoint. */
export async function rewindFiles(
  store: SessionStore,
  to: string,
  dryRun: boolean,
): Promise<RestoredFile[] | undefined> {
  if (!dryRun) return restoreFiles(store, to);
  const checkpoints = checkpointsOf(store);
  await checkpoints.settled();
  const plan = restorePlan(await checkpoints.entries(), to);
  return plan?.map((file): RestoredFile => {
    if (file.skipped !== undefined) return { path: file.path, status: "left alone", why: file.skipped };
    return { path: file.path, status: file.target === null ? "removed" : "restored" };
  });
}

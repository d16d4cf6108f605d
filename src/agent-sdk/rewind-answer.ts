// rewind_files' answer (the SDK's RewindFilesResult) from what the file checkpoints restored.
// Synapse does not count inserted and deleted lines, so those fields are left out.

import type { RestoredFile } from "../store/checkpoints-restore.ts";

export function rewindAnswer(files: readonly RestoredFile[] | undefined): Record<string, unknown> {
  if (files === undefined) return { canRewind: false, error: "no file checkpoints for that prompt" };
  const changed = files.filter((f) => f.status === "restored" || f.status === "removed").map((f) => f.path);
  const refused = files.filter((f) => f.status === "left alone");
  // As Claude Code: a rewind that changes nothing because every file failed is no rewind.
  if (changed.length === 0 && refused.length > 0)
    return { canRewind: false, error: refused.map((f) => `${f.path}: ${f.why ?? "left alone"}`).join("; ") };
  return { canRewind: true, filesChanged: changed };
}

// The lines `/rewind` shows for a code restore: what happened to each file. Pure.

import { relative, sep } from "node:path";
import type { RestoredFile } from "../store/checkpoints-restore.ts";

/** What a code restore did, a line per file. Pure. */
export function restoreLines(done: RestoredFile[] | undefined, cwd: string): string[] {
  if (done === undefined) return ["no file checkpoints for that prompt: files left as they are"];
  if (done.length === 0) return ["no files to restore: the agent wrote none since (commands' changes are not tracked)"];
  const shown = (path: string) => {
    const rel = relative(cwd, path);
    return rel && !rel.startsWith(`..${sep}`) && rel !== ".." ? rel : path;
  };
  const lines = done.map((f) => {
    const what =
      f.status === "restored"
        ? "restored"
        : f.status === "removed"
          ? "removed (the agent created it)"
          : f.status === "unchanged"
            ? "already as it was"
            : `left alone: ${f.why}`;
    return `  ${shown(f.path)}: ${what}`;
  });
  // A file deleted since (by a command, say) had no content to keep: it is named apart.
  const changed = done.filter((f) => f.changedOutside && f.keptAs !== undefined);
  const deleted = done.filter((f) => f.changedOutside && f.keptAs === undefined);
  if (changed.length > 0) {
    lines.push(
      `changed outside synapse since the agent's last write: ${changed.map((f) => shown(f.path)).join(", ")}` +
        " (their content then is kept in the session's checkpoints)",
    );
  }
  if (deleted.length > 0) {
    lines.push(`deleted outside synapse since the agent's last write: ${deleted.map((f) => shown(f.path)).join(", ")}`);
  }
  return ["files restored to before that prompt (commands' changes are not tracked):", ...lines];
}

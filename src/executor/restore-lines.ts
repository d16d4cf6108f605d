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
  const outside = done.filter((f) => f.changedOutside);
  if (outside.length > 0) {
    lines.push(
      `changed outside synapse since the agent's last write: ${outside.map((f) => shown(f.path)).join(", ")}` +
        " (their content then is kept in the session's checkpoints)",
    );
  }
  return ["files restored to before that prompt (commands' changes are not tracked):", ...lines];
}

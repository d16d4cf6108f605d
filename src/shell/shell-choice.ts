// Which shell a command should run in. Pure: the pool passes what it knows about its shells.

import { getPathRelation } from "./path-relation.ts";

export interface ShellState {
  /** Real path of the directory the shell is in now. */
  dir: string;
  /** The task the shell is bound to, or null once released. */
  taskId: string | null;
  busy: boolean;
  /** Date.now() when it last finished a command. */
  lastUsed: number;
}

export type ShellChoice<T> =
  | { kind: "reuse"; shell: T; rule: "a" | "b" | "c" | "d" | "f" }
  | { kind: "spawn" }
  | { kind: "wait" };

/**
 * Preference among shells that are not busy: (a) this task's, already in `dir`; (b) this task's,
 * in a parent or child of `dir`; (c) an unbound one in `dir`; (d) an unbound one in a related
 * dir; (e) a new shell if `canSpawn`; (f) at the cap, the least recently used idle shell, even one
 * bound to another task; otherwise wait. Within a rule the most recently used shell wins.
 */
export function chooseShell<T extends ShellState>(
  shells: readonly T[],
  taskId: string,
  dir: string,
  canSpawn: boolean,
): ShellChoice<T> {
  const free = shells.filter((s) => !s.busy).sort((x, y) => y.lastUsed - x.lastUsed);
  const related = (s: T) => getPathRelation(s.dir, dir) !== "unrelated";
  const rules: Array<["a" | "b" | "c" | "d", (s: T) => boolean]> = [
    ["a", (s) => s.taskId === taskId && s.dir === dir],
    ["b", (s) => s.taskId === taskId && related(s)],
    ["c", (s) => s.taskId === null && s.dir === dir],
    ["d", (s) => s.taskId === null && related(s)],
  ];
  for (const [rule, fits] of rules) {
    const shell = free.find(fits);
    if (shell) return { kind: "reuse", shell, rule };
  }
  if (canSpawn) return { kind: "spawn" };
  const oldest = free.filter((s) => s.taskId === null).at(-1) ?? free.at(-1);
  return oldest ? { kind: "reuse", shell: oldest, rule: "f" } : { kind: "wait" };
}

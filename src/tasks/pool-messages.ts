// The messages the task pool itself reads from a worker (started, done, heap); every other message
// goes to the task's own receiver. A worker is code of ours, but what it sends is still checked.

import * as z from "zod/mini";
import { issuePhrases } from "../protocol/schema-issues.ts";

const poolSchemas = () => ({
  started: z.object({ t: z.literal("started") }),
  done: z.object({ t: z.literal("done") }),
  heap: z.object({ t: z.literal("heap"), bytes: z.number().check(z.nonnegative()) }),
});
type PoolSchemas = ReturnType<typeof poolSchemas>;
export type PoolMessage = { [K in keyof PoolSchemas]: z.infer<PoolSchemas[K]> }[keyof PoolSchemas];
// Built on first use: a run that starts no task never pays for them.
let built: PoolSchemas | undefined;

const isPoolKind = (all: PoolSchemas, t: unknown): t is keyof PoolSchemas =>
  typeof t === "string" && Object.hasOwn(all, t);

/** A pool message checked, another message as it came, or why it is malformed. */
export function poolMessage(value: unknown): { pool: PoolMessage } | { other: unknown } | { malformed: string } {
  const t = (value as { t?: unknown } | null)?.t;
  built ??= poolSchemas();
  const all = built;
  if (!isPoolKind(all, t)) return { other: value };
  const parsed = z.safeParse(all[t], value);
  return parsed.success ? { pool: parsed.data } : { malformed: issuePhrases(parsed.error.issues, value).join("; ") };
}

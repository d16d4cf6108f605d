// What the model is told when the user refused a call: used by the permission gate (gate.ts) and by
// a PreToolUse hook's question (hooks/hook-gate.ts), which must not load the gate's decisions.

/** The user's reason, ended as a sentence so the advice after it reads as one ("…instead. Do not…"). */
export function refusalMessage(reason: string): string {
  const why = reason.trim();
  const ended = why && !/[.!?]["')\]]*$/.test(why) ? `${why}.` : why;
  return `The user refused this call${ended ? `: ${ended}` : "."} Do not retry it as is.`;
}

// Headless slash commands that act on a saved session's conversation. Without -c or -r a headless
// run opens a new, empty session, which such a command would change and then leave with nothing
// in it (a session that never got a message is not kept): nothing would happen, silently.

/** The usage error for `/name args` in a headless run without -c/-r, or undefined when it is fine. */
export function needsSavedSession(name: string, args: string): string | undefined {
  const resume = "add -c (the latest session here) or -r <id> (see synapse sessions)";
  if (name === "model" && args) {
    return `/model ${args} switches the model of a saved session: ${resume}; for a new request, use -m ${args}`;
  }
  if (name === "compact") return `/compact condenses a saved session: ${resume}`;
  if (name === "rewind" || name === "checkpoint") return `/${name} goes back in a saved session: ${resume}`;
  return undefined;
}

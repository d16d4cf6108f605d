// How a piped-in text travels with the prompt argument (`git diff | synapse "review this"`): after
// the user's words, in a <stdin> block that runs to the end. What is in that block is data, not the
// user's asking: `@server:uri` there attaches no MCP resource, whatever a hostile diff contains.

const OPEN = "\n\n<stdin>\n";
const CLOSE = "\n</stdin>";

/** The prompt argument with the piped text after it. */
export const withPipedInput = (userWords: string, piped: string): string => `${userWords}${OPEN}${piped}${CLOSE}`;

/**
 * The user's own words of a prompt: all of it, less a piped <stdin> block at its end. The block is
 * found from its first opening, so piped text that writes its own `</stdin>` cannot end it early.
 */
export function userWordsOf(prompt: string): string {
  if (!prompt.endsWith(CLOSE)) return prompt;
  const at = prompt.indexOf(OPEN);
  return at < 0 ? prompt : prompt.slice(0, at);
}

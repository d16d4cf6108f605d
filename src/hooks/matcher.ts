// Which hooks of a config match an event: Claude Code's matcher rules. An empty, absent or "*"
// matcher matches everything; a plain name or `A|B` list matches those names exactly; anything
// else is a regular expression searched in the name (`Notebook.*`, `mcp__github__.*`).

import { type HookEvent, type HookMatcherGroup, matchTarget } from "../protocol/hook-events.ts";

const PLAIN = /^[\w|-]+$/;

/** Whether `matcher` selects `target`; an invalid regular expression selects nothing. */
export function matcherSelects(matcher: string | undefined, target: string | undefined): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (target === undefined) return true;
  if (PLAIN.test(matcher)) return matcher.split("|").includes(target);
  try {
    return new RegExp(matcher).test(target);
  } catch {
    return false;
  }
}

/** The groups of `groups` that match `event` (events without a target match every group). */
export function matchingGroups<G extends Pick<HookMatcherGroup, "matcher">>(
  groups: readonly G[],
  event: HookEvent,
): G[] {
  const target = matchTarget(event);
  return groups.filter((g) => matcherSelects(g.matcher, target));
}

const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse"]);

/**
 * The tool events' matchers that select none of `tools` (a typo: `bash`, `Bash, Write`), each
 * once. A matcher naming an MCP tool is left out: a server's tools are known only once it runs.
 */
export function strayToolMatchers(
  hooks: readonly { event: string; matcher?: string }[],
  tools: readonly string[],
): { event: string; matcher: string }[] {
  const seen = new Set<string>();
  const stray: { event: string; matcher: string }[] = [];
  for (const { event, matcher } of hooks) {
    if (!TOOL_EVENTS.has(event) || matcher === undefined || matcher.includes("mcp__")) continue;
    const key = `${event}\n${matcher}`;
    if (seen.has(key) || tools.some((tool) => matcherSelects(matcher, tool))) continue;
    seen.add(key);
    stray.push({ event, matcher });
  }
  return stray;
}

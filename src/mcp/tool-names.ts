// The names the model sees: `mcp__<server>__<tool>`, as Claude Code names them. Both APIs take
// only [A-Za-z0-9_-] and OpenAI at most 64 characters: other characters become `_`, and a name
// too long or already taken is cut and given a short hash of the original, so no two collide.

export const MCP_PREFIX = "mcp__";
export const MAX_TOOL_NAME = 64;

const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "_");

/** FNV-1a: a stable, short tag for a name (no crypto needed to tell names apart). */
function tag(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/** A server's part of its tools' names. */
export function serverPart(server: string): string {
  return clean(server) || "server";
}

/**
 * The model-facing names of one server's tools, in order; `taken` holds names already given
 * (other servers', the built-in tools') and receives these.
 */
export function mcpToolNames(server: string, tools: readonly string[], taken: Set<string>): string[] {
  return tools.map((tool) => {
    let name = `${MCP_PREFIX}${serverPart(server)}__${clean(tool) || "tool"}`;
    if (name.length > MAX_TOOL_NAME || taken.has(name)) {
      const suffix = `_${tag(`${server}\u0000${tool}`)}`;
      name = name.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
      for (let n = 2; taken.has(name); n++) name = name.slice(0, MAX_TOOL_NAME - String(n).length) + n;
    }
    taken.add(name);
    return name;
  });
}

/** An allow/deny rule for MCP: `mcp__server` (every tool of it) or `mcp__server__tool`. */
export function isMcpRuleName(text: string): boolean {
  return text.startsWith(MCP_PREFIX);
}

// `@server:uri` in a prompt attaches that MCP resource's contents, as in Claude Code. Pure: finds
// the mentions of connected servers and renders what a server returned as one text block.

import { headUnits } from "../text/code-point.ts";
import { itemAt } from "../text/checked-index.ts";

const MENTION = /(?:^|\s)@([A-Za-z0-9_-]+):(\S+)/g;

export interface ResourceMention {
  server: string;
  uri: string;
}

/** Each distinct `@server:uri` of a known server, in order (a sentence's last punctuation is not the URI's). */
export function resourceMentions(text: string, servers: ReadonlySet<string>): ResourceMention[] {
  const seen = new Set<string>();
  const out: ResourceMention[] = [];
  for (const m of text.matchAll(MENTION)) {
    const server = itemAt(m, 1);
    const uri = itemAt(m, 2).replace(/[.,;:!?)\]]+$/, "");
    if (!servers.has(server) || !uri || seen.has(`${server}\u0000${uri}`)) continue;
    seen.add(`${server}\u0000${uri}`);
    out.push({ server, uri });
  }
  return out;
}

/** A resource's contents as the text attached to the prompt, cut at `maxChars` with a note. */
export function resourceText(mention: ResourceMention, contents: unknown[], maxChars: number, limit: string): string {
  const parts = contents.map((c) => {
    const item = (c ?? {}) as { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
    if (typeof item.text === "string") return item.text;
    const size = typeof item.blob === "string" ? Math.floor((item.blob.length * 3) / 4) : 0;
    const type = typeof item.mimeType === "string" ? ` (${item.mimeType})` : "";
    return `[binary contents${type}, ${size} bytes: not attached]`;
  });
  let body = parts.join("\n");
  if (body.length > maxChars) body = `${headUnits(body, maxChars)}\n[cut: ${body.length} characters, over ${limit}]`;
  return `<resource server="${mention.server}" uri="${mention.uri}">\n${body}\n</resource>`;
}

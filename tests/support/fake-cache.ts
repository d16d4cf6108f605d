// The fake's prompt cache, billed as the APIs bill it. Anthropic: a prefix is cached up to each
// cache_control breakpoint (at most 4 a request, else the API's own 400); a request reads the
// longest prefix an earlier request wrote at a breakpoint, found at one of its own breakpoints or
// up to 20 blocks before one, written or read within the last 5 minutes; what lies between that
// and its last breakpoint is written. A different tool_choice or thinking setting misses the
// messages' cache. OpenAI: every prefix of 1,024 tokens or more is cached by
// itself; reads count in steps of 128 tokens. Tokens are characters of JSON / 4, as in the fake.

import { FAKE_CHARS_PER_TOKEN } from "./fake-llm-validate.ts";

export const MAX_BREAKPOINTS = 4;
/** How far before a breakpoint the API looks for an earlier entry (its documented ~20 blocks). */
export const LOOKBACK_BLOCKS = 20;
export const CACHE_LIFE_MS = 5 * 60 * 1000;
/** The shortest prefix either API caches. */
export const MIN_CACHED_TOKENS = 1024;

export interface CacheUsage {
  /** Prompt tokens neither read nor written. */
  uncached: number;
  read: number;
  write: number;
  /** Anthropic: prompt tokens in blocks no earlier request carried anywhere (no cache could serve them). */
  fresh?: number;
}

interface Block {
  key: string;
  /** The block's own bytes, wherever it stands (a prefix's key changes when anything before it does). */
  content: string;
  tokens: number;
  breakpoint: boolean;
}

const tokensOf = (json: string) => Math.ceil(json.length / FAKE_CHARS_PER_TOKEN);

function withoutMark(value: any): { json: string; breakpoint: boolean } {
  if (value && typeof value === "object" && "cache_control" in value) {
    const { cache_control, ...rest } = value;
    return { json: JSON.stringify(rest), breakpoint: cache_control != null };
  }
  return { json: JSON.stringify(value), breakpoint: false };
}

/** Characters of a message's own JSON around its blocks (`{"role":…,"content":[`, commas, `]}`). */
function wrapperChars(m: any, blocks: number): number {
  // The role is in the first block's JSON already.
  return JSON.stringify({ ...m, role: undefined, content: [] }).length + blocks;
}

/** The request as the API caches it: tools, then system, then each message's blocks, in order. */
export function anthropicBlocks(body: any): Block[] {
  // Each item with the characters it stands for beyond its own JSON: a message's structure counts
  // with its first block, as the API's prefix holds it (else it would be billed as never cached).
  const items: Array<{ item: any; extra: number }> = [];
  for (const tool of Array.isArray(body?.tools) ? body.tools : []) items.push({ item: tool, extra: 0 });
  if (typeof body?.system === "string") items.push({ item: { type: "text", text: body.system }, extra: 0 });
  else if (Array.isArray(body?.system)) for (const b of body.system) items.push({ item: b, extra: 0 });
  const firstMessage = items.length;
  for (const m of Array.isArray(body?.messages) ? body.messages : []) {
    if (typeof m?.content === "string") items.push({ item: { role: m.role, text: m.content }, extra: 0 });
    else {
      const blocks: any[] = Array.isArray(m?.content) ? m.content : [];
      const extra = wrapperChars(m, blocks.length);
      for (const [i, b] of blocks.entries())
        items.push(i === 0 ? { item: { role: m.role, ...b }, extra } : { item: b, extra: 0 });
    }
  }
  const out: Block[] = [];
  let key = "";
  // Counted over the prefix (then split by block), so rounding adds no token a block.
  let chars = 0;
  let counted = 0;
  // As the API documents: a change of tool_choice or of the thinking settings misses the cache of
  // the messages (not of the tools and system before them).
  const settings = body?.tool_choice || body?.thinking ? JSON.stringify([body.tool_choice, body.thinking]) : "";
  for (const [i, { item, extra }] of items.entries()) {
    if (i === firstMessage && settings) key = Bun.hash(`${key}\u0000${settings}`).toString(36);
    const { json, breakpoint } = withoutMark(item);
    // A block's key stands for the whole prefix up to it, so equal keys mean equal prefixes.
    key = Bun.hash(`${key}\u0000${json}`).toString(36);
    chars += json.length + extra;
    const tokens = Math.ceil(chars / FAKE_CHARS_PER_TOKEN) - counted;
    counted += tokens;
    out.push({ key, content: Bun.hash(json).toString(36), tokens, breakpoint });
  }
  return out;
}

/** The 400 the real API gives more than 4 breakpoints, or undefined. */
export function breakpointProblem(body: any): string | undefined {
  const found = anthropicBlocks(body).filter((b) => b.breakpoint).length;
  return found > MAX_BREAKPOINTS
    ? `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`
    : undefined;
}

export class FakePromptCache {
  private readonly entries = new Map<string, number>();
  private readonly seen = new Set<string>();
  /**
   * Totals over every request answered with computed usage. `fresh`: Anthropic prompt tokens in
   * blocks no earlier request carried anywhere, which no cache could have served.
   */
  readonly totals: CacheUsage & { requests: number; fresh: number } = {
    uncached: 0,
    read: 0,
    write: 0,
    requests: 0,
    fresh: 0,
  };

  constructor(private readonly now: () => number = Date.now) {}

  private live(key: string, at: number): boolean {
    const until = this.entries.get(key);
    return until !== undefined && until > at;
  }

  /** Bills one Anthropic request of `total` prompt tokens and records what it writes. */
  anthropic(body: any, total: number): CacheUsage {
    const blocks = anthropicBlocks(body);
    const at = this.now();
    const cum: number[] = [];
    let sum = 0;
    for (const b of blocks) cum.push((sum += b.tokens));
    const marks = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let fresh = 0;
    for (const b of blocks) {
      if (!this.seen.has(b.content)) fresh += b.tokens;
      this.seen.add(b.content);
    }
    this.totals.fresh += fresh;
    let hit = -1;
    for (const bp of marks) {
      for (let j = bp; j >= Math.max(0, bp - LOOKBACK_BLOCKS); j--) {
        if (this.live(blocks[j]!.key, at)) {
          hit = Math.max(hit, j);
          break;
        }
      }
    }
    const lastMark = marks.at(-1) ?? -1;
    const read = hit >= 0 ? cum[hit]! : 0;
    let write = 0;
    if (lastMark >= 0 && cum[lastMark]! >= MIN_CACHED_TOKENS) {
      write = Math.max(0, cum[lastMark]! - read);
      for (const bp of marks) if (cum[bp]! >= MIN_CACHED_TOKENS) this.entries.set(blocks[bp]!.key, at + CACHE_LIFE_MS);
    }
    if (hit >= 0) this.entries.set(blocks[hit]!.key, at + CACHE_LIFE_MS);
    return this.count({ uncached: Math.max(0, total - read - write), read, write, fresh });
  }

  /** Bills one OpenAI request: the longest earlier prefix (message by message), in 128-token steps. */
  openai(body: any, total: number): CacheUsage {
    const items = [
      ...(Array.isArray(body?.tools) ? body.tools : []),
      ...(Array.isArray(body?.messages) ? body.messages : []),
    ];
    const at = this.now();
    let key = "";
    let sum = 0;
    let read = 0;
    for (const item of items) {
      const json = JSON.stringify(item);
      key = Bun.hash(`${key}\u0000${json}`).toString(36);
      sum += tokensOf(json);
      if (this.live(key, at)) read = sum;
      if (sum >= MIN_CACHED_TOKENS) this.entries.set(key, at + CACHE_LIFE_MS);
    }
    read = read >= MIN_CACHED_TOKENS ? Math.min(total, Math.floor(read / 128) * 128) : 0;
    return this.count({ uncached: total - read, read, write: 0 });
  }

  private count(u: CacheUsage): CacheUsage {
    this.totals.uncached += u.uncached;
    this.totals.read += u.read;
    this.totals.write += u.write;
    this.totals.requests += 1;
    return u;
  }
}

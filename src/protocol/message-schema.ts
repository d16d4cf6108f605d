// The schema of a Message as it is stored (archive lines) and passed between threads: checked block
// by block, so one block this build cannot use (damaged, hand-edited, or from a newer version)
// costs that block, not the message, and never the session.

import * as z from "zod/mini";
import type { CompactionInfo, ContentBlock, Message } from "./message.ts";
import { issuePhrases } from "./schema-issues.ts";

// Every value of these unions, so that a new one cannot be left out (the type checker says so).
const TRIGGERS: Record<CompactionInfo["trigger"], true> = { auto: true, manual: true, reactive: true };
const METHODS: Record<NonNullable<CompactionInfo["method"]>, true> = { summary: true, window: true };
const keysOf = <K extends string>(record: Record<K, true>) => Object.keys(record) as [K, ...K[]];

// Built on first use: a run that resumes nothing never pays for them.
let built: ReturnType<typeof build> | undefined;
const schemas = () => (built ??= build());

function build() {
  // Loose objects: a field a newer version adds to a block or a record is kept, not stripped (the
  // wire translation builds each block afresh, so nothing unknown reaches an API).
  const textBlock = z.looseObject({ type: z.literal("text"), text: z.string() });
  const imageBlock = z.looseObject({
    type: z.literal("image"),
    image: z.looseObject({ sha256: z.string(), mediaType: z.string(), bytes: z.number() }),
  });
  const toolUseBlock = z.looseObject({
    type: z.literal("tool_use"),
    id: z.string(),
    name: z.string(),
    input: z.unknown(),
    raw_input: z.optional(z.string()),
  });
  const resultPart = z.discriminatedUnion("type", [textBlock, imageBlock]);
  const toolResultBlock = z.looseObject({
    type: z.literal("tool_result"),
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(resultPart)]),
    is_error: z.optional(z.boolean()),
  });
  const contentBlock = z.discriminatedUnion("type", [textBlock, imageBlock, toolUseBlock, toolResultBlock]);

  const count = z.number().check(z.nonnegative());
  const compaction = z.looseObject({
    trigger: z.enum(keysOf(TRIGGERS)),
    firstId: z.string(),
    lastId: z.string(),
    count,
    tokensBefore: count,
    tokensAfter: count,
    keptIds: z.array(z.string()),
    method: z.optional(z.enum(keysOf(METHODS))),
    task: z.optional(z.string()),
    summary: z.optional(z.string()),
    userMessages: z.optional(z.array(z.string())),
  }) satisfies z.ZodMiniType<CompactionInfo>;

  // The fields every message needs; the rest are checked one by one, and unknown ones kept.
  const messageHead = z.looseObject({
    id: z.string(),
    role: z.enum(["user", "assistant"]),
    content: z.array(z.unknown()),
    ts: z.number(),
  });
  // Loose: counts a newer version adds are kept, as they are on the message itself.
  const usage = z.looseObject({
    input_tokens: count,
    output_tokens: count,
    cache_read_input_tokens: z.optional(count),
    cache_creation_input_tokens: z.optional(count),
  });
  return { contentBlock, messageHead, usage, compaction, string: z.string(), boolean: z.boolean() };
}

/** A tool result that can no longer be read still answers its call: the API wants every call answered. */
export const UNREADABLE_RESULT = "(This tool result could not be read back from the session archive.)";

export type MessageCheck = { message: Message; problems: string[] } | { message: undefined; problems: string[] };

/** One block as this build uses it, or why not. */
function checkBlock(value: unknown, at: number): { block?: ContentBlock; problem?: string } {
  const parsed = z.safeParse(schemas().contentBlock, value);
  if (parsed.success) return { block: legacyInvalidJson(parsed.data as ContentBlock) };
  type Fields = { type?: unknown; tool_use_id?: unknown };
  const fields = (typeof value === "object" && value !== null ? value : {}) as Fields;
  const type = fields.type;
  const what = typeof type === "string" ? `a ${JSON.stringify(type)} block` : "a block";
  const phrases = issuePhrases(parsed.error.issues, value);
  // A result whose content is damaged still pairs with its call, so the conversation stays valid.
  const id = fields.tool_use_id;
  if (type === "tool_result" && typeof id === "string") {
    const block: ContentBlock = { type: "tool_result", tool_use_id: id, content: UNREADABLE_RESULT, is_error: true };
    return { block, problem: `content[${at}]: ${what} (${phrases.join("; ")}), replaced by a note` };
  }
  const unknownType = typeof type === "string" && !["text", "image", "tool_use", "tool_result"].includes(type);
  const why = unknownType ? "of a type this version does not know" : `(${phrases.join("; ")})`;
  return { problem: `content[${at}]: ${what} ${why}, dropped` };
}

/** Archives written before `raw_input` existed kept unparseable tool input under this key. */
function legacyInvalidJson(block: ContentBlock): ContentBlock {
  if (block.type !== "tool_use" || block.raw_input !== undefined) return block;
  const input = block.input as Record<string, unknown> | null;
  const legacy = input && typeof input === "object" && Object.keys(input).length === 1;
  if (legacy && typeof input.__invalid_json === "string") {
    return { ...block, input: {}, raw_input: input.__invalid_json };
  }
  return block;
}

/**
 * A stored message, checked: blocks this build cannot use are dropped (a damaged tool result is
 * replaced by a note, so its call stays answered), a bad optional field is left out, and each is
 * named in `problems`. No message when the head is unusable or no block is left.
 */
export function checkMessage(value: unknown): MessageCheck {
  const { messageHead, usage, compaction, string, boolean } = schemas();
  const head = z.safeParse(messageHead, value);
  if (!head.success) {
    return { message: undefined, problems: [`not a message (${issuePhrases(head.error.issues, value).join("; ")})`] };
  }
  const problems: string[] = [];
  const content: ContentBlock[] = [];
  head.data.content.forEach((raw, at) => {
    const { block, problem } = checkBlock(raw, at);
    if (block) content.push(block);
    if (problem) problems.push(problem);
  });
  const message = { ...head.data, content } as Message & Record<string, unknown>;
  optional(message, "usage", usage, problems);
  optional(message, "stop_reason", string, problems);
  optional(message, "isSummary", boolean, problems);
  optional(message, "compaction", compaction, problems);
  if (content.length === 0 && head.data.content.length > 0) {
    return { message: undefined, problems: [...problems, "no usable content left"] };
  }
  return { message, problems };
}

function optional(message: Record<string, unknown>, key: string, schema: z.ZodMiniType, problems: string[]): void {
  if (message[key] === undefined) return;
  const parsed = z.safeParse(schema, message[key]);
  if (parsed.success) {
    message[key] = parsed.data;
  } else {
    problems.push(`${key} (${issuePhrases(parsed.error.issues, message[key]).join("; ")}), left out`);
    delete message[key];
  }
}

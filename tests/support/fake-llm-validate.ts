// What makes the fake LLM server as strict as the real APIs: the conversation rules each API
// enforces with a 400, and its context window. Pure: a request body in, an error (or nothing) out.

/** The fake's token estimate: one token per this many characters of the JSON request. */
export const FAKE_CHARS_PER_TOKEN = 4;

export interface Rejection {
  /** The error message, worded as the real API words it. */
  message: string;
  /** OpenAI's `param` and `code` fields. */
  param?: string | null;
  code?: string | null;
}

/** Tokens the fake counts for a request: system, messages and tools, at FAKE_CHARS_PER_TOKEN. */
export function promptTokens(body: any): number {
  return Math.max(
    1,
    Math.ceil(
      JSON.stringify([body?.system ?? "", body?.messages ?? [], body?.tools ?? []]).length / FAKE_CHARS_PER_TOKEN,
    ),
  );
}

const JSON_SCHEMA_TYPES = ["string", "number", "integer", "boolean", "array", "object", "null"];

/**
 * What is wrong with a tool's parameter schema, as both APIs judge it: an object schema whose
 * properties are schemas (a known `type`, a non-empty `enum` of values of that type, `items` for
 * arrays), `required` naming only its properties. The real APIs check the whole draft 2020-12.
 */
export function schemaProblem(schema: any, at = ""): string | undefined {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return `${at || "schema"}: must be an object`;
  if (schema.type !== undefined && !JSON_SCHEMA_TYPES.includes(schema.type))
    return `${at}type: '${schema.type}' is not a JSON Schema type`;
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.length === 0))
    return `${at}enum: must be a non-empty array`;
  if (schema.type === "string" && schema.enum?.some((v: unknown) => typeof v !== "string"))
    return `${at}enum: values must be strings`;
  if (schema.items !== undefined) return schemaProblem(schema.items, `${at}items.`);
  if (schema.properties !== undefined) {
    if (!schema.properties || typeof schema.properties !== "object") return `${at}properties: must be an object`;
    for (const [name, prop] of Object.entries(schema.properties)) {
      const problem = schemaProblem(prop, `${at}properties.${name}.`);
      if (problem) return problem;
    }
  }
  if (schema.required !== undefined) {
    const names = Object.keys(schema.properties ?? {});
    const bad = Array.isArray(schema.required)
      ? schema.required.find((r: unknown) => typeof r !== "string" || !names.includes(r))
      : "";
    if (bad !== undefined) return `${at}required: '${bad}' is not a property`;
  }
  if (
    schema.additionalProperties !== undefined &&
    typeof schema.additionalProperties !== "boolean" &&
    typeof schema.additionalProperties !== "object"
  ) {
    return `${at}additionalProperties: must be a boolean or a schema`;
  }
  return undefined;
}

function anthropicToolsProblem(tools: unknown): Rejection | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return { message: "tools: Input should be a valid list" };
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    if (typeof tool?.name !== "string" || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name)) {
      return { message: `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'` };
    }
    if (tool.input_schema?.type !== "object")
      return { message: `tools.${i}.custom.input_schema.type: Input should be 'object'` };
    const problem = schemaProblem(tool.input_schema);
    if (problem)
      return {
        message: `tools.${i}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (${problem})`,
      };
  }
  return undefined;
}

function openAIToolsProblem(tools: unknown): Rejection | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools))
    return { message: "Invalid type for 'tools': expected an array.", param: "tools", code: "invalid_type" };
  for (let i = 0; i < tools.length; i++) {
    const fn = tools[i]?.function;
    if (tools[i]?.type !== "function" || typeof fn?.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(fn.name)) {
      return {
        message: `Invalid 'tools[${i}].function.name': string does not match pattern.`,
        param: `tools[${i}].function.name`,
        code: "invalid_value",
      };
    }
    const problem =
      fn.parameters?.type === "object"
        ? schemaProblem(fn.parameters)
        : "schema must be a JSON Schema of 'type: \"object\"'";
    if (problem) {
      return {
        message: `Invalid schema for function '${fn.name}': ${problem}.`,
        param: `tools[${i}].function.parameters`,
        code: "invalid_function_parameters",
      };
    }
  }
  return undefined;
}

function isBlockList(content: unknown): content is any[] {
  return Array.isArray(content);
}

export function checkAnthropic(body: any, contextWindow?: number): Rejection | undefined {
  const toolsProblem = anthropicToolsProblem(body?.tools);
  if (toolsProblem) return toolsProblem;
  const messages = body?.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    return { message: "messages: at least one message is required" };
  if (messages[0]?.role !== "user") return { message: 'messages: first message must use the "user" role' };
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const content = m?.content;
    const empty = typeof content === "string" ? content === "" : !isBlockList(content) || content.length === 0;
    if (empty && !(i === messages.length - 1 && m?.role === "assistant")) {
      return {
        message: `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
      };
    }
    if (!isBlockList(content)) continue;
    for (let j = 0; j < content.length; j++) {
      const block = content[j];
      if (block?.type === "text" && (typeof block.text !== "string" || block.text === "")) {
        return { message: "messages: text content blocks must be non-empty" };
      }
    }
    // Every tool_result answers a tool_use of the message right before it.
    const results = content.filter((b: any) => b?.type === "tool_result");
    if (results.length) {
      const prev = messages[i - 1];
      const asked = new Set(
        m.role === "user" && prev?.role === "assistant" && isBlockList(prev.content)
          ? prev.content.filter((b: any) => b?.type === "tool_use").map((b: any) => b.id)
          : [],
      );
      const stray = results.map((b: any) => b.tool_use_id).filter((id: string) => !asked.has(id));
      if (stray.length) {
        const at = content.findIndex((b: any) => b?.type === "tool_result" && !asked.has(b.tool_use_id));
        return {
          message: `messages.${i}.content.${at}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(", ")}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        };
      }
    }
    // Every tool_use is answered in the very next message.
    const uses = m.role === "assistant" ? content.filter((b: any) => b?.type === "tool_use").map((b: any) => b.id) : [];
    if (uses.length) {
      const next = messages[i + 1];
      const answered = new Set(
        next?.role === "user" && isBlockList(next.content)
          ? next.content.filter((b: any) => b?.type === "tool_result").map((b: any) => b.tool_use_id)
          : [],
      );
      const missing = uses.filter((id: string) => !answered.has(id));
      if (missing.length) {
        return {
          message: `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        };
      }
    }
  }
  if (contextWindow !== undefined) {
    const tokens = promptTokens(body);
    if (tokens > contextWindow) return { message: `prompt is too long: ${tokens} tokens > ${contextWindow} maximum` };
  }
  return undefined;
}

export function checkOpenAI(body: any, contextWindow?: number): Rejection | undefined {
  const toolsProblem = openAIToolsProblem(body?.tools);
  if (toolsProblem) return toolsProblem;
  const messages = body?.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    return { message: "[] is too short - 'messages'", param: "messages", code: null };
  const first = messages.findIndex((m: any) => m?.role !== "system" && m?.role !== "developer");
  // Stricter than OpenAI itself, which takes an assistant-first conversation: Synapse promises
  // every request starts with the user's task (and Anthropic requires it), so the fake checks it.
  if (first < 0 || messages[first]?.role !== "user") {
    return {
      message: `Invalid parameter: the first non-system message must have role 'user' (fake-llm invariant).`,
      param: `messages.[${Math.max(first, 0)}].role`,
      code: null,
    };
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m?.role === "user" && Array.isArray(m.content) && m.content.length === 0) {
      return {
        message: `Invalid 'messages[${i}].content': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
        param: `messages.[${i}].content`,
        code: "empty_array",
      };
    }
    if (m?.role === "tool") {
      // A tool message answers a call of the closest assistant message before it, with only tool
      // messages in between.
      let j = i - 1;
      while (j >= 0 && messages[j]?.role === "tool") j--;
      const calls: string[] =
        messages[j]?.role === "assistant" ? (messages[j].tool_calls ?? []).map((c: any) => c.id) : [];
      if (!calls.includes(m.tool_call_id)) {
        return {
          message:
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          param: `messages.[${i}].role`,
          code: null,
        };
      }
    }
    if (m?.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length) {
      const answered = new Set<string>();
      for (let k = i + 1; k < messages.length && messages[k]?.role === "tool"; k++)
        answered.add(messages[k].tool_call_id);
      const missing = m.tool_calls.map((c: any) => c.id).filter((id: string) => !answered.has(id));
      if (missing.length) {
        return {
          message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`,
          param: `messages.[${i}].role`,
          code: null,
        };
      }
    }
  }
  if (contextWindow !== undefined) {
    const tokens = promptTokens(body);
    if (tokens > contextWindow) {
      return {
        message: `This model's maximum context length is ${contextWindow} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
        param: "messages",
        code: "context_length_exceeded",
      };
    }
  }
  return undefined;
}

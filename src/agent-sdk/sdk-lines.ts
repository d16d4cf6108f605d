// What a program driving synapse with the Claude Agent SDK writes on stdin (`--input-format
// stream-json`), one JSON object a line: user messages, control requests and the answers to ours.
// Every line is parsed here against a zod/mini schema before anything acts on it; the shapes are
// the SDK's own (node_modules/@anthropic-ai/claude-agent-sdk/sdk.d.ts). Unknown keys are allowed
// (the SDK adds fields over time); unknown line types and malformed lines are refused.

import * as z from "zod/mini";
import { issuePhrases } from "../protocol/schema-issues.ts";

const textBlock = z.object({ type: z.literal("text"), text: z.string() });
const imageBlock = z.object({
  type: z.literal("image"),
  source: z.object({ type: z.literal("base64"), media_type: z.string(), data: z.string() }),
});
const userBlock = z.union([textBlock, imageBlock]);

const userLine = z.object({
  type: z.literal("user"),
  message: z.object({ role: z.literal("user"), content: z.union([z.string(), z.array(userBlock)]) }),
  parent_tool_use_id: z.optional(z.nullable(z.string())),
  session_id: z.optional(z.string()),
  uuid: z.optional(z.string()),
});

const controlRequestLine = z.object({
  type: z.literal("control_request"),
  request_id: z.string().check(z.minLength(1)),
  request: z.looseObject({ subtype: z.string() }),
});

const controlResponseLine = z.object({
  type: z.literal("control_response"),
  response: z.union([
    z.object({
      subtype: z.literal("success"),
      request_id: z.string(),
      response: z.optional(z.record(z.string(), z.unknown())),
    }),
    z.object({ subtype: z.literal("error"), request_id: z.string(), error: z.string() }),
  ]),
});

const cancelLine = z.object({ type: z.literal("control_cancel_request"), request_id: z.string() });
const keepAliveLine = z.object({ type: z.literal("keep_alive") });

export type UserBlock = z.infer<typeof userBlock>;
export type UserLine = z.infer<typeof userLine>;
export type ControlRequestLine = z.infer<typeof controlRequestLine>;
export type ControlResponseLine = z.infer<typeof controlResponseLine>;
export type SdkLine =
  | UserLine
  | ControlRequestLine
  | ControlResponseLine
  | z.infer<typeof cancelLine>
  | z.infer<typeof keepAliveLine>;

const BY_TYPE = {
  user: userLine,
  control_request: controlRequestLine,
  control_response: controlResponseLine,
  control_cancel_request: cancelLine,
  keep_alive: keepAliveLine,
} as const;

/**
 * One stdin line, or the sentence (one stderr line) that says why it was skipped; a malformed
 * control request that names its id still gets an error answer (`requestId`), so nobody waits on it.
 */
export function parseSdkLine(
  text: string,
): { ok: true; line: SdkLine } | { ok: false; error: string; requestId?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: "not JSON" };
  }
  const type = typeof value === "object" && value !== null ? (value as { type?: unknown }).type : undefined;
  const schema = typeof type === "string" ? BY_TYPE[type as keyof typeof BY_TYPE] : undefined;
  if (!schema) return { ok: false, error: `unknown line type ${JSON.stringify(type ?? null).slice(0, 40)}` };
  const parsed = z.safeParse(schema as z.ZodMiniType<SdkLine>, value);
  if (parsed.success) return { ok: true, line: parsed.data };
  const error = `${type}: ${issuePhrases(parsed.error.issues, value)[0] ?? "malformed"}`;
  const id = type === "control_request" ? (value as { request_id?: unknown }).request_id : undefined;
  return typeof id === "string" && id ? { ok: false, error, requestId: id } : { ok: false, error };
}

// The control requests synapse answers, each checked on its own so a bad one is an error response.

const permissionMode = z.string();
export const REQUEST_SCHEMAS = {
  initialize: z.looseObject({
    hooks: z.optional(
      z.nullable(
        z.record(
          z.string(),
          z.array(
            z.looseObject({
              matcher: z.optional(z.nullable(z.string())),
              hookCallbackIds: z.array(z.string()),
              timeout: z.optional(z.nullable(z.number())),
            }),
          ),
        ),
      ),
    ),
    sdkMcpServers: z.optional(z.nullable(z.array(z.string()))),
    jsonSchema: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
    systemPrompt: z.optional(z.nullable(z.union([z.string(), z.array(z.string())]))),
    appendSystemPrompt: z.optional(z.nullable(z.string())),
  }),
  interrupt: z.looseObject({}),
  set_permission_mode: z.looseObject({ mode: permissionMode }),
  set_model: z.looseObject({ model: z.optional(z.nullable(z.string())) }),
  mcp_status: z.looseObject({}),
  mcp_message: z.looseObject({ server_name: z.string(), message: z.record(z.string(), z.unknown()) }),
  get_binary_version: z.looseObject({}),
  get_context_usage: z.looseObject({ detail: z.optional(z.string()) }),
  rewind_files: z.looseObject({ user_message_id: z.string(), dry_run: z.optional(z.boolean()) }),
} as const;

export type RequestSubtype = keyof typeof REQUEST_SCHEMAS;
export type RequestOf<S extends RequestSubtype> = z.infer<(typeof REQUEST_SCHEMAS)[S]>;
export type InitializeRequest = RequestOf<"initialize">;

export function isKnownSubtype(subtype: string): subtype is RequestSubtype {
  return Object.hasOwn(REQUEST_SCHEMAS, subtype);
}

/** A control request's body checked against its subtype's schema, or the sentence for the error response. */
export function checkRequest<S extends RequestSubtype>(
  subtype: S,
  body: unknown,
): { ok: true; value: RequestOf<S> } | { ok: false; error: string } {
  const schema = REQUEST_SCHEMAS[subtype] as unknown as z.ZodMiniType<RequestOf<S>>;
  const parsed = z.safeParse(schema, body);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: `${subtype}: ${issuePhrases(parsed.error.issues, body)[0] ?? "malformed request"}` };
}

// What the SDK answers to our can_use_tool and hook_callback requests.

const permissionUpdate = z.looseObject({
  type: z.string(),
  behavior: z.optional(z.string()),
  mode: z.optional(z.string()),
  rules: z.optional(z.array(z.looseObject({ toolName: z.string(), ruleContent: z.optional(z.string()) }))),
});
export const permissionAnswer = z.union([
  z.looseObject({
    behavior: z.literal("allow"),
    updatedInput: z.optional(z.record(z.string(), z.unknown())),
    updatedPermissions: z.optional(z.array(permissionUpdate)),
  }),
  z.looseObject({
    behavior: z.literal("deny"),
    message: z.optional(z.string()),
    interrupt: z.optional(z.boolean()),
  }),
]);
export type PermissionAnswer = z.infer<typeof permissionAnswer>;
export type PermissionUpdate = z.infer<typeof permissionUpdate>;

export function checkPermissionAnswer(value: unknown): { ok: true; value: PermissionAnswer } | { ok: false } {
  const parsed = z.safeParse(permissionAnswer, value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false };
}

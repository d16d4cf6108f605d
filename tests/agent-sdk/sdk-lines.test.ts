// Every stdin line of an Agent SDK run is parsed by a schema: what passes, and the one-line reason
// for what does not. Also the pure pieces around it: mode names, rule values, the control channel.

import { describe, expect, test } from "bun:test";
import { createControlChannel } from "../../src/agent-sdk/control-channel.ts";
import { ruleValue } from "../../src/agent-sdk/permission-bridge.ts";
import { sdkMode, synapseMode } from "../../src/agent-sdk/permission-modes.ts";
import { checkPermissionAnswer, checkRequest, parseSdkLine } from "../../src/agent-sdk/sdk-lines.ts";

describe("parseSdkLine", () => {
  const ok: [string, unknown][] = [
    [
      "string content",
      { type: "user", message: { role: "user", content: "hi" }, parent_tool_use_id: null, session_id: "" },
    ],
    [
      "text and image blocks",
      {
        type: "user",
        message: {
          role: "user",
          content: [
            { type: "text", text: "see" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
          ],
        },
      },
    ],
    ["a control request", { type: "control_request", request_id: "r1", request: { subtype: "interrupt" } }],
    ["an answer", { type: "control_response", response: { subtype: "success", request_id: "x", response: {} } }],
    ["an error answer", { type: "control_response", response: { subtype: "error", request_id: "x", error: "no" } }],
    ["a cancel", { type: "control_cancel_request", request_id: "x" }],
    ["a keep-alive", { type: "keep_alive" }],
  ];
  for (const [name, value] of ok)
    test(`accepts ${name}`, () => expect(parseSdkLine(JSON.stringify(value)).ok).toBe(true));

  const bad: [string, string, string][] = [
    ["not JSON", "{nope", "not JSON"],
    ["an unknown type", JSON.stringify({ type: "telepathy" }), 'unknown line type "telepathy"'],
    ["no type", "[1,2]", "unknown line type null"],
    ["content of the wrong kind", JSON.stringify({ type: "user", message: { role: "user", content: 7 } }), "user:"],
    [
      "a document block",
      JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "document", source: {} }] } }),
      "user:",
    ],
    [
      "a request without id",
      JSON.stringify({ type: "control_request", request: { subtype: "x" } }),
      "control_request:",
    ],
  ];
  for (const [name, line, says] of bad)
    test(`refuses ${name}`, () => {
      const parsed = parseSdkLine(line);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error).toContain(says);
    });
});

describe("checkRequest and checkPermissionAnswer", () => {
  test("a request's body is checked against its subtype", () => {
    expect(checkRequest("set_model", { subtype: "set_model", model: "x" }).ok).toBe(true);
    expect(checkRequest("set_model", { subtype: "set_model", model: 5 }).ok).toBe(false);
    expect(checkRequest("set_permission_mode", { subtype: "set_permission_mode" }).ok).toBe(false);
  });

  const answers: [unknown, boolean][] = [
    [{ behavior: "allow" }, true],
    [{ behavior: "allow", updatedInput: { a: 1 }, updatedPermissions: [{ type: "setMode", mode: "plan" }] }, true],
    [{ behavior: "deny", message: "no", interrupt: true }, true],
    [{ behavior: "maybe" }, false],
    [{ behavior: "allow", updatedInput: "rm -rf /" }, false],
    [null, false],
  ];
  for (const [value, valid] of answers)
    test(`permission answer ${JSON.stringify(value)}: ${valid ? "valid" : "refused"}`, () =>
      expect(checkPermissionAnswer(value).ok).toBe(valid));
});

describe("permission modes", () => {
  const table: [string, string | undefined][] = [
    ["default", "default"],
    ["acceptEdits", "accept-edits"],
    ["bypassPermissions", "bypass"],
    ["plan", "plan"],
    ["dontAsk", "default"],
    ["auto", "default"],
    ["accept-edits", "accept-edits"],
    ["yolo", undefined],
  ];
  for (const [sdk, synapse] of table)
    test(`${sdk} → ${synapse}`, () => expect(synapseMode(sdk)).toBe(synapse as never));
  test("back to the SDK's names", () => {
    expect(sdkMode("accept-edits")).toBe("acceptEdits");
    expect(sdkMode("bypass")).toBe("bypassPermissions");
  });
});

test("ruleValue splits a rule as the SDK spells it", () => {
  expect(ruleValue("Bash(npm test)")).toEqual({ toolName: "Bash", ruleContent: "npm test" });
  expect(ruleValue("mcp__calc__add")).toEqual({ toolName: "mcp__calc__add" });
});

describe("control channel", () => {
  test("a request is answered by the response with its id; stdin's end answers the rest with an error", async () => {
    const written: any[] = [];
    const channel = createControlChannel((line) => written.push(line));
    const first = channel.request({ subtype: "can_use_tool" });
    const second = channel.request({ subtype: "hook_callback" });
    const id = written[0].request_id;
    expect(
      channel.answer({
        type: "control_response",
        response: { subtype: "success", request_id: id, response: { a: 1 } },
      }),
    ).toBe(true);
    expect(await first).toEqual({ ok: true, response: { a: 1 } });
    expect(channel.answer({ type: "control_response", response: { subtype: "success", request_id: id } })).toBe(false);
    channel.close("stdin ended");
    expect(await second).toEqual({ ok: false, error: "stdin ended" });
    expect(await channel.request({ subtype: "late" })).toEqual({ ok: false, error: "stdin ended" });
  });

  test("an aborted request is withdrawn with a control_cancel_request", async () => {
    const written: any[] = [];
    const channel = createControlChannel((line) => written.push(line));
    const abort = new AbortController();
    const pending = channel.request({ subtype: "can_use_tool" }, abort.signal);
    abort.abort();
    expect(await pending).toEqual({ ok: false, error: "withdrawn" });
    expect(written[1]).toEqual({ type: "control_cancel_request", request_id: written[0].request_id });
  });
});

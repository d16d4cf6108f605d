// The control protocol from the SDK's side: interrupt() mid-stream, setPermissionMode (bypass only
// when the run allows it: attack test), setModel, resume; and over raw stdin, an unknown control
// request and a malformed line.

import { describe, expect, test } from "bun:test";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { jsonLines, providerEnv, runBinary, spawnBinary } from "../support/binary.ts";
import { collect, ofType, promptStream, sdkOptions } from "../support/agent-sdk.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();

describe("control requests from the SDK", () => {
  test("interrupt() mid-stream ends the turn; the session then answers the next message", async () => {
    const long = "word ".repeat(400);
    const s = await serve([{ text: long, chunkDelayMs: 20 }, { text: "after the interrupt" }]);
    const input = promptStream();
    const q = query({ prompt: input.messages, options: sdkOptions(s.url, { includePartialMessages: true }) });
    input.send("a long question");
    const results: any[] = [];
    let streamed = "";
    let interrupted = false;
    for await (const message of q) {
      if (message.type === "stream_event" && message.event.type === "content_block_delta") {
        if (message.event.delta.type === "text_delta") streamed += message.event.delta.text;
        if (!interrupted) {
          interrupted = true;
          await q.interrupt();
        }
      }
      if (message.type === "result") {
        results.push(message);
        if (results.length === 1) input.send("again");
        else input.end();
      }
    }
    expect(results[0]).toMatchObject({ subtype: "interrupted" });
    // Stopped part-way: the model's answer was cut, not streamed to its end.
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.length).toBeLessThan(long.length);
    expect(results[1]).toMatchObject({ subtype: "success", result: "after the interrupt" });
    expect(results[1].session_id).toBe(results[0].session_id);
  });

  test("setModel: the next request goes to the model named", async () => {
    const s = await serve([{ text: "one" }, { text: "two" }]);
    const input = promptStream();
    const q = query({ prompt: input.messages, options: sdkOptions(s.url, { model: "claude-sonnet-5-5" }) });
    input.send("first");
    for await (const message of q) {
      if (message.type !== "result") continue;
      if (s.requests.length === 1) {
        await q.setModel("claude-opus-9");
        input.send("second");
      } else input.end();
    }
    expect(s.requests.map((r) => r.body.model)).toEqual(["claude-sonnet-5-5", "claude-opus-9"]);
  });

  test("setPermissionMode: acceptEdits is reported on the next init line", async () => {
    const s = await serve([{ text: "one" }]);
    const input = promptStream();
    const q = query({ prompt: input.messages, options: sdkOptions(s.url) });
    await q.setPermissionMode("acceptEdits");
    input.send("first");
    const inits: any[] = [];
    for await (const message of q) {
      if (message.type === "system" && message.subtype === "init") inits.push(message);
      if (message.type === "result") input.end();
    }
    expect(inits.at(-1).permissionMode).toBe("acceptEdits");
  });

  test("attack: setPermissionMode bypassPermissions is refused unless the run allows it", async () => {
    const s = await serve([{ text: "one" }, { text: "two" }]);
    const input = promptStream();
    const q = query({ prompt: input.messages, options: sdkOptions(s.url) });
    const refused = await q.setPermissionMode("bypassPermissions").then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(refused).toContain("bypassPermissions is refused");
    input.send("first");
    for await (const message of q) {
      if (message.type === "system" && message.subtype === "init") expect(message.permissionMode).toBe("default");
      if (message.type === "result") input.end();
    }
    // With the flag (the SDK's allowDangerouslySkipPermissions) the same request is honoured.
    const input2 = promptStream();
    const options = sdkOptions(s.url, { allowDangerouslySkipPermissions: true });
    const q2 = query({ prompt: input2.messages, options });
    await q2.setPermissionMode("bypassPermissions");
    input2.send("second");
    for await (const message of q2) {
      if (message.type === "system" && message.subtype === "init")
        expect(message.permissionMode).toBe("bypassPermissions");
      if (message.type === "result") input2.end();
    }
  });

  test("resume: a second query continues the first one's session", async () => {
    const s = await serve([{ text: "remembered: 42" }, { text: "it was 42" }]);
    const options = sdkOptions(s.url);
    const first = await collect("remember 42", options);
    const sessionId = ofType(first.messages, "result")[0]!.session_id;
    const second = await collect("what was it?", { ...options, resume: sessionId });
    expect(second.error).toBeUndefined();
    expect(ofType(second.messages, "result")[0]!.session_id).toBe(sessionId);
    const sent = JSON.stringify(s.requests[1]!.body.messages);
    expect(sent).toContain("remember 42");
    expect(sent).toContain("remembered: 42");
  });
});

describe("the program's end", () => {
  test("close() mid-turn ends the process and saves the session: it resumes at once", async () => {
    const s = await serve([{ hang: true }, { text: "resumed fine" }]);
    const options = sdkOptions(s.url);
    const input = promptStream();
    const q = query({ prompt: input.messages, options });
    input.send("start something long");
    let sessionId = "";
    for await (const message of q) {
      if (message.type === "system" && message.subtype === "init") {
        sessionId = message.session_id;
        await s.waitForRequests(1);
        q.close();
      }
    }
    expect(sessionId).not.toBe("");
    // The lock was released on the way out: the session opens again.
    const again = await collect("are you there?", { ...options, resume: sessionId });
    expect(again.error).toBeUndefined();
    expect(ofType(again.messages, "result")[0]).toMatchObject({ subtype: "success", session_id: sessionId });
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain("start something long");
  });
});

describe("the SDK's flags on a plain run", () => {
  test("-o stream-json with --system-prompt and --include-partial-messages, no stream-json input", async () => {
    const s = await serve([{ text: "short answer" }]);
    const r = await runBinary({
      args: ["-o", "stream-json", "--system-prompt", "Answer briefly.", "--include-partial-messages", "hi"],
      env: providerEnv(s.url),
    });
    expect(r.code).toBe(0);
    const system = s.requests[0]!.body.system;
    expect(typeof system === "string" ? system : system.map((b: any) => b.text).join("")).toBe("Answer briefly.");
    expect(jsonLines(r.stdout).some((l: any) => l.type === "stream_event")).toBe(true);
  });
});

describe("raw stdin", () => {
  test("an unknown control request gets an error naming it; a malformed line one stderr line; the turn runs", async () => {
    const s = await serve([{ text: "still here" }]);
    const lines = [
      JSON.stringify({ type: "control_request", request_id: "r1", request: { subtype: "frobnicate" } }),
      "this is not json",
      JSON.stringify({ type: "user", message: { role: "user", content: 7 } }),
      JSON.stringify({ type: "control_request", request_id: "r2", request: { subtype: "set_model", model: 5 } }),
      JSON.stringify({ type: "control_request", request_id: "r3", request: "interrupt" }),
      JSON.stringify({ type: "user", message: { role: "user", content: "hello" }, parent_tool_use_id: null }),
    ];
    const proc = spawnBinary({
      args: ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"],
      stdin: `${lines.join("\n")}\n`,
      env: providerEnv(s.url),
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code).toBe(0);
    const out = jsonLines(stdout);
    const responses = out.filter((l: any) => l.type === "control_response").map((l: any) => l.response);
    expect(responses).toContainEqual({
      subtype: "error",
      request_id: "r1",
      error: "unsupported control request subtype: frobnicate",
    });
    expect(responses.find((r: any) => r.request_id === "r2")).toMatchObject({ subtype: "error" });
    // A request too malformed to act on is still answered, by its id.
    expect(responses.find((r: any) => r.request_id === "r3")).toMatchObject({ subtype: "error" });
    expect(stderr.split("\n").filter((l) => l.includes("line skipped"))).toHaveLength(3);
    expect(out.find((l: any) => l.type === "result")).toMatchObject({ subtype: "success", result: "still here" });
  });

  test("refused and ignored flags: one line each", async () => {
    const refused = spawnBinary({
      args: ["--output-format", "stream-json", "--input-format", "stream-json", "--resume-session-at", "x"],
      stdin: "",
    });
    expect(await refused.exited).toBe(2);
    expect((await new Response(refused.stderr).text()).trim().split("\n")).toHaveLength(1);
    // stream-json in needs stream-json out: the program could not read anything else.
    const text = spawnBinary({ args: ["--input-format", "stream-json"], stdin: "" });
    expect(await text.exited).toBe(2);
    expect(await new Response(text.stderr).text()).toContain("needs --output-format stream-json");
  });
});

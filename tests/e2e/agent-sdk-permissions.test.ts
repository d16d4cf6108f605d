// The Agent SDK's canUseTool (`--permission-prompt-tool stdio`): the binary asks the program about
// a call its policy would ask about, and honours allow, deny and an edited input, which is judged
// again: a deny rule covers the edited input as it covers the model's.

import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CanUseTool } from "@anthropic-ai/claude-agent-sdk";
import { collect, ofType, sdkOptions } from "../support/agent-sdk.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();

/** A folder outside the workspace: writing there is a question the policy asks. */
const outside = () => mkdtempSync(join(tmpdir(), "synapse-sdk-outside-"));

function writeCall(path: string, content: string) {
  return [{ toolCalls: [{ id: "toolu_w1", name: "Write", input: { path: path, content } }] }, { text: "done" }];
}

const toolResultText = (body: any): string => JSON.stringify(body.messages.at(-1).content);

describe("canUseTool", () => {
  test("allow: the program is asked once, with the tool and its input, and the call runs", async () => {
    const dir = outside();
    const target = join(dir, "a.txt");
    const s = await serve(writeCall(target, "hello"));
    const asked: { name: string; input: unknown; id?: string }[] = [];
    const canUseTool: CanUseTool = async (name, input, opts) => {
      asked.push({ name, input, id: opts.toolUseID });
      return { behavior: "allow", updatedInput: input };
    };
    const run = await collect("write it", sdkOptions(s.url, { canUseTool }));
    expect(run.error).toBeUndefined();
    // Claude Code's name for the path is there too: a program written for it reads `file_path`.
    expect(asked).toEqual([
      { name: "Write", input: { path: target, file_path: target, content: "hello" }, id: "toolu_w1" },
    ]);
    expect(readFileSync(target, "utf8")).toBe("hello");
    expect(ofType(run.messages, "result")[0]).toMatchObject({ subtype: "success", permission_denials: [] });
  });

  test("deny: the call does not run, the model reads the program's message, the result lists it", async () => {
    const dir = outside();
    const target = join(dir, "a.txt");
    const s = await serve(writeCall(target, "hello"));
    const canUseTool: CanUseTool = async () => ({ behavior: "deny", message: "not in that folder" });
    const run = await collect("write it", sdkOptions(s.url, { canUseTool }));
    expect(existsSync(target)).toBe(false);
    expect(toolResultText(s.requests[1]!.body)).toContain("not in that folder");
    const [result] = ofType(run.messages, "result");
    expect(result!.permission_denials).toEqual([
      {
        tool_name: "Write",
        tool_use_id: "toolu_w1",
        tool_input: { path: target, file_path: target, content: "hello" },
      },
    ]);
  });

  test("updatedInput: the edited input is what runs", async () => {
    const dir = outside();
    const s = await serve(writeCall(join(dir, "a.txt"), "model's text"));
    const canUseTool: CanUseTool = async () => ({
      behavior: "allow",
      updatedInput: { path: join(dir, "b.txt"), content: "edited" },
    });
    const run = await collect("write it", sdkOptions(s.url, { canUseTool }));
    expect(run.error).toBeUndefined();
    expect(existsSync(join(dir, "a.txt"))).toBe(false);
    expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("edited");
  });

  test("updatedInput that edits Claude Code's file_path: the edited path is what runs", async () => {
    const dir = outside();
    const s = await serve(writeCall(join(dir, "a.txt"), "model's text"));
    const canUseTool: CanUseTool = async (_, input) => ({
      behavior: "allow",
      updatedInput: { ...input, file_path: join(dir, "c.txt") },
    });
    const run = await collect("write it", sdkOptions(s.url, { canUseTool }));
    expect(run.error).toBeUndefined();
    expect(existsSync(join(dir, "a.txt"))).toBe(false);
    expect(readFileSync(join(dir, "c.txt"), "utf8")).toBe("model's text");
  });

  test("attack: an edited input a deny rule covers is refused, whatever the program allowed", async () => {
    const dir = outside();
    const secret = join(dir, "secret");
    const s = await serve(writeCall(join(dir, "a.txt"), "harmless"));
    const canUseTool: CanUseTool = async () => ({
      behavior: "allow",
      updatedInput: { path: join(secret, "key.txt"), content: "overwritten" },
    });
    const options = sdkOptions(s.url, { canUseTool, disallowedTools: [`Write(${secret}/**)`] });
    const run = await collect("write it", options);
    expect(existsSync(join(secret, "key.txt"))).toBe(false);
    expect(existsSync(join(dir, "a.txt"))).toBe(false);
    expect(toolResultText(s.requests[1]!.body)).toContain("Permission denied for the edited input");
    expect(ofType(run.messages, "result")[0]!.permission_denials).toHaveLength(1);
  });

  test("an edited input that fails the tool's schema is refused", async () => {
    const dir = outside();
    const s = await serve(writeCall(join(dir, "a.txt"), "x"));
    const canUseTool: CanUseTool = async () => ({ behavior: "allow", updatedInput: { path: 42 } });
    await collect("write it", sdkOptions(s.url, { canUseTool }));
    expect(existsSync(join(dir, "a.txt"))).toBe(false);
    expect(toolResultText(s.requests[1]!.body)).toContain("Invalid input for Write (as edited)");
  });

  test("deny with interrupt: the turn stops at once; the model is not asked again", async () => {
    const dir = outside();
    const s = await serve(writeCall(join(dir, "a.txt"), "x"));
    const canUseTool: CanUseTool = async () => ({ behavior: "deny", message: "stop", interrupt: true });
    const run = await collect("write it", sdkOptions(s.url, { canUseTool }));
    expect(existsSync(join(dir, "a.txt"))).toBe(false);
    expect(s.requests).toHaveLength(1);
    expect(ofType(run.messages, "result")[0]).toMatchObject({ subtype: "interrupted" });
  });

  test("an allow rule update is kept for the session: the same call is not asked about again", async () => {
    const dir = outside();
    const target = join(dir, "a.txt");
    const call = (id: string) => ({ toolCalls: [{ id, name: "Write", input: { path: target, content: "x" } }] });
    const s = await serve([call("toolu_1"), call("toolu_2"), { text: "done" }]);
    let asked = 0;
    const canUseTool: CanUseTool = async (_name, input, opts) => {
      asked++;
      return { behavior: "allow", updatedInput: input, updatedPermissions: opts.suggestions };
    };
    const run = await collect("write it twice", sdkOptions(s.url, { canUseTool }));
    expect(run.error).toBeUndefined();
    expect(asked).toBe(1);
    expect(readFileSync(target, "utf8")).toBe("x");
  });

  test("dontAsk: a call the policy would ask about is refused, the program never asked", async () => {
    const dir = outside();
    const s = await serve(writeCall(join(dir, "a.txt"), "x"));
    let asked = 0;
    const canUseTool: CanUseTool = async () => {
      asked++;
      return { behavior: "allow" };
    };
    const run = await collect("write it", sdkOptions(s.url, { canUseTool, permissionMode: "dontAsk" }));
    expect(asked).toBe(0);
    expect(existsSync(join(dir, "a.txt"))).toBe(false);
    expect(ofType(run.messages, "result")[0]!.permission_denials).toHaveLength(1);
  });
});

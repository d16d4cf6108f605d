// Dispatch of every slash command: what each returns, alone, with a context built from plain data.

import { describe, expect, test } from "bun:test";
import { COMMANDS, closestCommand, commandNames, editDistance } from "../../src/executor/command-registry.ts";
import { dispatch, looksLikeCommand, parseSlash, resolveCommand } from "../../src/executor/dispatch.ts";
import type { ModelList } from "../../src/llm/model-list.ts";
import { UsageError } from "../../src/protocol/errors.ts";
import type { ListedSession } from "../../src/store/types.ts";
import type { CommandContext, SessionFacts } from "../../src/executor/slash-command.ts";

function facts(over: Partial<SessionFacts> = {}): SessionFacts {
  return {
    model: "anthropic/claude-sonnet-5-5",
    sessionId: "20260101-000000-aaaaaa",
    cwd: "/w",
    usage: { input_tokens: 1200, output_tokens: 34 },
    contextTokens: 50_000,
    contextWindow: 200_000,
    messagesInMemory: 7,
    shells: { spawned: 2, reused: 5, commandsRun: 7 },
    memory: { peakRssMb: 80, peakHeapMb: 30, rssMb: 70 },
    tasksRunning: 0,
    sandbox: { kind: "bwrap", mode: "workspace-write", network: false, bwrap: "/usr/bin/bwrap" },
    ...over,
  };
}

const session = (id: string, updated: number, title = "t"): ListedSession => ({
  id,
  title,
  cwd: "/w",
  model: "m",
  created: updated,
  updated,
  messages: 3,
  bytes: 10,
});

function ctx(
  over: { models?: ModelList; sessions?: ListedSession[]; facts?: Partial<SessionFacts>; startModel?: string } = {},
): CommandContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    facts: () => facts(over.facts),
    listModels: async (provider) => {
      asked.push(provider);
      return over.models ?? { models: ["claude-sonnet-5-5", "claude-opus-5-1"], source: "provider" };
    },
    listSessions: async () => over.sessions ?? [],
    commands: () => COMMANDS,
    startModel: over.startModel,
    signal: new AbortController().signal,
  };
}

describe("parsing", () => {
  test("plain text is one RunAgent, images kept", async () => {
    expect(await dispatch("fix the bug", ctx(), ["a.png"])).toEqual({
      lines: [],
      actions: [{ kind: "RunAgent", text: "fix the bug", images: ["a.png"] }],
    });
  });
  test("a path is a prompt, not a command", () => {
    expect(looksLikeCommand("/etc/hosts what is this")).toBe(false);
    expect(looksLikeCommand("/ hello")).toBe(false);
    expect(looksLikeCommand("  /compact keep it")).toBe(true);
    expect(parseSlash("/compact   keep the API design\nand tests")).toEqual({
      name: "compact",
      args: "keep the API design\nand tests",
    });
  });
  test("an unknown command is a usage error naming the closest one", () => {
    expect(() => resolveCommand("/modle")).toThrow(UsageError);
    expect(() => resolveCommand("/modle")).toThrow(/did you mean \/model\?/);
    expect(() => resolveCommand("/cmpact x")).toThrow(/did you mean \/compact\?/);
    expect(closestCommand("stat")).toBe("status");
    expect(closestCommand("q")).toBe("quit");
    expect(editDistance("kitten", "sitting")).toBe(3);
  });
  test("a word near no command gets no guess: /bogus is not a typo of /model", () => {
    for (const far of ["bogus", "deploy", "xyzzy"]) expect(closestCommand(far)).toBeUndefined();
    expect(() => resolveCommand("/bogus")).toThrow(/^unknown command \/bogus \(commands: \/help, /);
  });
  test("every command is listed by name for completion, aliases too", () => {
    expect(commandNames()).toEqual(
      expect.arrayContaining(["help", "model", "compact", "clear", "resume", "cost", "status", "exit", "quit"]),
    );
  });
});

describe("each command", () => {
  test("/help lists every command", async () => {
    const out = await dispatch("/help", ctx());
    for (const c of COMMANDS) expect(out.lines.join("\n")).toContain(`/${c.name}`);
    expect(out.actions).toEqual([]);
    // It does not claim that anything else reaches the model: an unknown /name is refused.
    expect(out.lines.at(-1)).toContain("an unknown /name is refused");
    await expect(dispatch("/nosuch", ctx())).rejects.toThrow();
  });
  test("/model lists the provider's models with the current one marked", async () => {
    const c = ctx();
    const out = await dispatch("/model", c);
    expect(out.lines).toContain("* claude-sonnet-5-5");
    expect(out.lines).toContain("  claude-opus-5-1");
    expect(c.asked).toEqual(["anthropic"]);
  });
  test("/model says when the list is the built-in one", async () => {
    const out = await dispatch(
      "/model",
      ctx({ models: { models: ["x"], source: "fallback", reason: "the models endpoint answered 404" } }),
    );
    expect(out.lines.join("\n")).toContain("built-in list: the models endpoint answered 404");
  });
  test("/model <name> switches to a listed model", async () => {
    expect((await dispatch("/model claude-opus-5-1", ctx())).actions).toEqual([
      { kind: "ChangeModel", model: "anthropic/claude-opus-5-1" },
    ]);
  });
  test("/model openai/<name> asks that provider", async () => {
    const c = ctx({ models: { models: ["gpt-5.4"], source: "provider" } });
    expect((await dispatch("/model openai/gpt-5.4", c)).actions).toEqual([
      { kind: "ChangeModel", model: "openai/gpt-5.4" },
    ]);
    expect(c.asked).toEqual(["openai"]);
  });
  test("/model can switch back to the model the session started on, though the provider does not list it", async () => {
    const c = ctx({ facts: { model: "anthropic/claude-opus-5-1" }, startModel: "anthropic/my-proxy-model" });
    expect((await dispatch("/model", c)).lines).toContain("  my-proxy-model");
    expect((await dispatch("/model my-proxy-model", c)).actions).toEqual([
      { kind: "ChangeModel", model: "anthropic/my-proxy-model" },
    ]);
    expect((await dispatch("/model other-unlisted", c)).error).toContain("unknown model other-unlisted");
  });
  test("/model <unknown> is an error, not a switch", async () => {
    const out = await dispatch("/model claude-sonet", ctx());
    expect(out.actions).toEqual([]);
    expect(out.error).toContain("unknown model claude-sonet");
  });
  test("/compact with and without focus", async () => {
    expect((await dispatch("/compact", ctx())).actions).toEqual([{ kind: "RunCompact" }]);
    expect((await dispatch("/compact keep the API design", ctx())).actions).toEqual([
      { kind: "RunCompact", focus: "keep the API design" },
    ]);
  });
  test("/clear resets the session", async () => {
    expect((await dispatch("/clear", ctx())).actions).toEqual([{ kind: "ResetSession" }]);
  });
  test("/resume lists this directory's sessions, and switches by prefix", async () => {
    const sessions = [
      session("20260102-000000-bbbbbb", 2000, "second"),
      session("20260101-000000-aaaaaa", 1000, "first"),
    ];
    const list = await dispatch("/resume", ctx({ sessions }));
    expect(list.lines.join("\n")).toContain("20260102-000000-bbbbbb");
    expect(list.lines.join("\n")).toContain("* 20260101-000000-aaaaaa");
    expect((await dispatch("/resume 20260102", ctx({ sessions }))).actions).toEqual([
      { kind: "ResumeSession", id: "20260102-000000-bbbbbb" },
    ]);
    expect((await dispatch("/resume 2026", ctx({ sessions }))).error).toContain("matches 2 sessions");
    expect((await dispatch("/resume zzz", ctx({ sessions }))).error).toContain("no session zzz");
    expect((await dispatch("/resume", ctx())).lines).toEqual(["no earlier sessions in this directory"]);
  });
  test("/cost shows tokens in and out, and says how to set a price for a model without one", async () => {
    const lines = (await dispatch("/cost", ctx())).lines;
    expect(lines[0]).toContain("SYNAPSE_PRICE");
    expect(lines.slice(1)).toEqual([
      "input:  1,200 tokens: 0 cache reads (0%), 0 cache writes, 1,200 uncached",
      "output: 34 tokens",
    ]);
  });
  test("/cost shows dollars and the input split into cache reads, writes and uncached tokens", async () => {
    const usage = {
      input_tokens: 10_000,
      output_tokens: 500,
      cache_read_input_tokens: 8_000,
      cache_creation_input_tokens: 1_500,
    };
    expect((await dispatch("/cost", ctx({ facts: { usage, costUsd: 0.0165 } }))).lines).toEqual([
      "cost:   $0.0165",
      "input:  10,000 tokens: 8,000 cache reads (80%), 1,500 cache writes, 500 uncached",
      "output: 500 tokens",
    ]);
    expect((await dispatch("/status", ctx({ facts: { usage, costUsd: 0.0165 } }))).lines).toContain(
      "cost:     $0.0165; 8,000 cache reads, 1,500 writes, 500 uncached in, 500 out",
    );
  });
  test("/status shows model, session, cwd, context percent, memory, shells, tasks", async () => {
    const text = (await dispatch("/status", ctx())).lines.join("\n");
    for (const part of [
      "anthropic/claude-sonnet-5-5",
      "20260101-000000-aaaaaa",
      "/w",
      "(25%)",
      "RSS 70 MB",
      "2 spawned",
      "0 running",
    ])
      expect(text).toContain(part);
  });
  test("/status says where commands run: the sandbox, or none and why", async () => {
    const line = async (sandbox: SessionFacts["sandbox"]) =>
      (await dispatch("/status", ctx({ facts: { sandbox } }))).lines.find((l) => l.startsWith("sandbox:"));
    expect(await line({ kind: "bwrap", mode: "workspace-write", network: false, bwrap: "/b" })).toBe(
      "sandbox:  bwrap, workspace-write, no network",
    );
    expect(await line({ kind: "bwrap", mode: "read-only", network: true, bwrap: "/b" })).toBe(
      "sandbox:  bwrap, read-only, network allowed",
    );
    expect(await line({ kind: "none", mode: "full-access", reason: "full-access" })).toContain("off (full-access)");
    expect(await line({ kind: "none", mode: "workspace-write", reason: "bwrap not found" })).toContain(
      "unavailable (bwrap not found)",
    );
  });
  test("/exit and /quit end the session", async () => {
    expect((await dispatch("/exit", ctx())).exit).toBe(true);
    expect((await dispatch("/quit", ctx())).exit).toBe(true);
  });
});

// The pure parts of hooks: matchers, what a hook's exit code and output mean, the settings check,
// and how a session combines several hooks' answers.

import { describe, expect, test } from "bun:test";
import { flattenSettings } from "../../src/hooks/command-source.ts";
import { outcomeFromCommand, outcomeFromJson } from "../../src/hooks/hook-output.ts";
import { matcherSelects, strayToolMatchers } from "../../src/hooks/matcher.ts";
import { SessionHooks } from "../../src/hooks/session-hooks.ts";
import { gateAfterHooks } from "../../src/hooks/hook-gate.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../src/policy/approval.ts";
import type { HookOutcome, HookSource } from "../../src/hooks/types.ts";
import { checkHookSettings, type HookEventInput } from "../../src/protocol/hook-events.ts";
import { checkFileConfig } from "../../src/config/file-config.ts";
import { resolveConfig } from "../../src/config/config.ts";

describe("matcherSelects (Claude Code's rules)", () => {
  const cases: [string | undefined, string | undefined, boolean][] = [
    [undefined, "Bash", true],
    ["", "Write", true],
    ["*", "Read", true],
    ["Bash", "Bash", true],
    ["Bash", "BashOutput", false],
    ["Bash|Write", "Write", true],
    ["Bash|Write", "Edit", false],
    ["mcp__.*", "mcp__github__issue", true],
    ["Notebook.*", "Read", false],
    ["Edit|Write", "MultiEdit", false],
    ["[unclosed", "Bash", false],
    ["Bash", undefined, true],
  ];
  test.each(cases)("matcher %p selects %p: %p", (matcher, target, expected) => {
    expect(matcherSelects(matcher, target)).toBe(expected);
  });
});

describe("strayToolMatchers: a tool matcher that selects no tool is a typo", () => {
  const tools = ["Bash", "Read", "Write", "Edit"];
  const cases: [string, { event: string; matcher?: string }, boolean][] = [
    ["a case typo", { event: "PreToolUse", matcher: "bash" }, true],
    ["a comma list", { event: "PostToolUse", matcher: "Bash, Write" }, true],
    ["a tool synapse lacks", { event: "PreToolUse", matcher: "WebFetch" }, true],
    ["a list with one known tool", { event: "PreToolUse", matcher: "Edit|MultiEdit|Write" }, false],
    ["a regular expression that selects one", { event: "PreToolUse", matcher: "Wr.*" }, false],
    ["an MCP pattern (servers come later)", { event: "PreToolUse", matcher: "mcp__github__.*" }, false],
    ["no matcher", { event: "PreToolUse" }, false],
    ["all", { event: "PreToolUse", matcher: "*" }, false],
    ["another event's matcher", { event: "SessionStart", matcher: "startup" }, false],
  ];
  test.each(cases)("%s", (_name, hook, stray) => {
    expect(strayToolMatchers([hook], tools).length).toBe(stray ? 1 : 0);
  });
  test("each matcher once per event", () => {
    const hook = { event: "PreToolUse", matcher: "bash" };
    expect(strayToolMatchers([hook, hook, { ...hook, event: "PostToolUse" }], tools)).toHaveLength(2);
  });
});

describe("outcomeFromCommand", () => {
  const cases: [string, Parameters<typeof outcomeFromCommand>, HookOutcome][] = [
    [
      "exit 2 blocks with stderr",
      ["PreToolUse", { code: 2, stdout: "", stderr: "no rm here\n" }, "h"],
      { block: "no rm here" },
    ],
    [
      "exit 2 without stderr still blocks",
      ["Stop", { code: 2, stdout: "", stderr: "" }, "h"],
      { block: "blocked by hook h" },
    ],
    ["exit 0, nothing: no say", ["PreToolUse", { code: 0, stdout: "", stderr: "" }, "h"], {}],
    [
      "other exit: a notice only",
      ["PreToolUse", { code: 1, stdout: "", stderr: "boom\nmore" }, "h"],
      { notice: "hook h failed (exit 1): boom" },
    ],
    [
      "timed out: a notice",
      ["Stop", { code: null, stdout: "", stderr: "", timedOut: true }, "h"],
      { notice: "hook h timed out and was killed" },
    ],
    [
      "plain stdout is context for UserPromptSubmit",
      ["UserPromptSubmit", { code: 0, stdout: "ctx\n", stderr: "" }, "h"],
      { context: "ctx" },
    ],
    [
      "plain stdout is context for SessionStart",
      ["SessionStart", { code: 0, stdout: "hello", stderr: "" }, "h"],
      { context: "hello" },
    ],
    ["plain stdout is nothing for PreToolUse", ["PreToolUse", { code: 0, stdout: "chatter", stderr: "" }, "h"], {}],
    [
      "JSON block",
      ["PreToolUse", { code: 0, stdout: '{"decision":"block","reason":"nope"}', stderr: "" }, "h"],
      { block: "nope" },
    ],
    [
      "JSON permissionDecision deny",
      [
        "PreToolUse",
        {
          code: 0,
          stdout: JSON.stringify({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "r" } }),
          stderr: "",
        },
        "h",
      ],
      { block: "r", permission: "deny" },
    ],
    [
      "JSON allow",
      ["PreToolUse", { code: 0, stdout: '{"hookSpecificOutput":{"permissionDecision":"allow"}}', stderr: "" }, "h"],
      { permission: "allow" },
    ],
    [
      "JSON additionalContext",
      ["PostToolUse", { code: 0, stdout: '{"hookSpecificOutput":{"additionalContext":"lint ok"}}', stderr: "" }, "h"],
      { context: "lint ok" },
    ],
    [
      "JSON updatedInput (with allow): the input the call runs with",
      [
        "PreToolUse",
        {
          code: 0,
          stdout: JSON.stringify({
            hookSpecificOutput: { permissionDecision: "allow", updatedInput: { command: "npm test --silent" } },
          }),
          stderr: "",
        },
        "h",
      ],
      { permission: "allow", updatedInput: { command: "npm test --silent" } },
    ],
    [
      "broken JSON: a notice",
      ["PreToolUse", { code: 0, stdout: "{nope", stderr: "" }, "h"],
      { notice: "hook h printed text that starts like JSON but is not JSON" },
    ],
  ];
  test.each(cases)("%s", (_name, args, expected) => {
    expect(outcomeFromCommand(...args)).toEqual(expected);
  });

  test('"continue": false stops the agent, with stopReason (or the hook\'s name) for the user', () => {
    expect(outcomeFromJson({ continue: false, stopReason: " freeze " }, "h")).toEqual({ stop: "freeze" });
    expect(outcomeFromJson({ continue: false, decision: "block", reason: "r" }, "h")).toEqual({
      block: "r",
      stop: "stopped by hook h",
    });
    expect(outcomeFromJson({ continue: true, stopReason: "unused" }, "h")).toEqual({});
  });

  test("suppressOutput hides nothing synapse shows: the user's line and the model's context stay", () => {
    const said = { systemMessage: "m", hookSpecificOutput: { additionalContext: "c" } };
    expect(outcomeFromJson({ suppressOutput: true, ...said }, "h")).toEqual({ notice: "m", context: "c" });
    expect(outcomeFromJson({ suppressOutput: true, continue: false, stopReason: "s" }, "h")).toEqual({ stop: "s" });
  });

  test("a wrong field type is named, and decides nothing", () => {
    expect(outcomeFromJson({ decision: "maybe" }, "h").notice).toContain('"decision"');
    const notObject = outcomeFromJson({ hookSpecificOutput: { updatedInput: "rm -rf /" } }, "h");
    expect(notObject.updatedInput).toBeUndefined();
    expect(notObject.notice).toContain("updatedInput");
  });
});

describe("hook settings", () => {
  test("Claude Code's format is accepted and flattened in order", () => {
    const value = {
      PreToolUse: [{ matcher: "Bash|Write", hooks: [{ type: "command", command: "a", timeout: 5 }] }],
      Stop: [{ hooks: [{ type: "command", command: "b" }] }],
    };
    const checked = checkHookSettings(value);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(flattenSettings(checked.settings, "user", "u")).toEqual([
      { event: "PreToolUse", matcher: "Bash|Write", command: "a", timeoutS: 5, scope: "user", origin: "u" },
      { event: "Stop", matcher: undefined, command: "b", timeoutS: 60, scope: "user", origin: "u" },
    ]);
  });

  const bad: [unknown, string][] = [
    [{ Notification: [] }, "events: PreToolUse"],
    [{ Stop: [{ hooks: [{ type: "prompt", command: "x" }] }] }, '"Stop[0].hooks[0].type"'],
    [{ Stop: [{ hooks: [{ type: "command", command: "" }] }] }, '"Stop[0].hooks[0].command"'],
    [{ Stop: [{ hooks: [{ type: "command", command: "x", timeout: -1 }] }] }, '"Stop[0].hooks[0].timeout"'],
    [{ Stop: {} }, '"Stop"'],
    [[], "events"],
    [{ PreToolUse: [{ matcher: "*Bash", hooks: [] }] }, '"PreToolUse[0].matcher": "*Bash" is not a valid regular'],
    [{ PostToolUse: [{ matcher: "Write|(", hooks: [] }] }, '"PostToolUse[0].matcher"'],
  ];
  test.each(bad)("%j is refused, naming the field", (value, says) => {
    const checked = checkHookSettings(value);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toContain(says);
  });

  test("the project's hooks are kept apart from the user's (they need approval); the flag is per run", () => {
    const stop = (command: string) => ({ Stop: [{ hooks: [{ type: "command" as const, command }] }] });
    const base = { env: {}, processCwd: "/work", homeDir: "/home/u" };
    const sources = { ...base, userFile: { hooks: stop("mine") }, projectFile: { hooks: stop("theirs") } };
    const c = resolveConfig({ ...sources, flags: {} });
    expect(c.hooks).toEqual({
      user: stop("mine"),
      project: stop("theirs"),
      projectOrigin: "/work/.synapse/config.json",
      allowProject: false,
    });
    expect(resolveConfig({ ...sources, flags: { allowProjectHooks: true } }).hooks?.allowProject).toBe(true);
  });

  test("a config file's bad hooks key is a sentence naming it", () => {
    expect(() => checkFileConfig({ hooks: { Stop: "x" } })).toThrow(/^"hooks": "Stop" must be an array/);
    expect(checkFileConfig({ hooks: {} })).toEqual({ hooks: {} });
  });
});

describe("SessionHooks combines its sources' answers", () => {
  const source = (answers: Partial<Record<string, HookOutcome[]>>, heard: HookEventInput[] = []): HookSource => ({
    async run(event) {
      heard.push(event);
      return answers[event.hook_event_name] ?? [];
    },
  });
  const make = (...sources: HookSource[]) => {
    const warnings: string[] = [];
    const hooks = new SessionHooks({
      sessionId: "s1",
      transcriptPath: "/t",
      cwd: "/w",
      startSource: "startup",
      permissionMode: () => "default",
      warn: (m) => warnings.push(m),
    });
    for (const s of sources) hooks.addSource(s);
    return { hooks, warnings };
  };
  const signal = new AbortController().signal;
  const call = { id: "c1", name: "Bash", input: { command: "ls" } };

  test("a block beats any allow; allow needs every deciding hook to allow", async () => {
    const allow = source({ PreToolUse: [{ permission: "allow" }] });
    const ask = source({ PreToolUse: [{ permission: "ask" }] });
    const deny = source({ PreToolUse: [{ block: "no", permission: "deny" }] });
    expect(await make(allow).hooks.preToolUse(call, signal)).toEqual({ allow: true });
    expect(await make(allow, ask).hooks.preToolUse(call, signal)).toEqual({ allow: false, ask: "no reason given" });
    expect(await make(allow, deny).hooks.preToolUse(call, signal)).toEqual({ block: "no", allow: false });
    expect(await make().hooks.preToolUse(call, signal)).toEqual({ allow: false });
  });

  test("a rewritten input goes with the verdict; hooks that rewrite it differently: the first, and a warning", async () => {
    const one = source({ PreToolUse: [{ permission: "allow", updatedInput: { command: "ls -a" } }] });
    const same = source({ PreToolUse: [{ updatedInput: { command: "ls -a" } }] });
    const other = source({ PreToolUse: [{ updatedInput: { command: "ls -l" } }] });
    const asks = source({ PreToolUse: [{ permission: "ask", reason: "why" }] });
    expect(await make(one).hooks.preToolUse(call, signal)).toEqual({ allow: true, updatedInput: { command: "ls -a" } });
    const agreeing = make(one, same);
    expect((await agreeing.hooks.preToolUse(call, signal)).updatedInput).toEqual({ command: "ls -a" });
    expect(agreeing.warnings).toEqual([]);
    const differing = make(one, other);
    expect((await differing.hooks.preToolUse(call, signal)).updatedInput).toEqual({ command: "ls -a" });
    expect(differing.warnings).toEqual([
      "2 PreToolUse hooks rewrote a Bash call's input differently; the first in config order applies",
    ]);
    expect(await make(other, asks).hooks.preToolUse(call, signal)).toEqual({
      allow: false,
      ask: "why",
      updatedInput: { command: "ls -l" },
    });
    // A block ends the call: nothing to rewrite.
    const deny = source({ PreToolUse: [{ block: "no" }] });
    expect(await make(one, deny).hooks.preToolUse(call, signal)).toEqual({ block: "no", allow: false });
  });

  test("a hook's stop wins over every other answer, at each event", async () => {
    const stops = source({
      PreToolUse: [{ stop: "freeze" }],
      PostToolUse: [{ stop: "after", context: "c" }],
      Stop: [{ stop: "enough" }],
      UserPromptSubmit: [{ stop: "no prompts" }],
    });
    const blocks = source({
      PreToolUse: [{ block: "b" }],
      Stop: [{ block: "go on" }],
      UserPromptSubmit: [{ block: "x" }],
    });
    const { hooks } = make(blocks, stops);
    expect(await hooks.preToolUse(call, signal)).toEqual({ stop: "freeze", allow: false });
    expect(await hooks.postToolUse(call, {}, signal)).toEqual({ context: "c", stop: "after" });
    expect(await hooks.stop(false, signal)).toEqual({ stop: "enough" });
    expect(await hooks.userPromptSubmit("p", signal)).toEqual({ stop: "no prompts" });
    expect(await make(blocks).hooks.stop(false, signal)).toEqual({ reason: "go on" });
    // SessionStart's stop ends the first prompt's run; it does not fire again.
    const starting = make(source({ SessionStart: [{ stop: "closed", context: "facts" }] }));
    expect(await starting.hooks.userPromptSubmit("p", signal)).toEqual({ stop: "closed" });
    expect(await starting.hooks.userPromptSubmit("p", signal)).toEqual({});
  });

  test("events carry Claude Code's common fields; SessionStart fires once, before the first prompt", async () => {
    const heard: HookEventInput[] = [];
    const { hooks } = make(
      source({ SessionStart: [{ context: "repo facts" }], UserPromptSubmit: [{ context: "p" }] }, heard),
    );
    expect(await hooks.userPromptSubmit("hi", signal)).toEqual({ context: "repo facts\np" });
    expect(await hooks.userPromptSubmit("again", signal)).toEqual({ context: "p" });
    expect(heard.map((e) => e.hook_event_name)).toEqual(["SessionStart", "UserPromptSubmit", "UserPromptSubmit"]);
    expect(heard[1]).toEqual({
      session_id: "s1",
      transcript_path: "/t",
      cwd: "/w",
      permission_mode: "default",
      hook_event_name: "UserPromptSubmit",
      prompt: "hi",
    });
  });

  test("notices go to the user; PostToolUse blocks and contexts are both kept", async () => {
    const { hooks, warnings } = make(
      source({ PostToolUse: [{ context: "a", notice: "said" }] }),
      source({ PostToolUse: [{ block: "b" }] }),
    );
    expect(await hooks.postToolUse(call, { content: "x", is_error: false }, signal)).toEqual({ context: "a\nb" });
    expect(warnings).toEqual(["said"]);
  });
});

describe("gateAfterHooks: what a PreToolUse verdict does to the gate's question", () => {
  const call = { id: "c", name: "Bash", input: { command: "ls" } };
  const asker = (answer: ApprovalAnswer) => {
    const asked: ApprovalRequest[] = [];
    return { asked, approve: async (r: ApprovalRequest) => (asked.push(r), answer) };
  };

  test("no say: the services as they were; allow: the policy's question answered yes", async () => {
    const services = { granted: [] };
    expect(await gateAfterHooks({ allow: false }, call, services)).toEqual({ services });
    const allowed = await gateAfterHooks({ allow: true }, call, services);
    if (!("services" in allowed)) throw new Error("refused");
    expect(await allowed.services.approve?.({ tool: "Bash", input: {}, reason: "", rule: "" })).toBe("yes");
  });

  test("ask: headless refuses; yes lets the policy's own question through; no and Esc refuse", async () => {
    const verdict = { allow: false, ask: "touches prod" };
    const headless = await gateAfterHooks(verdict, call, {});
    expect(headless).toMatchObject({ reason: "a PreToolUse hook asks for approval: touches prod" });
    expect("refused" in headless && headless.refused).toContain("This run cannot ask the user");

    const yes = asker("yes");
    const allowed = await gateAfterHooks(verdict, call, { approve: yes.approve });
    expect(yes.asked).toEqual([
      {
        tool: "Bash",
        input: call.input,
        reason: "a PreToolUse hook asks for approval: touches prod",
        rule: "",
        exact: false,
      },
    ]);
    if (!("services" in allowed)) throw new Error("refused");
    expect(await allowed.services.approve?.({ tool: "Bash", input: {}, reason: "", rule: "" })).toBe("yes");

    expect(await gateAfterHooks(verdict, call, { approve: asker({ no: "not now" }).approve })).toEqual({
      reason: "the user said no",
      refused: "The user refused this call: not now. Do not retry it as is.",
    });
    expect(await gateAfterHooks(verdict, call, { approve: asker({ no: "", stop: true }).approve })).toMatchObject({
      reason: "rejected by the user",
    });
  });

  test("SessionHooks: an ask (with its reason) beats allows, a block beats an ask", async () => {
    const src = (o: HookOutcome): HookSource => ({ run: async (e) => (e.hook_event_name === "PreToolUse" ? [o] : []) });
    const make = (...sources: HookSource[]) => {
      const hooks = new SessionHooks({
        sessionId: "s",
        transcriptPath: "/t",
        cwd: "/w",
        startSource: "startup",
        permissionMode: () => "default",
        warn: () => {},
      });
      for (const s of sources) hooks.addSource(s);
      return hooks;
    };
    const signal = new AbortController().signal;
    const ask = src({ permission: "ask", reason: "why" });
    expect(await make(src({ permission: "allow" }), ask).preToolUse(call, signal)).toEqual({
      allow: false,
      ask: "why",
    });
    expect(await make(ask, src({ block: "no" })).preToolUse(call, signal)).toEqual({ allow: false, block: "no" });
  });
});

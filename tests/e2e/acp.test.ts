// `synapse acp` driven by the official ACP SDK's client, as an editor drives it: the compiled binary
// against the fake model server. Every step an editor takes: initialize, sessions, prompts with
// tool calls shown live (kinds, locations, diffs), permission questions answered both ways, cancel,
// load and list of stored sessions, two sessions at once, and bad input that must not crash it.

import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { type AcpAgentProcess, agentText, initialize, startAcpAgent, toolUpdates } from "../support/acp-client.ts";
import { providerEnv, runBinary, spawnBinary, tempHome } from "../support/binary.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();
const running: AcpAgentProcess[] = [];
afterEach(async () => {
  for (const a of running.splice(0)) {
    a.proc.kill("SIGKILL");
    await a.proc.exited;
  }
});

function setup(): { home: ReturnType<typeof tempHome>; ws: string } {
  const home = tempHome();
  const ws = join(home.dir, "project");
  mkdirSync(ws);
  return { home, ws };
}

function start(env: Record<string, string>): AcpAgentProcess {
  const agent = startAcpAgent(env);
  running.push(agent);
  return agent;
}

async function newSession(agent: AcpAgentProcess, cwd: string): Promise<acp.NewSessionResponse> {
  return agent.conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
}

const prompt = (agent: AcpAgentProcess, sessionId: string, text: string) =>
  agent.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

describe("synapse acp: a session from initialize to the end of a turn", () => {
  test("initialize answers the SDK's protocol version and Synapse's capabilities", async () => {
    const { home } = setup();
    const agent = start(home.env);
    const init = await initialize(agent);
    expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.promptCapabilities).toMatchObject({ image: true, embeddedContext: true });
    expect(init.agentInfo?.name).toBe("synapse");
    expect(await agent.end()).toBe(0);
  });

  test("a prompt with a Read streams the answer, the call with its kind and location, and ends end_turn", async () => {
    const { home, ws } = setup();
    writeFileSync(join(ws, "notes.txt"), "alpha\nbeta\n");
    const s = await serve([
      { toolCalls: [{ id: "toolu_read", name: "Read", input: { path: "notes.txt" } }] },
      { text: "The file says alpha and beta." },
    ]);
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId, modes } = await newSession(agent, ws);
    expect(modes?.currentModeId).toBe("default");
    const res = await prompt(agent, sessionId, "what is in notes.txt?");
    expect(res.stopReason).toBe("end_turn");
    expect(agentText(agent.updates, sessionId)).toBe("The file says alpha and beta.");
    const calls = toolUpdates(agent.updates, sessionId);
    expect(calls[0]).toMatchObject({
      toolCallId: "toolu_read",
      kind: "read",
      title: "Read notes.txt",
      locations: [{ path: join(ws, "notes.txt") }],
    });
    const last = calls.at(-1) as acp.ToolCallUpdate;
    expect(last.status).toBe("completed");
    expect(JSON.stringify(last.content)).toContain("alpha");
    // The model got the file too: the session really ran in the editor's folder.
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain("beta");
  });

  test("an Edit is shown as a diff of the old and new text, and the file is changed", async () => {
    const { home, ws } = setup();
    writeFileSync(join(ws, "app.ts"), "const a = 1;\nconst b = 2;\n");
    const s = await serve([
      {
        toolCalls: [
          {
            id: "toolu_edit",
            name: "Edit",
            input: { path: "app.ts", old_string: "const b = 2;", new_string: "const b = 3;" },
          },
        ],
      },
      { text: "Changed." },
    ]);
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    await agent.conn.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "accept-edits" });
    expect((await prompt(agent, sessionId, "bump b")).stopReason).toBe("end_turn");
    expect(readFileSync(join(ws, "app.ts"), "utf8")).toBe("const a = 1;\nconst b = 3;\n");
    const calls = toolUpdates(agent.updates, sessionId);
    expect(calls[0]).toMatchObject({ kind: "edit", locations: [{ path: join(ws, "app.ts") }] });
    const diff = calls.flatMap((c) => c.content ?? []).find((c) => c.type === "diff");
    expect(diff).toMatchObject({ type: "diff", path: join(ws, "app.ts") });
    const d = diff as acp.Diff;
    expect(d.oldText).toContain("const b = 2;");
    expect(d.newText).toContain("const b = 3;");
    expect(d.newText).not.toContain("const b = 2;");
    const mode = agent.updates.find((n) => n.update.sessionUpdate === "current_mode_update");
    expect(mode?.update).toMatchObject({ currentModeId: "accept-edits" });
  });

  test("a Bash call is an execute call with its output", async () => {
    const { home, ws } = setup();
    const s = await serve([
      { toolCalls: [{ id: "toolu_sh", name: "Bash", input: { command: "echo hello-from-shell" } }] },
      { text: "ok" },
    ]);
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    expect((await prompt(agent, sessionId, "run it")).stopReason).toBe("end_turn");
    const calls = toolUpdates(agent.updates, sessionId);
    expect(calls[0]).toMatchObject({ toolCallId: "toolu_sh", kind: "execute", title: "echo hello-from-shell" });
    expect(calls.at(-1)!.status).toBe("completed");
    expect(JSON.stringify(calls.at(-1)!.content)).toContain("hello-from-shell");
  });

  test("with the editor's terminal offered, a command still runs in Synapse's shell; its output streams live", async () => {
    const { home, ws } = setup();
    const gate = join(ws, "gate");
    Bun.spawnSync(["mkfifo", gate]);
    const command = `echo live-first; cat ${gate}; echo live-last`;
    const s = await serve([{ toolCalls: [{ id: "toolu_live", name: "Bash", input: { command } }] }, { text: "ok" }]);
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent, { terminal: true });
    const { sessionId } = await newSession(agent, ws);
    const done = prompt(agent, sessionId, "run it");
    const ofCall = (n: acp.SessionNotification) =>
      n.update.sessionUpdate === "tool_call_update" && n.update.toolCallId === "toolu_live";
    // The command blocks on the fifo: this update can only come while it still runs.
    const live = await agent.waitForUpdate((n) => ofCall(n) && JSON.stringify(n.update).includes("live-first"));
    expect(live.update).toMatchObject({ status: "in_progress" });
    expect(agent.updates.filter(ofCall).some((n) => (n.update as acp.ToolCallUpdate).status === "completed")).toBe(
      false,
    );
    const release = Bun.spawn(["sh", "-c", `echo go > ${gate}`]);
    expect((await done).stopReason).toBe("end_turn");
    await release.exited;
    // Synapse never handed the command to the editor: the sandbox and permission rules applied.
    expect(agent.terminalCreates).toEqual([]);
    const updates = agent.updates.filter(ofCall).map((n) => n.update as acp.ToolCallUpdate);
    const end = updates.findIndex((u) => u.status === "completed");
    expect(end).toBeGreaterThan(-1);
    expect(updates.slice(end).every((u) => u.status === "completed")).toBe(true);
    expect(JSON.stringify(updates.at(-1)!.content)).toContain("live-last");
  });

  test("max turns ends the prompt with max_turn_requests", async () => {
    const { home, ws } = setup();
    const s = await serve([{ toolCalls: [{ name: "Bash", input: { command: "echo one" } }] }, { text: "never asked" }]);
    const agent = start({ ...home.env, ...providerEnv(s.url), SYNAPSE_MAX_TURNS: "1" });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    expect((await prompt(agent, sessionId, "go")).stopReason).toBe("max_turn_requests");
  });
});

test("an answer cut at the output limit ends the prompt with max_tokens", async () => {
  const { home, ws } = setup();
  const s = await serve([{ text: "a final answer cut sho", stopReason: "max_tokens" }]);
  const agent = start({ ...home.env, ...providerEnv(s.url) });
  await initialize(agent);
  const { sessionId } = await newSession(agent, ws);
  expect((await prompt(agent, sessionId, "write a lot")).stopReason).toBe("max_tokens");
});

test("a second prompt while one runs in the same session is refused; the first goes on", async () => {
  const { home, ws } = setup();
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const s = await serve([{ text: "the one answer", after: gate }]);
  const agent = start({ ...home.env, ...providerEnv(s.url) });
  await initialize(agent);
  const { sessionId } = await newSession(agent, ws);
  const first = prompt(agent, sessionId, "one");
  await s.waitForRequests(1);
  await expect(prompt(agent, sessionId, "two")).rejects.toMatchObject({ code: -32600 });
  open();
  expect((await first).stopReason).toBe("end_turn");
});

test("`synapse acp` takes no arguments: a usage error, exit 2", async () => {
  const r = await runBinary({ args: ["acp", "extra"] });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("acp takes no arguments");
  expect(r.stdout).toBe("");
});

describe("synapse acp: permission questions go to the editor", () => {
  const outsideWrite = (outside: string) => [
    { toolCalls: [{ id: "toolu_w", name: "Write", input: { path: join(outside, "out.txt"), content: "written\n" } }] },
    { text: "done" },
  ];

  test("allowed once: the question names the call and the options; the write happens", async () => {
    const { home, ws } = setup();
    const outside = join(home.dir, "elsewhere");
    mkdirSync(outside);
    const s = await serve(outsideWrite(outside));
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    agent.answer = "allow_once";
    expect((await prompt(agent, sessionId, "write outside")).stopReason).toBe("end_turn");
    expect(agent.permissions).toHaveLength(1);
    const q = agent.permissions[0]!;
    expect(q.toolCall.toolCallId).toBe("toolu_w");
    expect(q.options.map((o) => o.kind)).toContain("allow_once");
    expect(q.options.map((o) => o.kind)).toContain("reject_once");
    expect(readFileSync(join(outside, "out.txt"), "utf8")).toBe("written\n");
  });

  test("rejected: nothing is written and the model is told the user refused", async () => {
    const { home, ws } = setup();
    const outside = join(home.dir, "elsewhere");
    mkdirSync(outside);
    const s = await serve(outsideWrite(outside));
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    agent.answer = "reject_once";
    expect((await prompt(agent, sessionId, "write outside")).stopReason).toBe("end_turn");
    expect(agent.permissions).toHaveLength(1);
    expect(existsSync(join(outside, "out.txt"))).toBe(false);
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain("refused");
    expect(toolUpdates(agent.updates, sessionId).at(-1)!.status).toBe("failed");
  });

  test("a cancelled question is a refusal", async () => {
    const { home, ws } = setup();
    const outside = join(home.dir, "elsewhere");
    mkdirSync(outside);
    const s = await serve(outsideWrite(outside));
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    agent.answer = "cancel";
    await prompt(agent, sessionId, "write outside");
    expect(agent.permissions).toHaveLength(1);
    expect(existsSync(join(outside, "out.txt"))).toBe(false);
  });
});

test("additionalDirectories widen the workspace like --add-dir: a write there needs no question", async () => {
  const { home, ws } = setup();
  const extra = join(home.dir, "shared-lib");
  mkdirSync(extra);
  const s = await serve([
    { toolCalls: [{ name: "Write", input: { path: join(extra, "y.txt"), content: "y\n" } }] },
    { text: "ok" },
  ]);
  const agent = start({ ...home.env, ...providerEnv(s.url), SYNAPSE_PERMISSION_MODE: "accept-edits" });
  await initialize(agent);
  agent.answer = "reject_once";
  const { sessionId } = await agent.conn.agent.request(acp.methods.agent.session.new, {
    cwd: ws,
    additionalDirectories: [extra],
    mcpServers: [],
  });
  expect((await prompt(agent, sessionId, "write there")).stopReason).toBe("end_turn");
  expect(agent.permissions).toEqual([]);
  expect(readFileSync(join(extra, "y.txt"), "utf8")).toBe("y\n");
  await expect(
    agent.conn.agent.request(acp.methods.agent.session.new, {
      cwd: ws,
      additionalDirectories: [join(home.dir, "missing")],
      mcpServers: [],
    }),
  ).rejects.toMatchObject({ code: -32602 });
});

describe("synapse acp: cancel, load, list, several sessions", () => {
  test("session/cancel mid-stream stops the turn; the prompt answers cancelled", async () => {
    const { home, ws } = setup();
    const s = await serve([
      { text: "first words and then a great deal more that never arrives", stallAfter: 5 },
      { text: "after the cancel" },
    ]);
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    const turn = prompt(agent, sessionId, "talk");
    await agent.waitForUpdate((n) => n.update.sessionUpdate === "agent_message_chunk");
    await agent.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe("cancelled");
    // The session still takes prompts after a cancel, and the model saw the cut turn closed.
    expect((await prompt(agent, sessionId, "again")).stopReason).toBe("end_turn");
    expect(agentText(agent.updates, sessionId)).toContain("after the cancel");
    expect(await agent.end()).toBe(0);
  });

  test("a cancel while a permission question waits refuses the call and ends the turn cancelled", async () => {
    const { home, ws } = setup();
    const outside = join(home.dir, "elsewhere");
    mkdirSync(outside);
    const s = await serve([
      { toolCalls: [{ name: "Write", input: { path: join(outside, "x.txt"), content: "x" } }] },
      { text: "after the cancel" },
    ]);
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    // The client holds this question unanswered: only the cancel can end the wait.
    agent.answer = "hold";
    const turn = prompt(agent, sessionId, "write");
    await agent.waitForPermission();
    await agent.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe("cancelled");
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
    // Every issued call got a result: the next request (checked by the strict fake) answers the Write.
    expect((await prompt(agent, sessionId, "go on")).stopReason).toBe("end_turn");
    expect(s.rejected).toEqual([]);
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain("tool_result");
    expect(await agent.end()).toBe(0);
  });

  test("session/load replays a stored session and session/list lists it", async () => {
    const { home, ws } = setup();
    const s = await serve([{ text: "remembered answer" }, { text: "second answer" }]);
    const env = { ...home.env, ...providerEnv(s.url) };
    const first = start(env);
    await initialize(first);
    const { sessionId } = await newSession(first, ws);
    await prompt(first, sessionId, "remember this prompt");
    expect(await first.end()).toBe(0);

    const second = start(env);
    await initialize(second);
    const list = await second.conn.agent.request(acp.methods.agent.session.list, { cwd: ws });
    expect(list.sessions.map((x) => x.sessionId)).toContain(sessionId);
    await second.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws, mcpServers: [] });
    const replayed = second.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
    expect(replayed).toContainEqual(
      expect.objectContaining({
        sessionUpdate: "user_message_chunk",
        content: { type: "text", text: "remember this prompt" },
      }),
    );
    expect(agentText(second.updates, sessionId)).toContain("remembered answer");
    // The loaded session goes on: the model sees the earlier turn.
    expect((await prompt(second, sessionId, "and now?")).stopReason).toBe("end_turn");
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain("remember this prompt");
  });

  test("session/close saves and releases a session; session/resume opens it again in the same process", async () => {
    const { home, ws } = setup();
    const s = await serve([{ text: "first" }, { text: "second" }]);
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    await prompt(agent, sessionId, "the first prompt");
    await agent.conn.agent.request(acp.methods.agent.session.close, { sessionId });
    await expect(prompt(agent, sessionId, "closed?")).rejects.toBeDefined();
    await agent.conn.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: ws });
    expect((await prompt(agent, sessionId, "the second prompt")).stopReason).toBe("end_turn");
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain("the first prompt");
  });

  test("two sessions at once: one waiting on its model does not hold up the other", async () => {
    const { home, ws } = setup();
    const other = join(home.dir, "other");
    mkdirSync(other);
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const s = await serve((req) =>
      JSON.stringify(req.body.messages).includes("slow one")
        ? { text: "slow done", after: gate }
        : { text: "fast done" },
    );
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const a = await newSession(agent, ws);
    const b = await newSession(agent, other);
    expect(a.sessionId).not.toBe(b.sessionId);
    const slow = prompt(agent, a.sessionId, "the slow one");
    await s.waitForRequests(1);
    expect((await prompt(agent, b.sessionId, "the fast one")).stopReason).toBe("end_turn");
    expect(agentText(agent.updates, b.sessionId)).toBe("fast done");
    expect(agentText(agent.updates, a.sessionId)).toBe("");
    open();
    expect((await slow).stopReason).toBe("end_turn");
    expect(agentText(agent.updates, a.sessionId)).toBe("slow done");
  });
});

describe("synapse acp: bad input and a client that goes away", () => {
  test("a malformed line gets a parse error and the connection goes on", async () => {
    const { home, ws } = setup();
    const agent = start(home.env);
    agent.writeRaw("this is not json\n");
    const init = await initialize(agent);
    expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    await expect(agent.conn.agent.request("no/such_method", {})).rejects.toMatchObject({ code: -32601 });
    await expect(
      agent.conn.agent.request(acp.methods.agent.session.prompt, {
        sessionId: "nope",
        prompt: [{ type: "text", text: "x" }],
      }),
    ).rejects.toBeDefined();
    await expect(newSession(agent, join(ws, "missing"))).rejects.toMatchObject({ code: -32602 });
    // The protocol's paths are absolute: "." (which exists where the agent started) is refused.
    await expect(newSession(agent, ".")).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("absolute"),
    });
    expect(await agent.end()).toBe(0);
  });

  test("stdout carries only JSON-RPC lines, warnings and all; logs go to stderr", async () => {
    const { home, ws } = setup();
    const s = await serve([{ toolCalls: [{ name: "Bash", input: { command: "echo out-of-band" } }] }, { text: "hi" }]);
    // Raw pipes, no SDK in between: every byte the agent writes to stdout is looked at.
    const proc = spawnBinary({
      args: ["acp"],
      stdin: "silent-pipe",
      env: { ...home.env, ...providerEnv(s.url), SYNAPSE_SANDBOX: "full-access" },
    });
    const send = (msg: object) => {
      proc.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
      proc.stdin!.flush();
    };
    const lines: any[] = [];
    const reader = (async () => {
      let buffer = "";
      for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
        buffer += new TextDecoder().decode(chunk);
        for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
          lines.push(JSON.parse(buffer.slice(0, nl)));
          buffer = buffer.slice(nl + 1);
        }
      }
      expect(buffer).toBe("");
    })();
    const answered = async (id: number) => {
      while (!lines.some((l) => l.id === id)) await Bun.sleep(10);
      return lines.find((l) => l.id === id);
    };
    send({ id: 1, method: "initialize", params: { protocolVersion: acp.PROTOCOL_VERSION } });
    await answered(1);
    send({ id: 2, method: "session/new", params: { cwd: ws, mcpServers: [] } });
    const sessionId = (await answered(2)).result.sessionId;
    send({ id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "go" }] } });
    expect((await answered(3)).result.stopReason).toBe("end_turn");
    proc.stdin!.end();
    expect(await proc.exited).toBe(0);
    await reader;
    expect(lines.every((l) => l.jsonrpc === "2.0")).toBe(true);
    const stderr = await new Response(proc.stderr).text();
    // The no-sandbox warning went to stderr, not into the protocol stream, and to the log file.
    expect(stderr).toContain("synapse acp: warning:");
    const logFile = join(home.env.SYNAPSE_HOME!, "logs", "acp.log");
    expect(readFileSync(logFile, "utf8")).toContain("synapse acp: warning:");
    expect(statSync(logFile).mode & 0o077).toBe(0);
  });

  test("the client going away mid-turn ends the process with the session saved", async () => {
    const { home, ws } = setup();
    const s = await serve([{ text: "partial answer streaming", stallAfter: 5 }]);
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    void prompt(agent, sessionId, "keep this prompt").catch(() => {});
    await agent.waitForUpdate((n) => n.update.sessionUpdate === "agent_message_chunk");
    expect(await agent.end()).toBe(0);
    const archive = join(home.env.SYNAPSE_HOME!, "sessions", sessionId);
    expect(existsSync(archive)).toBe(true);
    const stored = Bun.spawnSync(["grep", "-r", "keep this prompt", archive]).stdout.toString();
    expect(stored).toContain("keep this prompt");
  });
});

test("SIGTERM mid-turn ends the process with 143 and the session saved", async () => {
  const { home, ws } = setup();
  const s = await serve([{ text: "streaming and then silence", stallAfter: 5 }]);
  const agent = start({ ...home.env, ...providerEnv(s.url) });
  await initialize(agent);
  const { sessionId } = await newSession(agent, ws);
  void prompt(agent, sessionId, "a prompt to keep").catch(() => {});
  await agent.waitForUpdate((n) => n.update.sessionUpdate === "agent_message_chunk");
  agent.proc.kill("SIGTERM");
  expect(await agent.proc.exited).toBe(143);
  const stored = Bun.spawnSync([
    "grep",
    "-r",
    "a prompt to keep",
    join(home.env.SYNAPSE_HOME!, "sessions", sessionId),
  ]).stdout.toString();
  expect(stored).toContain("a prompt to keep");
});

describe("synapse acp: prompt content, commands, models", () => {
  // A 1×1 PNG.
  const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

  test("an image and an embedded file reach the model; the slash commands are announced", async () => {
    const { home, ws } = setup();
    const s = await serve([{ text: "I see it." }]);
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    await agent.waitForUpdate((n) => n.update.sessionUpdate === "available_commands_update");
    const announced = agent.updates.find((n) => n.update.sessionUpdate === "available_commands_update")!
      .update as acp.AvailableCommandsUpdate;
    expect(announced.availableCommands.map((c) => c.name)).toContain("compact");
    const res = await agent.conn.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: "text", text: "what is this?" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "resource", resource: { uri: `file://${ws}/spec.md`, text: "the embedded spec text" } },
      ],
    });
    expect(res.stopReason).toBe("end_turn");
    const sent = JSON.stringify(s.requests[0]!.body.messages);
    expect(sent).toContain('"type":"image"');
    expect(sent).toContain(PNG.slice(0, 40));
    expect(sent).toContain("the embedded spec text");
  });

  test("session/set_model switches the model the next request goes to; an unknown one is an error", async () => {
    const { home, ws } = setup();
    const s = await serve([{ text: "on the new model" }]);
    const agent = start({ ...home.env, ...providerEnv(s.url), SYNAPSE_MODEL: "anthropic/claude-fake-start" });
    await initialize(agent);
    const { sessionId } = await newSession(agent, ws);
    await agent.conn.agent.request("session/set_model", { sessionId, modelId: "claude-sonnet-5-5" });
    await expect(
      agent.conn.agent.request("session/set_model", { sessionId, modelId: "no-such-model" }),
    ).rejects.toMatchObject({ code: -32602 });
    expect((await prompt(agent, sessionId, "hi")).stopReason).toBe("end_turn");
    expect(s.requests.at(-1)!.body.model).toBe("claude-sonnet-5-5");
    // The command's own lines answered the method: none were sent as chat.
    expect(agentText(agent.updates, sessionId)).toBe("on the new model");
  });
});

describe("synapse acp: the editor's files", () => {
  test("Read sees the editor's unsaved buffer; Edit changes the buffer through the editor, not the disk", async () => {
    const { home, ws } = setup();
    const file = join(ws, "app.ts");
    writeFileSync(file, "const b = 1; // saved\n");
    const s = await serve([
      { toolCalls: [{ id: "toolu_r", name: "Read", input: { path: "app.ts" } }] },
      {
        toolCalls: [
          {
            id: "toolu_e",
            name: "Edit",
            input: { path: "app.ts", old_string: "const b = 2;", new_string: "const b = 3;" },
          },
        ],
      },
      { text: "done" },
    ]);
    const agent = start({ ...home.env, ...providerEnv(s.url), SYNAPSE_PERMISSION_MODE: "accept-edits" });
    await initialize(agent, { fs: true });
    agent.buffers.set(file, "const b = 2; // unsaved\n");
    const { sessionId } = await newSession(agent, ws);
    expect((await prompt(agent, sessionId, "bump b")).stopReason).toBe("end_turn");
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain("unsaved");
    expect(agent.fsCalls.filter((c) => c.method === "write")).toEqual([
      { method: "write", path: file, content: "const b = 3; // unsaved\n" },
    ]);
    expect(readFileSync(file, "utf8")).toBe("const b = 1; // saved\n");
  });

  test("attack: a Write through a symbolic link is refused before the editor is asked to write", async () => {
    const { home, ws } = setup();
    writeFileSync(join(ws, "real.txt"), "real\n");
    Bun.spawnSync(["ln", "-s", "real.txt", join(ws, "link.txt")]);
    const s = await serve([
      { toolCalls: [{ id: "toolu_w", name: "Write", input: { path: "link.txt", content: "through the link\n" } }] },
      { text: "ok" },
    ]);
    const agent = start({ ...home.env, ...providerEnv(s.url), SYNAPSE_PERMISSION_MODE: "accept-edits" });
    await initialize(agent, { fs: true });
    const { sessionId } = await newSession(agent, ws);
    await prompt(agent, sessionId, "write it");
    expect(agent.fsCalls.filter((c) => c.method === "write")).toEqual([]);
    expect(JSON.stringify(s.requests[1]!.body.messages)).toContain("symbolic link");
    expect(readFileSync(join(ws, "real.txt"), "utf8")).toBe("real\n");
  });

  test("attack: a Write outside the workspace the user rejects never reaches the editor", async () => {
    const { home, ws } = setup();
    const outside = join(home.dir, "elsewhere");
    mkdirSync(outside);
    const s = await serve([
      { toolCalls: [{ name: "Write", input: { path: join(outside, "x.txt"), content: "x" } }] },
      { text: "ok" },
    ]);
    const agent = start({ ...home.env, ...providerEnv(s.url) });
    await initialize(agent, { fs: true });
    agent.answer = "reject_once";
    const { sessionId } = await newSession(agent, ws);
    await prompt(agent, sessionId, "write outside");
    expect(agent.permissions).toHaveLength(1);
    expect(agent.fsCalls).toEqual([]);
  });
});

// `/rewind` through the compiled binary, headless with -c: the list (with the note that commands'
// changes are not tracked), code only, then code and conversation; the rewound turns are gone from
// the next request and from the archive's reading, and a link planted since is never followed.

import { describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { initialize, startAcpAgent } from "../support/acp-client.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();

type Call = { name: string; input: unknown };

/** The fake answers each prompt with its scripted tool calls, then with "done: <prompt>". */
function agent(calls: Record<string, Call[]>) {
  return (req: { body: any }) => {
    const messages = req.body.messages as Array<{ role: string; content: any }>;
    const last = messages.at(-1)!;
    const blocks = typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content;
    const text = blocks.find((b: any) => b.type === "text")?.text as string | undefined;
    if (text && calls[text]) return { toolCalls: calls[text] };
    const prompt = [...messages]
      .reverse()
      .find((m) => m.role === "user" && typeof m.content !== "string" && m.content[0]?.type === "text");
    return { text: `done: ${prompt?.content[0].text ?? text}` };
  };
}

async function session(calls: Record<string, Call[]>) {
  const fake = await serve(agent(calls));
  const home = tempHome();
  const ws = realpathSync(home.dir);
  const env = { ...home.env, ...providerEnv(fake.url) };
  const run = (stdin: string, ...args: string[]) =>
    runBinary({ stdin, args: ["--permission-mode", "accept-edits", ...args], env, cwd: ws });
  return { fake, ws, run, env };
}

describe("/rewind headless", () => {
  test("lists prompts, restores code only, then code and conversation", async () => {
    const { fake, ws, run, env } = await session({
      "edit a": [{ name: "Write", input: { path: "a.txt", content: "v1\n" } }],
      "create b": [
        { name: "Write", input: { path: "b.txt", content: "new\n" } },
        { name: "Edit", input: { path: "a.txt", old_string: "v1", new_string: "v2" } },
      ],
    });
    writeFileSync(join(ws, "a.txt"), "original\n");
    expect((await run("edit a")).code).toBe(0);
    expect((await run("create b", "-c")).code).toBe(0);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("v2\n");

    const list = await run("/rewind", "-c");
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("changes made by commands (Bash) are not tracked");
    expect(list.stdout).toContain("1. edit a  (2 files changed since)");
    expect(list.stdout).toContain("2. create b  (2 files changed since)");

    const code = await run("/rewind 2 code", "-c");
    expect(code.code).toBe(0);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("v1\n");
    expect(existsSync(join(ws, "b.txt"))).toBe(false);
    expect(code.stdout).toContain("b.txt: removed (the agent created it)");
    // Code only: the conversation still has both prompts.
    expect((await run("/rewind", "-c")).stdout).toContain("2. create b");

    const all = await run("/rewind 1", "-c");
    expect(all.code).toBe(0);
    expect(all.stdout).toContain("conversation rewound to before prompt 1");
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("original\n");

    const before = fake.requests.length;
    expect((await run("fresh start", "-c")).code).toBe(0);
    const sent = JSON.stringify(fake.requests.slice(before).map((r) => r.body.messages));
    expect(sent).toContain("fresh start");
    expect(sent).not.toContain("edit a");
    expect(sent).not.toContain("create b");
    // The rewound prompts are gone from the list too; the new one is there.
    const after = await run("/rewind", "-c");
    expect(after.stdout).toContain("1. fresh start");
    expect(after.stdout).not.toContain("edit a");

    // The session's title is its first prompt now, and an editor loading it sees no rewound turn.
    const sessions = await runBinary({ args: ["sessions"], env, cwd: ws });
    expect(sessions.stdout).toContain("fresh start");
    expect(sessions.stdout).not.toContain("edit a");
    const [sessionId] = readdirSync(join(env.SYNAPSE_HOME!, "sessions"));
    const editor = startAcpAgent(env);
    await initialize(editor);
    await editor.conn.agent.request(acp.methods.agent.session.load, { sessionId: sessionId!, cwd: ws, mcpServers: [] });
    const replayed = JSON.stringify(editor.updates);
    expect(replayed).toContain("fresh start");
    expect(replayed).not.toContain("edit a");
    expect(replayed).not.toContain("create b");
    expect(await editor.end()).toBe(0);
  }, 90_000);

  test("attack: a folder replaced by a link since is left alone; nothing is written through it", async () => {
    const { ws, run } = await session({
      "write sub": [{ name: "Write", input: { path: "sub/x.txt", content: "agent\n" } }],
    });
    const outside = join(ws, "..", `outside-${process.pid}`);
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "x.txt"), "precious\n");
    mkdirSync(join(ws, "sub"));
    writeFileSync(join(ws, "sub", "x.txt"), "before\n");
    expect((await run("write sub")).code).toBe(0);
    // What a command the model ran could do meanwhile: the folder becomes a link out of the workspace.
    rmSync(join(ws, "sub"), { recursive: true });
    symlinkSync(outside, join(ws, "sub"));

    const rewind = await run("/rewind 1 code", "-c");
    expect(rewind.stdout).toContain("left alone");
    expect(readFileSync(join(outside, "x.txt"), "utf8")).toBe("precious\n");
    rmSync(outside, { recursive: true, force: true });
  }, 60_000);

  test("a file a command deleted since is put back, and named as deleted (no content was there to keep)", async () => {
    const { ws, run } = await session({
      "edit a": [{ name: "Edit", input: { path: "a.txt", old_string: "orig", new_string: "v1" } }],
      "rm a": [{ name: "Bash", input: { command: "rm a.txt" } }],
    });
    writeFileSync(join(ws, "a.txt"), "orig\n");
    expect((await run("edit a")).code).toBe(0);
    expect((await run("rm a", "-c", "--permission-mode", "bypass")).code).toBe(0);
    expect(existsSync(join(ws, "a.txt"))).toBe(false);
    const rewind = await run("/rewind 1 code", "-c");
    expect(rewind.code).toBe(0);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("orig\n");
    expect(rewind.stdout).toContain("a.txt: restored");
    expect(rewind.stdout).toContain("deleted outside synapse since the agent's last write: a.txt");
    expect(rewind.stdout).not.toContain("content then is kept");
  }, 60_000);

  test("a sub-agent's writes (task:general) are undone with its parent prompt's", async () => {
    const fake = await serve((req: { body: any }) => {
      const system = JSON.stringify(req.body.system ?? "");
      const last = req.body.messages.at(-1);
      const text = last.content[0]?.type === "text" ? last.content[0].text : undefined;
      if (system.includes("You are a sub-agent")) {
        return text?.includes("write t.txt")
          ? { toolCalls: [{ name: "Write", input: { path: "t.txt", content: "by the sub-agent\n" } }] }
          : { text: "sub-agent done" };
      }
      if (text === "delegate")
        return {
          toolCalls: [{ name: "Bash", input: { command: 'task:general --prompt "write t.txt" --description w' } }],
        };
      return { text: "done" };
    });
    const home = tempHome();
    const ws = realpathSync(home.dir);
    const env = { ...home.env, ...providerEnv(fake.url) };
    writeFileSync(join(ws, "t.txt"), "mine\n");
    expect((await runBinary({ stdin: "delegate", args: ["-y"], env, cwd: ws })).code).toBe(0);
    expect(readFileSync(join(ws, "t.txt"), "utf8")).toBe("by the sub-agent\n");
    const rewind = await runBinary({ stdin: "/rewind 1 code", args: ["-c"], env, cwd: ws });
    expect(rewind.stdout).toContain("t.txt: restored");
    expect(readFileSync(join(ws, "t.txt"), "utf8")).toBe("mine\n");
  }, 60_000);

  test("a session whose prompts have no checkpoints (older than /rewind) says so, not that it has no prompts", async () => {
    const { run, env } = await session({});
    expect((await run("hello")).code).toBe(0);
    const sessions = join(env.SYNAPSE_HOME!, "sessions");
    for (const id of readdirSync(sessions)) rmSync(join(sessions, id, "checkpoints"), { recursive: true, force: true });
    const list = await run("/rewind", "-c");
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain("no earlier prompts");
    expect(list.stdout).toContain("only prompts with file checkpoints are listed");
  }, 60_000);

  test("needs a saved session, and an unknown prompt number is an error", async () => {
    const { run } = await session({});
    const bare = await run("/rewind");
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("/rewind goes back in a saved session");
    expect((await run("hello")).code).toBe(0);
    const wrong = await run("/rewind 7", "-c");
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr + wrong.stdout).toContain("no prompt 7");
  }, 60_000);
});

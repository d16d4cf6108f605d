// A project's .mcp.json server in the interactive session, through the compiled binary on a real
// terminal (tmux): the user is asked before it starts; yes starts it and remembers the approval
// outside the repository, Esc starts nothing (and, as for any refused approval, ends the turn).

import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { isApproved } from "../../src/policy/project-approvals.ts";
import { startFakeLLM } from "../support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

// One tmux server for the file (tests/support/tmux-term.ts), with the session that keeps it up.
const server = tmuxServer();
const MISBEHAVING = resolve(import.meta.dir, "../support/mcp/misbehaving-server.mjs");
const EVERYTHING = resolve(import.meta.dir, "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js");

setDefaultTimeout(40_000);
afterAll(() => {
  server.stop();
});

function open(url: string, home: ReturnType<typeof tempHome>, cwd: string, args = "") {
  const env = { ...home.env, ...providerEnv(url), TERM: "xterm-256color" };
  // Wide enough for the temp folders' paths to stay on one row.
  return server.session({ env, columns: 160, rows: 40, cwd, command: `${BINARY} ${args}` });
}

function project() {
  const home = tempHome();
  const ws = join(home.dir, "repo");
  mkdirSync(ws);
  const started = join(home.dir, "started");
  const entry = { command: "node", args: [MISBEHAVING, "normal", started] };
  writeFileSync(join(ws, ".mcp.json"), JSON.stringify({ mcpServers: { proj: entry } }));
  return { home, ws, started, entry };
}

describe.skipIf(!hasTmux)("a project's MCP server, interactive", () => {
  test("asked before the first request: yes starts it and remembers exactly that entry", async () => {
    const { home, ws, started, entry } = project();
    const fake = await startFakeLLM([{ text: "Answered." }]);
    const t = open(fake.url, home, ws);
    try {
      await t.until((s) => s.includes("% context"), "the status line");
      t.type("hello");
      t.keys("Enter");
      const s = await t.until(
        (s) => s.includes("mcp__proj") && s.includes("Enter to choose"),
        "the approval prompt, ready for Enter",
      );
      expect(s).toContain("asks to start the MCP server");
      expect(existsSync(started)).toBe(false);
      t.keys("Enter"); // 1. Yes
      await t.until((s) => s.includes("Answered."), "the answer");
      expect(fake.requests[0]!.body.tools.map((x: any) => x.name)).toContain("mcp__proj__ok");
      expect(existsSync(started)).toBe(true);
      expect(await isApproved(home.env.SYNAPSE_HOME!, ws, "proj", entry)).toBe(true);
    } finally {
      t.close();
      await fake.stop();
    }
  });

  test("Esc: refused, the turn stops before any request; nothing starts, nothing is remembered", async () => {
    const { home, ws, started, entry } = project();
    const fake = await startFakeLLM([{ text: "Answered." }]);
    const t = open(fake.url, home, ws);
    try {
      await t.until((s) => s.includes("% context"), "the status line");
      t.type("hello");
      t.keys("Enter");
      await t.until((s) => s.includes("mcp__proj") && s.includes("Enter to choose"), "the approval prompt, ready");
      t.keys("Escape");
      await t.until((s) => s.includes("mcp__proj rejected by the user"), "the refusal");
      expect(fake.requests).toEqual([]);
      expect(existsSync(started)).toBe(false);
      expect(await isApproved(home.env.SYNAPSE_HOME!, ws, "proj", entry)).toBe(false);
      expect(readFileSync(join(ws, ".mcp.json"), "utf8")).toContain("proj");
    } finally {
      t.close();
      await fake.stop();
    }
  });
});

describe.skipIf(!hasTmux)("an MCP server's tools and prompts, interactive", () => {
  test('"don\'t ask again" for one tool; Tab completes its prompts; /mcp shows the server', async () => {
    const home = tempHome();
    const echo = (message: string) => ({ toolCalls: [{ name: "mcp__every__echo", input: { message } }] });
    const fake = await startFakeLLM([echo("one"), echo("two"), { text: "Echoed twice." }]);
    const config = JSON.stringify({ mcpServers: { every: { command: "node", args: [EVERYTHING, "stdio"] } } });
    const t = open(fake.url, home, home.dir, `--mcp-config '${config}'`);
    try {
      await t.until((s) => s.includes("% context"), "the status line");
      t.type("echo please");
      t.keys("Enter");
      const s = await t.until(
        (s) => s.includes("mcp__every__echo") && s.includes("Enter to choose"),
        "the approval prompt",
      );
      expect(s).toContain("2. Yes, and don't ask again for mcp__every__echo (this tool) in this session");
      t.keys("Down");
      t.keys("Enter");
      await t.until((s) => s.includes("Echoed twice."), "the answer, the second call not asked about");
      expect(fake.requests.length).toBe(3);
      expect(JSON.stringify(fake.requests[2]!.body.messages.at(-1))).toContain("Echo: two");
      t.type("/mcp__every__simp");
      t.keys("Tab");
      await t.until((s) => s.includes("/mcp__every__simple-prompt"), "the prompt completed");
      t.keys("C-u");
      t.type("/mcp");
      t.keys("Enter");
      const shown = await t.until((s) => s.includes("every (flag): connected"), "/mcp");
      expect(shown).toContain("prompts: /mcp__every__");
    } finally {
      t.close();
      await fake.stop();
    }
  });
});

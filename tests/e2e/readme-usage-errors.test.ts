// A new user's mistakes with the flags and files the README documents, through the compiled binary:
// each gets one plain line on stderr and exit 2 before any request, and a saved session is untouched.

import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();

/** Runs with a fresh home against a fake that must never be asked; returns the run and the fake. */
async function refused(args: string[], setup?: (home: string) => void) {
  const fake = await serve([{ text: "never" }]);
  const home = tempHome();
  setup?.(home.dir);
  const r = await runBinary({ args, env: { ...home.env, ...providerEnv(fake.url) }, cwd: home.dir });
  expect(fake.requests.map((q) => q.path).filter((path) => path !== "/v1/models")).toEqual([]);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  return { ...r, home: home.dir };
}

describe("a bad --permission-mode names the modes the README documents", () => {
  test("Synapse's own names and Claude Code's are both offered", async () => {
    const r = await refused(["--permission-mode", "yolo", "hi"]);
    expect(r.stderr).toStartWith("synapse: --permission-mode must be one of default, accept-edits, bypass, plan");
    expect(r.stderr).toContain("acceptEdits");
    expect(r.stderr).toContain('(got "yolo")');
  });
});

describe("a project's .synapse/config.json cannot name MCP servers (README: Configuration files)", () => {
  test("mcpServers there is refused, pointing to .mcp.json, and the server is never started", async () => {
    const r = await refused(["hi"], (dir) => {
      mkdirSync(join(dir, ".synapse"));
      const server = { command: "bash", args: ["-c", `echo started > ${join(dir, "started")}`] };
      writeFileSync(join(dir, ".synapse", "config.json"), JSON.stringify({ mcpServers: { s: server } }));
    });
    expect(r.stderr).toBe(
      'synapse: .synapse/config.json: "mcpServers" is refused: a project names its MCP servers in .mcp.json ' +
        "(each started only once you approve it), your own go in your user config\n",
    );
    expect(() => readFileSync(join(r.home, "started"))).toThrow();
  });

  test("the user's config may still name them", async () => {
    const fake = await serve([{ text: "fine" }]);
    const home = tempHome();
    mkdirSync(join(home.dir, "config", "synapse"), { recursive: true });
    const server = { command: "bash", args: ["-c", "exit 0"] };
    writeFileSync(join(home.dir, "config", "synapse", "config.json"), JSON.stringify({ mcpServers: { s: server } }));
    const r = await runBinary({ args: ["-q", "hi"], env: { ...home.env, ...providerEnv(fake.url) }, cwd: home.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("fine\n");
  });
});

describe("a path flag given a missing or empty path says so in words", () => {
  test("--image with a missing file, and with an empty path", async () => {
    const missing = await refused(["--image", "nope.png", "hi"]);
    expect(missing.stderr).toBe("synapse: cannot use image nope.png: no such file\n");
    const empty = await refused(["--image", "", "hi"]);
    expect(empty.stderr).toBe("synapse: --image needs the path of an image file\n");
  });

  test("--mcp-config with a missing file, a folder, and an empty value", async () => {
    const missing = await refused(["--mcp-config", "nope.json", "hi"]);
    expect(missing.stderr).toBe(`synapse: --mcp-config: cannot read ${join(missing.home, "nope.json")}: no such file\n`);
    const folder = await refused(["--mcp-config", "/tmp", "hi"]);
    expect(folder.stderr).toBe("synapse: --mcp-config: cannot read /tmp: it is a directory\n");
    const empty = await refused(["--mcp-config", " ", "hi"]);
    expect(empty.stderr).toBe("synapse: --mcp-config needs a file or inline JSON ({\"mcpServers\": {...}})\n");
  });
});

describe("a run's session flags given to a subcommand are refused, not ignored", () => {
  for (const [sub, flag, word] of [
    ["compact", "-c", "--continue"],
    ["sessions", "-c", "--continue"],
    ["compact", "-r=abc", "--resume"],
    ["doctor", "--image=x.png", "--image"],
  ] as const) {
    test(`synapse ${sub} ${flag}`, async () => {
      const r = await refused([sub, flag]);
      expect(r.stderr).toBe(`synapse: ${word} is an option of a run with a prompt, not of synapse ${sub}\n`);
    });
  }
});

describe("-o json lists the refused calls as Claude Code's result does", () => {
  test("permission_denials names the Write the policy refused, with its input; empty when none", async () => {
    const write = { path: "/etc/synapse-denied.txt", content: "x" };
    const fake = await serve([{ toolCalls: [{ id: "toolu_w", name: "Write", input: write }] }, { text: "done" }]);
    const r = await runBinary({ args: ["-o", "json", "-q", "go"], env: providerEnv(fake.url) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).permission_denials).toEqual([
      { tool_name: "Write", tool_use_id: "toolu_w", tool_input: write },
    ]);
    const clean = await runBinary({ args: ["-o", "json", "hi"], env: providerEnv(fake.url) });
    expect(JSON.parse(clean.stdout).permission_denials).toEqual([]);
  });
});

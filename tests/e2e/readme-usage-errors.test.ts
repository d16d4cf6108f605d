// A new user's mistakes with the flags and files the README documents, through the compiled binary:
// each gets one plain line on stderr and exit 2 before any request, and a saved session is untouched.

import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { jsonLines, providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();

/** Runs with a fresh home against a fake that must never be asked; returns the run and the fake. */
async function refused(args: string[], setup?: (home: string) => void) {
  const fake = await serve([{ text: "never" }]);
  const home = tempHome();
  setup?.(home.dir);
  const r = await runBinary({ args, env: { ...home.env, ...providerEnv(fake.url) }, cwd: home.dir, timeoutMs: 15_000 });
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
    expect(missing.stderr).toBe(
      `synapse: --mcp-config: cannot read ${join(missing.home, "nope.json")}: no such file\n`,
    );
    const folder = await refused(["--mcp-config", "/tmp", "hi"]);
    expect(folder.stderr).toBe("synapse: --mcp-config: cannot read /tmp: it is a directory\n");
    const empty = await refused(["--mcp-config", " ", "hi"]);
    expect(empty.stderr).toBe('synapse: --mcp-config needs a file or inline JSON ({"mcpServers": {...}})\n');
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
      { tool_name: "Write", tool_use_id: "toolu_w", tool_input: { ...write, file_path: write.path } },
    ]);
    const clean = await runBinary({ args: ["-o", "json", "hi"], env: providerEnv(fake.url) });
    expect(JSON.parse(clean.stdout).permission_denials).toEqual([]);
  });
});

describe('an empty value (`-m "$MODEL"` with the variable unset) is a usage error, not the default', () => {
  for (const [flag, says] of [
    ["--max-budget-usd", '--max-budget-usd must be a number of dollars above 0 (got "")'],
    ["-m", "--model needs a model name (/model lists them)"],
    ["-C", "--cwd needs a folder"],
  ] as const) {
    test(`${flag} ""`, async () => {
      const r = await refused([flag, "", "hi"]);
      expect(r.stderr).toBe(`synapse: ${says}\n`);
    });
  }

  test("an empty SYNAPSE_MAX_BUDGET_USD is still unset", async () => {
    const fake = await serve([{ text: "fine" }]);
    const r = await runBinary({ args: ["hi"], env: { ...providerEnv(fake.url), SYNAPSE_MAX_BUDGET_USD: "" } });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: "fine\n" });
  });
});

describe("-r <id> from another folder (README: Sessions, `synapse sessions --all`)", () => {
  test("the run works here, as asked, and one warning names the session's own folder and -C", async () => {
    const fake = await serve([{ text: "first" }, { text: "second" }, { text: "third" }, { text: "fourth" }]);
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url) };
    const started = join(home.dir, "app");
    const elsewhere = join(home.dir, "other");
    mkdirSync(started);
    mkdirSync(elsewhere);
    const first = await runBinary({ args: ["-o", "json", "hi"], env, cwd: started });
    const id = JSON.parse(first.stdout).session_id;
    const moved = await runBinary({ args: ["-q", "-r", id, "go on"], env, cwd: elsewhere });
    expect(moved.code).toBe(0);
    expect(moved.stderr).toBe(
      `warning: session ${id} was started in ${started}; this run works in ${elsewhere} ` +
        `(resume it with -C ${started} to work there)\n`,
    );
    const streamed = await runBinary({ args: ["-o", "stream-json", "-r", id, "more"], env, cwd: elsewhere });
    const lines = jsonLines(streamed.stdout);
    expect(lines.find((l) => l.subtype === "init").cwd).toBe(elsewhere);
    expect(lines.filter((l) => l.subtype === "warning").map((l) => l.message)).toEqual([
      expect.stringContaining(`was started in ${started}`),
    ]);
    // Resumed in its own folder, nothing is said.
    const home2 = await runBinary({ args: ["-q", "-r", id, "again"], env, cwd: started });
    expect({ code: home2.code, stderr: home2.stderr }).toEqual({ code: 0, stderr: "" });
  });
});

describe("synapse sessions in the JSON formats (README: Output, Sessions)", () => {
  test("-o stream-json prints the same JSON as -o json, as synapse compact does, never the table", async () => {
    const fake = await serve([{ text: "one" }]);
    const home = tempHome();
    const env = { ...home.env, ...providerEnv(fake.url) };
    await runBinary({ args: ["hi"], env, cwd: home.dir });
    const json = await runBinary({ args: ["sessions", "-o", "json"], env, cwd: home.dir });
    const stream = await runBinary({ args: ["sessions", "-o", "stream-json"], env, cwd: home.dir });
    expect(stream.code).toBe(0);
    expect(JSON.parse(stream.stdout)).toEqual(JSON.parse(json.stdout));
    expect(JSON.parse(stream.stdout)).toHaveLength(1);
  });
});

describe("a project's config cannot lift the user's --max-budget-usd (README: Configuration files)", () => {
  test('"price": 0 in .synapse/config.json is refused before any request, the budget kept', async () => {
    const free = JSON.stringify({ price: { input: 0, output: 0 } });
    const r = await refused(["-y", "--max-budget-usd", "0.01", "go"], (dir) => {
      mkdirSync(join(dir, ".synapse"));
      writeFileSync(join(dir, ".synapse", "config.json"), free);
    });
    expect(r.stderr).toBe(
      'synapse: .synapse/config.json: "price" is refused: a project\'s config could make --max-budget-usd count ' +
        "a run as cheaper than it is (set SYNAPSE_PRICE, or price in your user config)\n",
    );
  });

  test("the user's own config may still set the price the budget counts with", async () => {
    const fake = await serve([{ text: "fine" }]);
    const home = tempHome();
    mkdirSync(join(home.dir, "config", "synapse"), { recursive: true });
    writeFileSync(
      join(home.dir, "config", "synapse", "config.json"),
      JSON.stringify({ price: { input: 3, output: 15 } }),
    );
    const env = { ...home.env, ...providerEnv(fake.url) };
    const r = await runBinary({ args: ["-o", "json", "--max-budget-usd", "1", "hi"], env, cwd: home.dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).total_cost_usd).toBeGreaterThan(0);
  });
});

describe("a project's config may only lower the user's limits (README: Configuration files)", () => {
  /** A home whose user config holds `user`, working in a project whose config holds `project`. */
  function configured(user: object, project: object) {
    const home = tempHome();
    mkdirSync(join(home.dir, "config", "synapse"), { recursive: true });
    writeFileSync(join(home.dir, "config", "synapse", "config.json"), JSON.stringify(user));
    mkdirSync(join(home.dir, ".synapse"));
    writeFileSync(join(home.dir, ".synapse", "config.json"), JSON.stringify(project));
    return home;
  }
  const loop = { toolCalls: [{ name: "Read", input: { path: "a.txt" } }] };

  test("maxTurns above the user's cap, and loopLimit 0, are refused before any request", async () => {
    const fake = await serve([{ text: "never" }]);
    for (const [project, says] of [
      [{ maxTurns: 1000 }, '"maxTurns": 1000 is refused: a project\'s config may only lower the cap of 3 turns'],
      [{ loopLimit: 0 }, '"loopLimit": 0 is refused: a project\'s config may only make loop detection stricter'],
    ] as const) {
      const home = configured({ maxTurns: 3 }, project);
      const r = await runBinary({ args: ["-y", "go"], env: { ...home.env, ...providerEnv(fake.url) }, cwd: home.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toStartWith(`synapse: .synapse/config.json: ${says}`);
    }
    expect(fake.requests.filter((q) => q.path === "/v1/messages")).toEqual([]);
  });

  test("a lower cap from the project holds; the flag still wins over both", async () => {
    const fake = await serve((_req, n) => (n < 20 ? loop : { text: "done" }));
    const home = configured({ maxTurns: 3 }, { maxTurns: 2 });
    const env = { ...home.env, ...providerEnv(fake.url) };
    const lowered = await runBinary({ args: ["-o", "json", "-y", "go"], env, cwd: home.dir });
    expect(JSON.parse(lowered.stdout)).toMatchObject({ subtype: "error_max_turns", num_turns: 2 });
    const flagged = await runBinary({ args: ["-o", "json", "-y", "--max-turns", "4", "go"], env, cwd: home.dir });
    expect(JSON.parse(flagged.stdout)).toMatchObject({ subtype: "error_max_turns", num_turns: 4 });
  });
});

describe("--tools (Claude Code's flag) is the set of tools the model is offered", () => {
  test("a tool --disallowedTools names whole leaves the offer too; a call to it anyway runs nothing", async () => {
    const home = tempHome();
    const write = { path: join(home.dir, "w.txt"), content: "x" };
    const fake = await serve([{ toolCalls: [{ name: "Write", input: write }] }, { text: "ok" }]);
    const args = ["--disallowedTools", "Write,Bash(rm *)", "-o", "stream-json", "hi"];
    const r = await runBinary({ args, env: { ...home.env, ...providerEnv(fake.url) }, cwd: home.dir });
    // A Write rule covers Edit too, so every Edit call would be refused as well: neither is offered.
    expect(jsonLines(r.stdout).find((l) => l.subtype === "init").tools).toEqual(["Bash", "Read", "Glob", "Grep"]);
    expect(fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).not.toContain("Write");
    expect(() => readFileSync(write.path)).toThrow();
  });

  test("the others are neither in the request nor in the init line; `default` keeps all six", async () => {
    const fake = await serve([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const offered = async (tools: string) => {
      const r = await runBinary({ args: ["--tools", tools, "-o", "stream-json", "hi"], env: providerEnv(fake.url) });
      const init = jsonLines(r.stdout).find((l) => l.subtype === "init");
      const sent = (fake.requests.at(-1)!.body.tools ?? []).map((t: { name: string }) => t.name);
      return { init: init.tools, sent };
    };
    expect(await offered("Read,Grep")).toEqual({ init: ["Read", "Grep"], sent: ["Read", "Grep"] });
    expect(await offered("")).toEqual({ init: [], sent: [] });
    const all = ["Bash", "Read", "Write", "Edit", "Glob", "Grep"];
    expect(await offered("default")).toEqual({ init: all, sent: all });
  });
});

describe("an MCP server that cannot start says why in words (synapse mcp get)", () => {
  test("a server that exits at once, and a command that does not exist", async () => {
    const home = tempHome();
    const env = home.env;
    const add = (name: string, ...command: string[]) =>
      runBinary({ args: ["mcp", "add", name, "--", ...command], env, cwd: home.dir });
    expect((await add("quits", "bash", "-c", "exit 3")).code).toBe(0);
    expect((await add("missing", "/nonexistent/server")).code).toBe(0);
    const quits = await runBinary({ args: ["mcp", "get", "quits"], env, cwd: home.dir });
    expect(quits.stdout).toContain("quits (user): failed: the server exited before the MCP handshake (see its log)");
    const missing = await runBinary({ args: ["mcp", "get", "missing"], env, cwd: home.dir });
    expect(missing.stdout).toContain("missing (user): failed: could not run /nonexistent/server: no such file");
  });
});

describe('`synapse "…" > answer.md` captures only the answer (README: Output)', () => {
  test("the narration before a tool call goes to stderr (not with -q); stdout is the json result's text", async () => {
    const script = [
      { text: "Let me look.", toolCalls: [{ name: "Bash", input: { command: "true" } }] },
      { text: "The answer is 42." },
    ];
    const fake = await serve([...script, ...script, ...script]);
    const env = providerEnv(fake.url);
    const text = await runBinary({ args: ["-y", "go"], env });
    expect(text.stdout).toBe("The answer is 42.\n");
    expect(text.stderr).toContain("Let me look.\n● Bash(true)");
    const quiet = await runBinary({ args: ["-y", "-q", "go"], env });
    expect({ stdout: quiet.stdout, stderr: quiet.stderr.includes("Let me look.") }).toEqual({
      stdout: "The answer is 42.\n",
      stderr: false,
    });
    const json = await runBinary({ args: ["-y", "-o", "json", "go"], env });
    expect(`${JSON.parse(json.stdout).result}\n`).toBe(text.stdout);
  });
});

describe("a repository's FIFO or endless file where synapse reads at start never hangs it", () => {
  // A synchronous read of a FIFO holds the event loop: not even SIGINT or SIGTERM got through.
  test(".synapse/config.json as a FIFO: exit 2 saying so, at once", async () => {
    const r = await refused(["hi"], (dir) => {
      mkdirSync(join(dir, ".synapse"));
      Bun.spawnSync(["mkfifo", join(dir, ".synapse", "config.json")]);
    });
    expect(r.stderr).toBe(
      `synapse: cannot read config file ${join(r.home, ".synapse", "config.json")}: not a regular file\n`,
    );
  });

  test("--mcp-config naming a FIFO: exit 2 saying so, at once", async () => {
    const r = await refused(["--mcp-config", "servers.json", "hi"], (dir) => {
      Bun.spawnSync(["mkfifo", join(dir, "servers.json")]);
    });
    expect(r.stderr).toBe(`synapse: --mcp-config: cannot read ${join(r.home, "servers.json")}: not a regular file\n`);
  });

  test("synapse mcp add --scope project over a .mcp.json that is a FIFO: exit 2 saying so", async () => {
    const home = tempHome();
    Bun.spawnSync(["mkfifo", join(home.dir, ".mcp.json")]);
    const args = ["mcp", "add", "--scope", "project", "s", "--", "true"];
    const r = await runBinary({ args, env: home.env, cwd: home.dir, timeoutMs: 15_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`synapse: cannot read ${join(home.dir, ".mcp.json")}: not a regular file\n`);
  });

  test("AGENTS.md as a FIFO and CLAUDE.md as /dev/zero are skipped; the run goes on", async () => {
    const fake = await serve([{ text: "fine" }]);
    const home = tempHome();
    Bun.spawnSync(["mkfifo", join(home.dir, "AGENTS.md")]);
    symlinkSync("/dev/zero", join(home.dir, "CLAUDE.md"));
    const env = { ...home.env, ...providerEnv(fake.url) };
    const r = await runBinary({ args: ["hi"], env, cwd: home.dir, timeoutMs: 15_000 });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: "fine\n" });
  });
});

// The pure parts of the MCP client, table-driven: names, entries and expansion, schemas, results,
// the permission rules, the sources and the `synapse mcp add` grammar.

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCommandLine } from "../../src/cli/args.ts";
import { entryOf, parseAddArgs } from "../../src/cli/mcp-command.ts";
import { isApproved, recordApproval } from "../../src/policy/project-approvals.ts";
import { canonicalJson } from "../../src/text/canonical-json.ts";
import { expandEntry, expandVars, parseServerEntry } from "../../src/mcp/server-entry.ts";
import { resourceMentions, resourceText } from "../../src/mcp/resource-mentions.ts";
import { configuredServers } from "../../src/mcp/sources.ts";
import { MAX_TOOL_NAME, mcpToolNames } from "../../src/mcp/tool-names.ts";
import { mcpToolResult } from "../../src/mcp/tool-result.ts";
import { apiInputSchema } from "../../src/mcp/tool-schema.ts";
import { decideMcp, mcpRuleProblem } from "../../src/policy/mcp-rules.ts";
import { buildPolicy, decide } from "../../src/policy/policy.ts";

describe("tool names", () => {
  test.each([
    ["fs", ["read_file"], ["mcp__fs__read_file"]],
    ["my server", ["do.it", "ünï"], ["mcp__my_server__do_it", "mcp__my_server___n_"]],
  ])("%s %p", (server, tools, expected) => {
    expect(mcpToolNames(server, tools, new Set())).toEqual(expected);
  });

  test("long and colliding names are cut and tagged; all valid for both APIs and distinct", () => {
    const taken = new Set<string>(["Bash"]);
    const names = [
      ...mcpToolNames("a.b", ["x"], taken),
      ...mcpToolNames("a_b", ["x"], taken),
      ...mcpToolNames("s", ["t".repeat(100), "t".repeat(101)], taken),
    ];
    expect(new Set(names).size).toBe(4);
    for (const n of names) expect(n).toMatch(new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TOOL_NAME}}$`));
  });
});

describe("server entries", () => {
  test.each([
    [
      { command: "npx", args: ["-y", "x"] },
      { type: "stdio", command: "npx", args: ["-y", "x"], env: {} },
    ],
    [
      { type: "stdio", command: "a", env: { K: "v" }, cwd: "sub" },
      { type: "stdio", command: "a", args: [], env: { K: "v" }, cwd: "sub" },
    ],
    [
      { type: "http", url: "https://x/mcp" },
      { type: "http", url: "https://x/mcp", headers: {} },
    ],
    [
      { type: "streamable-http", url: "u", headers: { A: "b" } },
      { type: "http", url: "u", headers: { A: "b" } },
    ],
    [
      { type: "sse", url: "u" },
      { type: "sse", url: "u", headers: {} },
    ],
  ])("%p is accepted", (raw, entry) => {
    expect(parseServerEntry(raw)).toEqual({ ok: true, entry: entry as never });
  });

  test.each([
    [[], "an entry must be a JSON object"],
    [{ args: [] }, 'needs "command"'],
    [{ command: "a", args: "b" }, 'needs "command"'],
    [{ type: "ws", url: "u" }, 'unknown "type" "ws"'],
    [{ type: "http" }, 'needs "url"'],
  ])("%p is refused", (raw, says) => {
    const checked = parseServerEntry(raw);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toContain(says);
  });

  test.each([
    ["${A}", { A: "1" }, "1", []],
    ["x-${A:-d}-y", {}, "x-d-y", []],
    ["${A:-d}", { A: "" }, "d", []],
    ["${B}${C}", {}, "", ["B", "C"]],
    ["$A ${ not a var }", { A: "1" }, "$A ${ not a var }", []],
  ])("expandVars(%p)", (text, env, out, missing) => {
    const names = new Set<string>();
    expect(expandVars(text, env, names)).toBe(out);
    expect([...names]).toEqual(missing);
  });

  test("expansion covers every string of an entry; a missing variable is an error naming it", () => {
    const http = { type: "http" as const, url: "${HOST:-h}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } };
    expect(expandEntry(http, { TOKEN: "t" })).toEqual({
      ok: true,
      entry: { type: "http", url: "h/mcp", headers: { Authorization: "Bearer t" } },
    });
    expect(expandEntry(http, {})).toEqual({ ok: false, error: "missing environment variable TOKEN" });
  });
});

describe("input schemas for both APIs", () => {
  test.each([
    [
      { $schema: "x", type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    ],
    [undefined, { type: "object", properties: {} }],
    [
      { anyOf: [{}, {}], required: "a" },
      { type: "object", properties: {} },
    ],
    [
      { type: "object", properties: [], additionalProperties: false },
      { type: "object", properties: {}, additionalProperties: false },
    ],
  ])("%p", (schema, expected) => {
    expect(apiInputSchema(schema)).toEqual(expected as never);
  });
});

describe("results", () => {
  const limits = { maxChars: 50, maxImageBytes: 1000, limitName: "LIMIT" };
  test.each([
    [{ content: [{ type: "text", text: "hi" }] }, { content: "hi" }],
    [
      { content: [{ type: "text", text: "bad" }], isError: true },
      { content: "bad", isError: true },
    ],
    [
      { content: [], structuredContent: { a: 1 } },
      { content: '{\n  "a": 1\n}', hookResponse: { a: 1 } },
    ],
    [{ content: [] }, { content: "(no output)" }],
    [{ content: [{ type: "resource_link", uri: "file:///a", name: "a" }] }, { content: "Resource link file:///a (a)" }],
    [
      { content: [{ type: "resource", resource: { uri: "mem://x", mimeType: "text/plain", text: "body" } }] },
      { content: "Resource mem://x (text/plain):\nbody" },
    ],
  ])("%p", async (result, expected) => {
    expect(await mcpToolResult(result, limits)).toEqual(expected as never);
  });

  test("text over the limit is cut with a note naming it", async () => {
    const out = await mcpToolResult(
      {
        content: [
          { type: "text", text: "x".repeat(80) },
          { type: "text", text: "y".repeat(10) },
        ],
      },
      limits,
    );
    expect(out.content).toBe(`${"x".repeat(50)}\n\n[output cut: 90 characters, over the limit of 50 (LIMIT)]`);
  });

  test("an image goes to the image store; one that is no known image does not", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").toString("base64");
    const saved: string[] = [];
    const saveImage = async (bytes: Uint8Array, mediaType: string) => {
      saved.push(mediaType);
      return { sha256: "h", mediaType, bytes: bytes.length };
    };
    const out = await mcpToolResult(
      {
        content: [
          { type: "image", data: png, mimeType: "image/png" },
          { type: "image", data: "AAAA", mimeType: "image/x" },
        ],
      },
      { ...limits, maxChars: 500, saveImage },
    );
    expect(saved).toEqual(["image/png"]);
    expect(out.content).toEqual([
      { type: "image", image: { sha256: "h", mediaType: "image/png", bytes: 16 } },
      { type: "text", text: expect.stringContaining("not shown") },
    ]);
  });
});

describe("permission rules", () => {
  test.each([
    ["mcp__fs", ""],
    ["mcp__fs__read_file", ""],
    ["mcp__f s", "invalid permission rule"],
    ["Bash(ls)", null],
  ])("%s", (rule, problem) => {
    const got = mcpRuleProblem(rule);
    if (problem === null || problem === "") expect(got).toBe(problem);
    else expect(got).toContain(problem);
  });

  const base = { mode: "default", allow: [] as string[], deny: [] as string[], granted: [] as string[] };
  test.each([
    [base, "ask"],
    [{ ...base, mode: "bypass" }, "allow"],
    [{ ...base, allow: ["mcp__fs"] }, "allow"],
    [{ ...base, allow: ["mcp__fs__read"] }, "allow"],
    [{ ...base, allow: ["mcp__fs__rea"] }, "ask"],
    [{ ...base, allow: ["mcp__f"] }, "ask"],
    [{ ...base, granted: ["mcp__fs__read"] }, "allow"],
    [{ ...base, mode: "bypass", deny: ["mcp__fs"] }, "deny"],
    [{ ...base, allow: ["mcp__fs"], deny: ["mcp__fs__read"] }, "deny"],
  ])("%p → %s", (policy, kind) => {
    expect(decideMcp(policy, "mcp__fs__read").kind).toBe(kind as never);
  });

  test("through the policy: MCP rules are accepted, a project's own allow rules do not count, a bad one is a usage error", () => {
    const source = { cwd: "/w", permissionMode: "default" as const, addDirs: [], secrets: [] };
    const policy = buildPolicy({ ...source, permissions: { allow: [], deny: [], projectAllow: ["mcp__fs"] } });
    expect(decide(policy, { tool: "mcp__fs__read", input: {}, cwd: "/w" })).toEqual({
      kind: "ask",
      reason: "mcp__fs__read is a tool of an MCP server",
      rule: "mcp__fs__read",
    });
    const allowed = buildPolicy({ ...source, permissions: { allow: ["mcp__fs", "Bash(ls)"], deny: [] } });
    expect(decide(allowed, { tool: "mcp__fs__read", input: {}, cwd: "/w" }).kind).toBe("allow");
    expect(() => buildPolicy({ ...source, permissions: { allow: ["mcp__a b"], deny: [] } })).toThrow(
      "expected mcp__<server>",
    );
  });
});

describe("sources", () => {
  function dirWith(project?: unknown): string {
    const dir = mkdtempSync(join(tmpdir(), "synapse-mcp-src-"));
    if (project !== undefined)
      writeFileSync(join(dir, ".mcp.json"), typeof project === "string" ? project : JSON.stringify(project));
    return dir;
  }
  const user = { u: { command: "user-cmd" }, both: { command: "from-user" } };

  test("user < project < flag for one name; strict keeps only the flags'", () => {
    const cwd = dirWith({ mcpServers: { both: { command: "from-project" }, p: { command: "p" } } });
    const flag = JSON.stringify({ mcpServers: { f: { type: "http", url: "u" } } });
    const all = configuredServers(
      { cwd, userServers: user, userOrigin: "cfg", flagConfigs: [flag], strict: false },
      () => {},
    );
    expect(all.map((s) => [s.name, s.scope])).toEqual([
      ["u", "user"],
      ["both", "project"],
      ["p", "project"],
      ["f", "flag"],
    ]);
    const strict = configuredServers(
      { cwd, userServers: user, userOrigin: "cfg", flagConfigs: [flag], strict: true },
      () => {},
    );
    expect(strict.map((s) => s.name)).toEqual(["f"]);
  });

  test("a broken .mcp.json is one warning; a bad entry fails that server only; a bad --mcp-config is a usage error", () => {
    const warnings: string[] = [];
    expect(
      configuredServers({ cwd: dirWith("{oops"), userOrigin: "cfg", flagConfigs: [], strict: false }, (w) =>
        warnings.push(w),
      ),
    ).toEqual([]);
    expect(warnings[0]).toContain(".mcp.json");
    const bad = configuredServers(
      { cwd: dirWith(), userServers: { x: { args: [] } }, userOrigin: "cfg", flagConfigs: [], strict: false },
      () => {},
    );
    expect(bad[0]!.error).toContain('needs "command"');
    expect(() =>
      configuredServers({ cwd: dirWith(), userOrigin: "cfg", flagConfigs: ["{x"], strict: false }, () => {}),
    ).toThrow("--mcp-config");
    expect(() =>
      configuredServers({ cwd: dirWith(), userOrigin: "cfg", flagConfigs: ["missing.json"], strict: false }, () => {}),
    ).toThrow("cannot read");
  });
});

describe("resource mentions", () => {
  test.each([
    [
      "read @fs:file:///a.txt, then @fs:file:///b.txt.",
      [
        ["fs", "file:///a.txt"],
        ["fs", "file:///b.txt"],
      ],
    ],
    ["mail@fs:x and @other:y and @fs:x again", [["fs", "x"]]],
    ["@fs:demo://r/1 @fs:demo://r/1", [["fs", "demo://r/1"]]],
    ["(@fs:a)", []],
  ])("%p", (text, expected) => {
    expect(resourceMentions(text, new Set(["fs"])).map((m) => [m.server, m.uri])).toEqual(expected);
  });

  test("contents rendered and bounded", () => {
    const m = { server: "fs", uri: "u" };
    expect(resourceText(m, [{ text: "hello" }, { blob: "AAAA", mimeType: "image/png" }], 100, "L")).toBe(
      '<resource server="fs" uri="u">\nhello\n[binary contents (image/png), 3 bytes: not attached]\n</resource>',
    );
    expect(resourceText(m, [{ text: "x".repeat(20) }], 5, "L")).toBe(
      '<resource server="fs" uri="u">\nxxxxx\n[cut: 20 characters, over L]\n</resource>',
    );
  });
});

describe("approvals", () => {
  test("per project and per entry content (key order does not matter)", async () => {
    const home = mkdtempSync(join(tmpdir(), "synapse-mcp-home-"));
    const a = mkdtempSync(join(tmpdir(), "synapse-mcp-a-"));
    const b = mkdtempSync(join(tmpdir(), "synapse-mcp-b-"));
    mkdirSync(join(home, "x"));
    await recordApproval(home, a, "s", { command: "c", args: ["1"] });
    expect(await isApproved(home, a, "s", { args: ["1"], command: "c" })).toBe(true);
    expect(await isApproved(home, a, "s", { command: "c", args: ["2"] })).toBe(false);
    expect(await isApproved(home, a, "t", { command: "c", args: ["1"] })).toBe(false);
    expect(await isApproved(home, b, "s", { command: "c", args: ["1"] })).toBe(false);
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
  });
});

describe("the command line", () => {
  test.each([
    [["mcp", "list"], { kind: "mcp", args: ["list"] }, {}],
    [
      ["-C", "/p", "mcp", "add", "x", "-e", "A=1", "--", "c"],
      { kind: "mcp", args: ["add", "x", "-e", "A=1", "--", "c"] },
      { cwd: "/p" },
    ],
    [["--", "mcp", "list"], { kind: "run", prompt: "mcp list", images: [] }, undefined],
  ])("%p", (argv, command, flags) => {
    const parsed = parseCommandLine(argv);
    expect(parsed.command).toEqual(command as never);
    if (flags) expect(parsed.flags).toEqual(flags);
  });

  test("--mcp-config repeats; --strict-mcp-config and --allow-project-mcp are flags", () => {
    const { flags } = parseCommandLine([
      "--mcp-config",
      "a.json",
      "--mcp-config",
      "{}",
      "--strict-mcp-config",
      "--allow-project-mcp",
      "go",
    ]);
    expect([flags.mcpConfig, flags.strictMcpConfig, flags.allowProjectMcp]).toEqual([["a.json", "{}"], true, true]);
  });
});

describe("synapse mcp add", () => {
  test.each([
    [
      ["fs", "--", "npx", "-y", "server", "/tmp"],
      { type: "stdio", command: "npx", args: ["-y", "server", "/tmp"], env: {} },
    ],
    [
      ["-e", "K=v=w", "fs", "-s", "project", "--", "node", "s.js"],
      { type: "stdio", command: "node", args: ["s.js"], env: { K: "v=w" } },
    ],
    [
      ["--transport", "http", "web", "https://x/mcp", "--header", "Authorization: Bearer a:b"],
      { type: "http", url: "https://x/mcp", headers: { Authorization: "Bearer a:b" } },
    ],
    [["-t", "sse", "old", "https://x/sse"], { type: "sse", url: "https://x/sse" }],
  ])("%p", (words, entry) => {
    expect(entryOf(parseAddArgs(words))).toEqual(entry);
  });

  test.each([
    [[], "usage"],
    [["a b", "--", "x"], "letters, digits"],
    [["fs"], "command after --"],
    [["-e", "noequals", "fs", "--", "x"], "KEY=value"],
    [["--scope", "local", "fs", "--", "x"], "--scope must be user or project"],
    [["-t", "http", "w", "u1", "u2"], "one URL"],
    [["--bogus", "fs", "--", "x"], "unknown option --bogus"],
  ])("%p is refused", (words, says) => {
    expect(() => entryOf(parseAddArgs(words))).toThrow(says);
  });
});

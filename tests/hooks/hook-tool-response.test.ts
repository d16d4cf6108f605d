// A PostToolUse hook's `tool_response`: each built-in tool's Claude Code fields from what it really
// did (the tools run on real files), screened like the model's copy and bounded; `content` and
// `is_error` always there.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { hookToolResponse, MAX_TOOL_RESPONSE_CHARS } from "../../src/hooks/hook-tool-response.ts";
import type { ToolResponseFacts } from "../../src/protocol/hook-events.ts";
import { mcpToolResult } from "../../src/mcp/tool-result.ts";
import { editTool } from "../../src/tools/edit.ts";
import { globTool } from "../../src/tools/glob.ts";
import { grepTool } from "../../src/tools/grep.ts";
import { readTool } from "../../src/tools/read.ts";
import { structuredPatch } from "../../src/tools/response-facts.ts";
import { changeDisplay } from "../../src/tools/line-diff.ts";
import { writeTool } from "../../src/tools/write.ts";
import { formatBashResult } from "../../src/tools/bash.ts";
import type { Tool } from "../../src/tools/types.ts";
import { makeContext, tempDir, writeTree } from "../tools/tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const facts = async (tool: Tool, input: Record<string, unknown>) =>
  (await tool.execute(input as any, makeContext(dir))).hookResponse;

describe("each tool's Claude Code fields", () => {
  const cases: Array<{
    name: string;
    files?: Record<string, string>;
    run: () => Promise<ToolResponseFacts | undefined>;
    expected: (dir: string) => unknown;
  }> = [
    {
      name: "Write, new file: create, no patch, no original",
      run: () => facts(writeTool, { path: "n.txt", content: "a\nb\n" }),
      expected: (d) => ({
        type: "create",
        filePath: `${d}/n.txt`,
        content: "a\nb\n",
        structuredPatch: [],
        originalFile: null,
      }),
    },
    {
      name: "Write over a file: update, its patch and its old text",
      files: { "f.txt": "one\ntwo\nthree\n" },
      run: () => facts(writeTool, { path: "f.txt", content: "one\n2\nthree\n" }),
      expected: (d) => ({
        type: "update",
        filePath: `${d}/f.txt`,
        content: "one\n2\nthree\n",
        originalFile: "one\ntwo\nthree\n",
        structuredPatch: [
          { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [" one", "-two", "+2", " three"] },
        ],
      }),
    },
    {
      name: "Edit: the strings, the original, the patch, replaceAll",
      files: { "e.txt": "x = 1\ny = 1\n" },
      run: () => facts(editTool, { path: "e.txt", old_string: "1", new_string: "2", replace_all: true }),
      expected: (d) => ({
        filePath: `${d}/e.txt`,
        oldString: "1",
        newString: "2",
        originalFile: "x = 1\ny = 1\n",
        replaceAll: true,
        structuredPatch: [
          { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: ["-x = 1", "-y = 1", "+x = 2", "+y = 2"] },
        ],
      }),
    },
    {
      name: "Edit creating a file: no original",
      run: () => facts(editTool, { path: "new.txt", old_string: "", new_string: "hi\n" }),
      expected: (d) => ({ filePath: `${d}/new.txt`, originalFile: null, replaceAll: false }),
    },
    {
      name: "Read: the window's lines without numbers",
      files: { "r.txt": "l1\nl2\nl3\nl4\n" },
      run: () => facts(readTool, { path: "r.txt", offset: 2, limit: 2 }),
      expected: (d) => ({
        type: "text",
        file: { filePath: `${d}/r.txt`, content: "l2\nl3", numLines: 2, startLine: 2, totalLines: 4 },
      }),
    },
    {
      name: "Glob: the paths and their count",
      files: { "src/a.ts": "", "src/b.ts": "", "c.md": "" },
      run: () => facts(globTool, { pattern: "**/*.ts" }),
      expected: () => ({ numFiles: 2, truncated: false, totalMatches: 2, countIsComplete: true }),
    },
    {
      name: "Grep files_with_matches: the files",
      files: { "a.txt": "needle\n", "b.txt": "hay\n" },
      run: () => facts(grepTool, { pattern: "needle" }),
      expected: (d) => ({ mode: "files_with_matches", numFiles: 1, filenames: [`${d}/a.txt`] }),
    },
    {
      name: "Grep content: the lines as shown",
      files: { "a.txt": "needle one\nhay\nneedle two\n" },
      run: () => facts(grepTool, { pattern: "needle", output_mode: "content" }),
      expected: (d) => ({
        mode: "content",
        numFiles: 1,
        content: `${d}/a.txt:1:needle one\n${d}/a.txt:3:needle two`,
        numLines: 2,
      }),
    },
    {
      name: "Grep count: per-file counts and their sum",
      files: { "a.txt": "n\nn\n", "b.txt": "n\n" },
      run: () => facts(grepTool, { pattern: "n", output_mode: "count" }),
      expected: () => ({ mode: "count", numFiles: 2, numMatches: 3 }),
    },
    {
      name: "Grep cut at head_limit: appliedLimit",
      files: { "a.txt": "n\n", "b.txt": "n\n", "c.txt": "n\n" },
      run: () => facts(grepTool, { pattern: "n", head_limit: 2 }),
      expected: () => ({ numFiles: 2, appliedLimit: 2 }),
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      if (c.files) writeTree(dir, c.files);
      expect(await c.run()).toMatchObject(c.expected(dir) as object);
    });
  }

  test("Glob's paths are absolute, newest first", async () => {
    writeTree(dir, { "a.ts": "" });
    const got = (await facts(globTool, { pattern: "*.ts" })) as { filenames: string[] };
    expect(got.filenames).toEqual([`${dir}/a.ts`]);
  });

  test("Bash: its output as stdout; a killed command is interrupted", () => {
    const run = { output: "hi\n", exitCode: 0, timedOut: false, interrupted: false, finalCwd: "/w", durationMs: 1 };
    expect(formatBashResult(run, "/w", 1000).hookResponse).toEqual({
      stdout: "hi\n",
      interrupted: false,
      isImage: false,
    });
    const killed = formatBashResult({ ...run, exitCode: null, timedOut: true }, "/w", 1000).hookResponse;
    expect(killed).toMatchObject({ interrupted: true });
  });
});

describe("structuredPatch", () => {
  const cases: Array<[string, string, string, unknown]> = [
    ["no change", "a\n", "a\n", []],
    [
      "into an empty file: old side at 0",
      "",
      "x\n",
      [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, lines: ["+x"] }],
    ],
    ["all removed: new side at 0", "x\n", "", [{ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0, lines: ["-x"] }]],
    [
      "a change deep in a file keeps three lines of context",
      "1\n2\n3\n4\n5\n6\n7\n8\n",
      "1\n2\n3\n4\n5\nsix\n7\n8\n",
      [{ oldStart: 3, oldLines: 6, newStart: 3, newLines: 6, lines: [" 3", " 4", " 5", "-6", "+six", " 7", " 8"] }],
    ],
  ];
  for (const [name, before, after, expected] of cases) {
    test(name, () => expect(structuredPatch(changeDisplay("/f", before, after, false))).toEqual(expected as never));
  }
  test("no diff (too large to diff): no hunks", () => expect(structuredPatch(undefined)).toEqual([]));
});

describe("screening and bounds", () => {
  const SECRET = "sk-test-0123456789abcdef";
  const screen = {
    redact: (t: string) => t.split(SECRET).join("[redacted]"),
    // Stands in for the policy's Grep/Glob screen: a line naming a .env file is hidden, with a note.
    text: (t: string) => {
      const kept = t.split("\n").filter((l) => !l.includes(".env"));
      const note = kept.length < t.split("\n").length ? "\n(1 line from .env hidden)" : "";
      return kept.join("\n").split(SECRET).join("[redacted]") + note;
    },
  };
  const model = { content: "the model's copy", is_error: false };

  const cases: Array<[string, ToolResponseFacts | undefined, Record<string, unknown>]> = [
    ["no facts: the model's copy only", undefined, { content: "the model's copy", is_error: false }],
    [
      "a secret in stdout is redacted",
      { stdout: `key=${SECRET}\n`, interrupted: false, isImage: false },
      { stdout: "key=[redacted]\n", content: "the model's copy", is_error: false },
    ],
    [
      "nested strings too (Read's file)",
      { type: "text", file: { filePath: "/w/c", content: SECRET, numLines: 1, startLine: 1, totalLines: 1 } },
      { file: { content: "[redacted]" } },
    ],
    [
      "hidden paths leave filenames, and numFiles counts what is left",
      { filenames: ["/w/a.ts", "/w/.env"], numFiles: 2, truncated: false, totalMatches: 2 },
      { filenames: ["/w/a.ts"], numFiles: 1 },
    ],
    [
      "Grep's content (Claude Code's field, not the model's copy) gets the model's screening",
      { mode: "content", numFiles: 2, filenames: [], content: `/w/a:1:x\n/w/.env:1:${SECRET}` },
      { content: "/w/a:1:x\n(1 line from .env hidden)", mode: "content", is_error: false },
    ],
    [
      "a tool's own content wins (Write's text); is_error is always the call's",
      { content: "written text", is_error: "maybe", other: 1 },
      { content: "written text", is_error: false, other: 1 },
    ],
  ];
  for (const [name, facts, expected] of cases) {
    test(name, () => expect(hookToolResponse(facts, model, screen)).toMatchObject(expected));
  }

  test("an MCP tool's structuredContent, without the names the model's copy and the error flag keep", async () => {
    const structuredContent = { issue: 42, content: "theirs", is_error: "theirs" };
    const result = await mcpToolResult(
      { content: [{ type: "text", text: "made #42" }], structuredContent },
      { maxChars: 1000, maxImageBytes: 0, limitName: "test" },
    );
    expect(result.hookResponse).toEqual({ issue: 42 });
    expect(hookToolResponse(result.hookResponse, { content: "made #42", is_error: false }, screen)).toEqual({
      issue: 42,
      content: "made #42",
      is_error: false,
    });
  });

  test("a string past the budget is cut with a note, leaving room for the fields after it", () => {
    const big = "x".repeat(MAX_TOOL_RESPONSE_CHARS);
    const write = { type: "create", filePath: "/w/f", content: big, structuredPatch: [], originalFile: big };
    const got = hookToolResponse(write, model, screen) as Record<string, unknown>;
    // Each name costs its length and 4, each string its length and 3 (about their JSON).
    const spent =
      "type".length + 4 + "create".length + 3 + "filePath".length + 4 + "/w/f".length + 3 + "content".length + 4;
    const kept = MAX_TOOL_RESPONSE_CHARS - spent - 1024;
    expect(got.content).toBe(`${big.slice(0, kept)}[cut: ${big.length - kept} more characters]`);
    expect(got).toMatchObject({ type: "create", filePath: "/w/f", structuredPatch: [], is_error: false });
    expect(got.originalFile).toBe(`[cut: ${big.length} more characters]`);
    expect(JSON.stringify(got).length).toBeLessThan(MAX_TOOL_RESPONSE_CHARS + 200);
  });

  test("a hostile server's result: many fields, or nested deep, stays bounded", () => {
    const wide = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]));
    const got = hookToolResponse(wide, model, screen);
    expect(JSON.stringify(got).length).toBeLessThan(MAX_TOOL_RESPONSE_CHARS + 200);
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const nested = JSON.stringify(hookToolResponse({ deep }, model, screen));
    expect(nested).toContain("[cut: nested too deep]");
    expect(nested.length).toBeLessThan(200);
  });

  test("a cut never halves a surrogate pair", () => {
    const stdout = `ab😀${"x".repeat(2000)}`;
    const max = "stdout".length + 4 + 1024 + 3;
    const got = hookToolResponse({ stdout, interrupted: false, isImage: false }, model, screen, max);
    expect(got.stdout).toBe(`ab[cut: ${stdout.length - 2} more characters]`);
  });
});

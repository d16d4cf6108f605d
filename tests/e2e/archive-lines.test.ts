// Archive lines that are valid JSON but hold blocks this build cannot use (damaged, hand-edited,
// from a newer version): `synapse -c` resumes and answers, with one warning per such line, and the
// request it sends is one the strict API accepts. Before the lines were checked block by block,
// one of them ended every resume: "Internal error: undefined is not an object (evaluating
// 's.text.length')".

import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();

const line = (id: string, role: "user" | "assistant", content: unknown[], extra = {}) =>
  JSON.stringify({ id, role, content, ts: 1, ...extra });
const text = (t: string) => ({ type: "text", text: t });

// Each bad line, and what must still be true of the request the resumed session sends.
const BAD_LINES: Array<[string, string[]]> = [
  ["a text block without text", [line("x1", "user", [{ type: "text" }, { type: "text", text: "kept words" }])]],
  [
    "a block type from a newer version",
    [line("x2", "assistant", [{ type: "thinking_v9", data: "?" }, text("after new")])],
  ],
  [
    "a tool_result without content",
    [
      line("x3", "assistant", [{ type: "tool_use", id: "toolu_x3", name: "Bash", input: { command: "true" } }]),
      line("x4", "user", [{ type: "tool_result", tool_use_id: "toolu_x3" }]),
    ],
  ],
  [
    "a tool_result without an id (its call is left unanswered)",
    [
      line("x5", "assistant", [{ type: "tool_use", id: "toolu_x5", name: "Bash", input: { command: "true" } }]),
      line("x6", "user", [{ type: "tool_result", content: "lost" }]),
    ],
  ],
  [
    "a message whose only block is unusable",
    [line("x7", "user", [{ type: "image" }]), line("x8", "assistant", [text("x8 ok")])],
  ],
  [
    "a damaged compaction record (kept as a plain message)",
    [line("x9", "user", [text("summary words")], { isSummary: true, compaction: { trigger: "auto", keptIds: 3 } })],
  ],
];

describe("archive lines checked block by block", () => {
  test.each(BAD_LINES)("%s: -c resumes and answers, with one warning naming the file and line", async (_, lines) => {
    const home = tempHome();
    const cwd = mkdtempSync(join(tmpdir(), "synapse-badline-"));
    let s = await serve([{ text: "first answer" }]);
    expect((await runBinary({ args: ["hello"], cwd, env: { ...home.env, ...providerEnv(s.url) } })).code).toBe(0);
    const root = join(home.env.SYNAPSE_HOME!, "sessions");
    const [id] = readdirSync(root);
    const archive = join(root, id!, "messages.jsonl");
    appendFileSync(archive, lines.map((l) => `${l}\n`).join(""));

    s = await serve([{ text: "resumed fine" }]);
    const r = await runBinary({ args: ["-c", "again"], cwd, env: { ...home.env, ...providerEnv(s.url) } });
    expect(r.stderr).not.toContain("Internal error");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("resumed fine\n");
    // The first run wrote lines 1 and 2; the bad one is among ours, and named once.
    const warnings = r.stderr.split("\n").filter((l) => l.includes("messages.jsonl"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/line [34] of .*messages\.jsonl/);
    // The strict fake answered (it refuses a call without its result), and what could be kept was sent.
    expect(s.requests).toHaveLength(1);
    const sent = JSON.stringify(s.requests[0]!.body.messages);
    expect(sent).toContain("first answer");
    expect(sent).toContain("again");
  });

  test.each(["anthropic", "openai"] as const)(
    "%s: what is kept of the bad lines reaches the model, every call answered",
    async (provider) => {
      const home = tempHome();
      const cwd = mkdtempSync(join(tmpdir(), "synapse-badline-"));
      let s = await serve([{ text: "first answer" }]);
      await runBinary({ args: ["hello"], cwd, env: { ...home.env, ...providerEnv(s.url, provider) } });
      const root = join(home.env.SYNAPSE_HOME!, "sessions");
      const archive = join(root, readdirSync(root)[0]!, "messages.jsonl");
      appendFileSync(
        archive,
        BAD_LINES.flatMap(([, lines]) => lines)
          .map((l) => `${l}\n`)
          .join(""),
      );

      s = await serve([{ text: "resumed fine" }]);
      const r = await runBinary({ args: ["-c", "again"], cwd, env: { ...home.env, ...providerEnv(s.url, provider) } });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("resumed fine\n");
      expect(r.stderr.split("\n").filter((l) => l.includes("messages.jsonl"))).toHaveLength(BAD_LINES.length);
      const sent = JSON.stringify(s.requests[0]!.body.messages);
      for (const kept of ["kept words", "after new", "x8 ok", "summary words"]) expect(sent).toContain(kept);
      expect(sent).toContain("could not be read back from the session archive");
      expect(sent).not.toContain("thinking_v9");
    },
  );
});

// One archive line back to a message, block by block (table): what is kept, what is dropped, and
// the one warning per line that names the file and the line.
import { describe, expect, test } from "bun:test";
import { UNREADABLE_RESULT } from "../../src/protocol/message-schema.ts";
import { parseLine } from "../../src/store/message-line.ts";

const m = (content: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: "m1", role: "user", ts: 5, content, ...extra });
const text = (t: string) => ({ type: "text" as const, text: t });

function read(lineText: string) {
  const warnings: string[] = [];
  const message = parseLine({ text: lineText, no: 7, terminated: true } as never, "/s/messages.jsonl", (w) =>
    warnings.push(w),
  );
  return { message, warnings };
}

describe("parseLine", () => {
  const cases: Array<[string, string, unknown[] | undefined, string | undefined]> = [
    ["a good line", m([text("a")]), [text("a")], undefined],
    ["an empty content list is a message", m([]), [], undefined],
    ["text without text", m([{ type: "text" }, text("b")]), [text("b")], '"text" is required'],
    ["text that is a number", m([{ type: "text", text: 3 }, text("b")]), [text("b")], '"text" must be a string'],
    [
      "a newer version's block",
      m([{ type: "thinking", thinking: "x" }, text("b")]),
      [text("b")],
      "of a type this version does not know",
    ],
    ["a block without a type", m([{ text: "x" }, text("b")]), [text("b")], "dropped"],
    ["a null block", m([null, text("b")]), [text("b")], "must be an object, got null"],
    [
      "a tool_result without content still answers its call",
      m([{ type: "tool_result", tool_use_id: "t1" }]),
      [{ type: "tool_result", tool_use_id: "t1", content: UNREADABLE_RESULT, is_error: true }],
      "replaced by a note",
    ],
    [
      "a tool_result with a damaged part",
      m([{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text" }] }]),
      [{ type: "tool_result", tool_use_id: "t1", content: UNREADABLE_RESULT, is_error: true }],
      "replaced by a note",
    ],
    [
      "a tool_result without an id",
      m([{ type: "tool_result", content: "x" }, text("b")]),
      [text("b")],
      '"tool_use_id" is required',
    ],
    ["an image without its reference", m([{ type: "image" }, text("b")]), [text("b")], '"image" is required'],
    [
      "nothing usable left: the line is skipped",
      m([{ type: "text" }]),
      undefined,
      "skipped line 7 of /s/messages.jsonl",
    ],
    ["no id: not a message", JSON.stringify({ role: "user", ts: 1, content: [] }), undefined, "not a message"],
    [
      "an unknown role",
      JSON.stringify({ id: "a", role: "system", ts: 1, content: [] }),
      undefined,
      '"role" must be one of',
    ],
  ];
  test.each(cases)("%s", (_name, lineText, content, warning) => {
    const { message, warnings } = read(lineText);
    expect(message?.content as unknown).toEqual(content);
    if (warning === undefined) {
      expect(warnings).toEqual([]);
    } else {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(warning);
      expect(warnings[0]).toMatch(/line 7 of \/s\/messages\.jsonl: /);
    }
  });

  test("several bad blocks in one line make one warning", () => {
    const { message, warnings } = read(m([{ type: "text" }, { type: "new" }, text("c")]));
    expect(message?.content as unknown).toEqual([text("c")]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("content[0]");
    expect(warnings[0]).toContain("content[1]");
  });

  test("a damaged compaction record is left out, the message kept; a good one is kept whole", () => {
    const bad = read(m([text("summary")], { isSummary: true, compaction: { trigger: "auto", count: -1 } }));
    expect(bad.message?.compaction).toBeUndefined();
    expect(bad.message?.isSummary).toBe(true);
    expect(bad.warnings[0]).toContain("compaction (");
    const info = {
      trigger: "manual",
      firstId: "a",
      lastId: "b",
      count: 2,
      tokensBefore: 9,
      tokensAfter: 3,
      keptIds: ["c"],
      method: "summary",
    };
    const good = read(m([text("summary")], { isSummary: true, compaction: info }));
    expect(good.message?.compaction).toEqual(info as never);
    expect(good.warnings).toEqual([]);
  });

  test("fields this version does not know are kept on the message", () => {
    expect(read(m([text("a")], { future: { x: 1 } })).message).toMatchObject({ future: { x: 1 } });
  });

  test("unparseable tool input from archives before raw_input is carried as raw_input", () => {
    const { message } = read(m([{ type: "tool_use", id: "t", name: "Bash", input: { __invalid_json: '{"c' } }]));
    expect(message?.content).toEqual([{ type: "tool_use", id: "t", name: "Bash", input: {}, raw_input: '{"c' }]);
  });
});

test("usage is kept whole, the cache counts too", () => {
  const usage = { input_tokens: 9, output_tokens: 2, cache_read_input_tokens: 5, cache_creation_input_tokens: 1 };
  const { message, warnings } = read(
    JSON.stringify({ id: "a", role: "assistant", ts: 1, content: [{ type: "text", text: "x" }], usage }),
  );
  expect(message?.usage).toEqual(usage);
  expect(warnings).toEqual([]);
});

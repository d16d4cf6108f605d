// The words for a failed write to stdout, a failed run's `error:` line, and the piped slash
// commands that need a saved session: pure functions, table-driven.
import { describe, expect, test } from "bun:test";
import { resultErrorText } from "../../../src/cli/output/result-error.ts";
import { outputFailureMessage, readerWentAway } from "../../../src/cli/output/write-failure.ts";
import { needsSavedSession } from "../../../src/cli/session-commands.ts";
import type { RunResult } from "../../../src/protocol/events.ts";

const errno = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("outputFailureMessage", () => {
  test.each([
    [errno("ENOSPC", "ENOSPC: no space left on device, write"), "cannot write the output: no space left on device"],
    [errno("EIO", "EIO: i/o error, write"), "cannot write the output: input/output error"],
    [errno("EDQUOT", "EDQUOT: disk quota exceeded, write"), "cannot write the output: disk quota exceeded"],
    [errno("EROFS", "EROFS: read-only file system, write"), "cannot write the output: read-only file system"],
    // A code without words of ours: the system's own, without the code and the call's name.
    [errno("ENXIO", "ENXIO: no such device or address, write"), "cannot write the output: no such device or address"],
    [new Error("something else"), "cannot write the output: something else"],
  ])("%p → %p", (err, text) => expect(outputFailureMessage(err)).toBe(text));

  test("only EPIPE is a reader that went away", () => {
    expect(readerWentAway(errno("EPIPE", "EPIPE: broken pipe, write"))).toBe(true);
    expect(readerWentAway(errno("ENOSPC", "x"))).toBe(false);
    expect(readerWentAway(undefined)).toBe(false);
  });
});

describe("resultErrorText", () => {
  const result = (over: Partial<RunResult>) => ({ subtype: "success", result: "", num_turns: 3, ...over }) as RunResult;
  test.each([
    [{ subtype: "success" }, true, undefined],
    [{ subtype: "interrupted" }, true, undefined],
    [
      { subtype: "error_during_execution", result: "404 not_found_error: no such model" },
      false,
      "404 not_found_error: no such model",
    ],
    [{ subtype: "error_max_turns" }, false, "reached the maximum number of turns (3)"],
    [
      { subtype: "success", error: "could not save the session: disk full" },
      false,
      "could not save the session: disk full",
    ],
  ] as Array<[Partial<RunResult>, boolean, string | undefined]>)("%p", (over, above, text) =>
    expect(resultErrorText(result(over), above)).toBe(text),
  );

  test("a cut answer is said to be above in text mode, in the result otherwise", () => {
    expect(resultErrorText(result({ subtype: "error_max_tokens" }), true)).toStartWith(
      "the answer above was cut at the output limit",
    );
    expect(resultErrorText(result({ subtype: "error_max_tokens" }), false)).toStartWith(
      "the answer (the result holds the part written) was cut",
    );
  });
});

describe("needsSavedSession", () => {
  test.each([
    ["model", "gpt-5.4", true],
    ["model", "", false],
    ["compact", "", true],
    ["compact", "--keep-last 2", true],
    ["help", "", false],
    ["status", "", false],
    ["resume", "", false],
  ] as const)("/%s %s: needs one %p", (name, args, needs) =>
    expect(needsSavedSession(name, args) !== undefined).toBe(needs),
  );
});

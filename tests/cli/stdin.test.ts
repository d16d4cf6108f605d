// Reading piped stdin: silence, size cap, invalid UTF-8; and how it joins the prompt argument.
import { describe, expect, test } from "bun:test";
import { composePrompt, readStdin } from "../../src/cli/stdin.ts";
import { UsageError } from "../../src/protocol/errors.ts";

function source(chunks: (string | Uint8Array)[], opts: { hang?: boolean; tty?: boolean } = {}) {
  return {
    isTTY: opts.tty ?? false,
    stream: () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const c of chunks) controller.enqueue(typeof c === "string" ? new TextEncoder().encode(c) : c);
          if (!opts.hang) controller.close();
        },
      }),
  };
}

describe("readStdin", () => {
  test("reads everything", async () => {
    expect(await readStdin(source(["a", "b\n"]))).toBe("ab\n");
  });
  test("a terminal is not read", async () => {
    expect(await readStdin(source(["x"], { tty: true }))).toBeUndefined();
  });
  test("a silent pipe gives up after the first-byte timeout", async () => {
    expect(await readStdin(source([], { hang: true }), { firstByteTimeoutMs: 50 })).toBeUndefined();
  });
  test("a pipe that sends in time is read to the end", async () => {
    expect(await readStdin(source(["data"]), { firstByteTimeoutMs: 1000 })).toBe("data");
  });
  test("over the cap is a usage error", async () => {
    await expect(readStdin(source(["12345", "6789"]), { maxBytes: 8 })).rejects.toBeInstanceOf(UsageError);
  });
  test("invalid UTF-8 becomes U+FFFD", async () => {
    expect(await readStdin(source([new Uint8Array([0x61, 0xff, 0x62])]))).toBe("a\uFFFDb");
  });
});

describe("composePrompt", () => {
  test.each([
    ["review", "diff\n", "review\n\n<stdin>\ndiff\n</stdin>"],
    ["review", undefined, "review"],
    [undefined, "fix the test\n", "fix the test"],
    [undefined, "  \n", undefined],
    ["  ", undefined, undefined],
    ["x", "", "x"],
  ] as const)("%j + %j", (arg, stdin, expected) => {
    expect(composePrompt(arg, stdin)).toBe(expected as any);
  });
});

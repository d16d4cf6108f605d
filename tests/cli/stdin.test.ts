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
  test("a silent pipe is waited for, with one notice, and data arriving late is kept", async () => {
    let push: (text: string) => void = () => {};
    let end: () => void = () => {};
    const late = {
      isTTY: false,
      stream: () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            push = (text) => controller.enqueue(new TextEncoder().encode(text));
            end = () => controller.close();
          },
        }),
    };
    let notices = 0;
    let noticed: () => void = () => {};
    const noticeSeen = new Promise<void>((resolve) => (noticed = resolve));
    const reading = readStdin(late, {
      noticeAfterMs: 5,
      onSilent: () => {
        notices++;
        noticed();
      },
    });
    await noticeSeen;
    push("late ");
    push("data");
    end();
    expect(await reading).toBe("late data");
    expect(notices).toBe(1);
  });
  test("giveUpAfterMs: a pipe silent that long is given up on once, with undefined", async () => {
    let gaveUp = 0;
    expect(await readStdin(source([], { hang: true }), { giveUpAfterMs: 5, onGiveUp: () => gaveUp++ })).toBeUndefined();
    expect(gaveUp).toBe(1);
  });
  test("giveUpAfterMs: stdin that has started arriving is read to its end, past the deadline", async () => {
    let push: (text: string) => void = () => {};
    let end: () => void = () => {};
    const slow = {
      isTTY: false,
      stream: () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            push = (text) => controller.enqueue(new TextEncoder().encode(text));
            end = () => controller.close();
          },
        }),
    };
    let gaveUp = 0;
    const reading = readStdin(slow, { giveUpAfterMs: 5, onGiveUp: () => gaveUp++ });
    push("first ");
    // Well past the deadline (the delay is the scenario: a slow producer).
    await new Promise((resolve) => setTimeout(resolve, 50));
    push("rest");
    end();
    expect(await reading).toBe("first rest");
    expect(gaveUp).toBe(0);
  });
  test("a pipe that sends at once gets no notice", async () => {
    let notices = 0;
    expect(await readStdin(source(["data"]), { noticeAfterMs: 60_000, onSilent: () => notices++ })).toBe("data");
    expect(notices).toBe(0);
  });
  test("binary data is refused like a binary file", async () => {
    const bytes = new Uint8Array(64 * 1024).map((_, i) => (i * 7919) % 256);
    await expect(readStdin(source([bytes]))).rejects.toThrow("binary");
  });
  test("over the cap is a usage error", async () => {
    await expect(readStdin(source(["12345", "6789"]), { maxBytes: 8 })).rejects.toBeInstanceOf(UsageError);
  });
  test("the default cap is 10 MiB (10,485,760 bytes), as the README says: that much is read, one byte more is not", async () => {
    const mib10 = "x".repeat(10_485_760);
    expect((await readStdin(source([mib10])))?.length).toBe(10_485_760);
    await expect(readStdin(source([mib10, "y"]))).rejects.toThrow("larger than 10 MiB (10485760 bytes)");
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

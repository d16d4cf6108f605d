// The streaming collector must give what cleaning the whole output at once gives, whatever the
// chunking, while holding only a bounded amount of it.

import { describe, expect, test } from "bun:test";
import { cleanLines } from "../../src/shell/output-clean.ts";
import { OutputCollector } from "../../src/shell/output-collector.ts";
import { applyRunLengthEncoding } from "../../src/shell/run-length.ts";
import { truncateOutput } from "../../src/shell/truncate-output.ts";
import { label, loadVectors } from "./vectors.ts";

const encoder = new TextEncoder();

/** What the collector must produce: the pure steps applied to the whole text. */
function wholeText(text: string, maxLines: number, maxChars: number): string {
  return truncateOutput(applyRunLengthEncoding(cleanLines(text)), maxLines, maxChars);
}

function collect(bytes: Uint8Array, maxLines: number, maxChars: number, chunkSizes: (i: number) => number): string {
  const c = new OutputCollector({ maxLines, maxChars });
  for (let i = 0, n = 0; i < bytes.length; n++) {
    const size = chunkSizes(n);
    c.write(bytes.subarray(i, i + size));
    i += size;
  }
  return c.end();
}

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const PIECES = [
  "line",
  "same line\n",
  "\r",
  "\b",
  "\n",
  "\x1b[31m",
  "\x1b[0m",
  "héllo",
  "🚀",
  "progress 50%",
  "\r\n",
  "x",
  "  ",
];

describe("streaming equals cleaning the whole text", () => {
  for (let seed = 1; seed <= 40; seed++) {
    test(`random output #${seed}`, () => {
      const r = rng(seed);
      let text = "";
      const parts = 50 + Math.floor(r() * 400);
      for (let i = 0; i < parts; i++) text += PIECES[Math.floor(r() * PIECES.length)];
      const [lines, chars] = [
        [5, 80],
        [20, 300],
        [500, 30000],
      ][seed % 3]!;
      const bytes = encoder.encode(text);
      // Chunks of 1..17 bytes split lines, escape codes and UTF-8 sequences anywhere.
      expect(collect(bytes, lines!, chars!, () => 1 + Math.floor(r() * 17))).toBe(wholeText(text, lines!, chars!));
    });
  }

  test("a many-megabyte single line comes out as head and tail", () => {
    const text = `${"a".repeat(3_000_000)}MIDDLE${"b".repeat(3_000_000)}`;
    const out = collect(encoder.encode(text), 500, 30_000, () => 65_536);
    expect(out).toBe(truncateOutput(text, 500, 30_000));
    expect(out.startsWith(`${"a".repeat(6000)}\n[...5970006 characters omitted...]\n`)).toBe(true);
  });

  test("a progress bar redrawn a million times without a newline keeps its final state", () => {
    let text = "";
    for (let i = 0; i <= 1_000_000; i += 1) text += `\rprogress ${String(i).padStart(7)}`;
    text += " done";
    const out = collect(encoder.encode(text), 500, 30_000, () => 65_536);
    expect(out).toBe("progress 1000000 done");
  });
});

describe("compressTerminalOutput (Roo-Code derived vectors)", () => {
  loadVectors("derived/compressTerminalOutput.derived.json").forEach((v, i) => {
    // v2026 dropped carriage-return and backspace handling, and `compressProgressBar: false`
    // turns it off; Synapse always resolves them (README "Terminal output"), so where the input
    // has "\r" or "\b" those variants are skipped. v2026 uses fixed limits of 500 lines and
    // 50 000 characters.
    const controls = /[\r\b]/.test(v.input);
    if (controls && (v.variant !== "v2025" || v.args?.compressProgressBar === false)) {
      test.skip(`${label(v, i)} (Synapse always resolves \\r and \\b)`, () => {});
      return;
    }
    test(label(v, i), () => {
      const maxLines = v.variant === "v2025" ? v.args!.lineLimit : 500;
      const c = new OutputCollector({ maxLines, maxChars: v.args?.characterLimit ?? 50_000 });
      c.write(encoder.encode(v.input));
      expect(c.end()).toBe(v.expected);
    });
  });
});

describe("OutputCollector", () => {
  test("invalid UTF-8 becomes U+FFFD and never throws", () => {
    const c = new OutputCollector({ maxLines: 500, maxChars: 30_000 });
    c.write(new Uint8Array([0x61, 0xff, 0xfe, 0x62, 0xc3]));
    c.write(new Uint8Array([0x28, 0x0a, 0xe2, 0x82]));
    expect(c.end()).toBe("a\uFFFD\uFFFDb\uFFFD(\n\uFFFD");
  });

  test("binary bytes pass through as text", () => {
    const c = new OutputCollector({ maxLines: 500, maxChars: 30_000 });
    c.write(new Uint8Array([0, 1, 2, 10, 0x7f]));
    expect(c.end()).toBe("\0\x01\x02\n\x7f");
  });

  test("the live listener gets cleaned lines as they complete", () => {
    const seen: string[] = [];
    const c = new OutputCollector({ maxLines: 500, maxChars: 30_000 }, (t) => seen.push(t));
    c.write(encoder.encode("\x1b[32mok\x1b[0m\n10%\r"));
    expect(seen).toEqual(["ok\n"]);
    c.write(encoder.encode("100%\nlast"));
    expect(seen).toEqual(["ok\n", "100%\n"]);
    c.end();
    expect(seen).toEqual(["ok\n", "100%\n", "last"]);
  });

  test("what reaches the model and the live listener never holds half a surrogate pair", () => {
    // Random bytes hold 4-byte UTF-8 characters, "\b" and "\r" (the `head -c … /dev/urandom` case),
    // and a line of emoji with no newline is passed on in pieces.
    const r = rng(99);
    const noise = Uint8Array.from({ length: 400_000 }, () => Math.floor(r() * 256));
    const emoji = encoder.encode(`a${"😀".repeat(70_000)}\n${"😀\b".repeat(5000)}b😀😀\rxy\n`);
    for (const bytes of [noise, emoji]) {
      const seen: string[] = [];
      const c = new OutputCollector({ maxLines: 500, maxChars: 30_000 }, (t) => seen.push(t));
      for (let i = 0; i < bytes.length; i += 4093) c.write(bytes.subarray(i, i + 4093));
      expect(c.end().isWellFormed()).toBe(true);
      expect(seen.length).toBeGreaterThan(1);
      expect(seen.filter((t) => !t.isWellFormed())).toEqual([]);
    }
  });

  test("bash's errors name bash, not the request file", () => {
    const c = new OutputCollector({ maxLines: 500, maxChars: 30_000 }, undefined, "/dev/shm/ws/request-1");
    c.write(encoder.encode("/dev/shm/ws/request-1: line 1: foo: command not found\nok /dev/shm/ws/request-1\n"));
    c.write(encoder.encode("/dev/shm/ws/request-1: eval: line 2: syntax error"));
    expect(c.end()).toBe(
      "bash: line 1: foo: command not found\nok /dev/shm/ws/request-1\nbash: eval: line 2: syntax error",
    );
  });

  test("end() can be called twice and later writes are ignored", () => {
    const c = new OutputCollector({ maxLines: 500, maxChars: 30_000 });
    c.write(encoder.encode("x\n"));
    expect(c.end()).toBe("x\n");
    c.write(encoder.encode("y\n"));
    expect(c.end()).toBe("x\n");
  });
});

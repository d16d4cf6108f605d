// Binary detection and image magic bytes.
import { describe, expect, test } from "bun:test";
import { imageMediaType, isBinary, type ImageMediaType } from "../../src/tools/binary.ts";

const bytes = (...b: number[]) => new Uint8Array(b);
const enc = (s: string) => new TextEncoder().encode(s);

describe("isBinary", () => {
  const cases: Array<[string, Uint8Array, boolean]> = [
    ["empty", bytes(), false],
    ["ascii text", enc("hello\nworld\r\n\tx"), false],
    ["utf-8 text", enc("héllo wörld — ✓"), false],
    ["ansi colours", enc("\x1b[31mred\x1b[0m\n"), false],
    ["latin-1 (invalid utf-8)", bytes(0x63, 0x61, 0x66, 0xe9, 0x0a), false],
    ["nul byte", bytes(0x61, 0x00, 0x62), true],
    ["utf-16 text", bytes(0xff, 0xfe, 0x61, 0x00), true],
    ["mostly control bytes", bytes(1, 2, 3, 4, 5, 6, 0x61), true],
  ];
  for (const [name, input, expected] of cases) test(name, () => expect(isBinary(input)).toBe(expected));
});

describe("imageMediaType", () => {
  const cases: Array<[string, Uint8Array, ImageMediaType | null]> = [
    ["png", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), "image/png"],
    ["jpeg", bytes(0xff, 0xd8, 0xff, 0xe0), "image/jpeg"],
    ["gif89a", enc("GIF89a..."), "image/gif"],
    ["gif87a", enc("GIF87a..."), "image/gif"],
    ["webp", enc("RIFF\x10\x00\x00\x00WEBPVP8 "), "image/webp"],
    ["riff but wav", enc("RIFF\x10\x00\x00\x00WAVEfmt "), null],
    ["truncated png", bytes(0x89, 0x50, 0x4e), null],
    ["text", enc("PNG is a format"), null],
  ];
  for (const [name, input, expected] of cases) test(name, () => expect(imageMediaType(input)).toBe(expected));
});

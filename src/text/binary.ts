// Tells text from binary by looking at the first bytes (files the tools read, piped stdin), and names
// the image types a model can be shown (by magic bytes, since extensions lie).

/** How many leading bytes are enough to decide. */
export const SNIFF_BYTES = 8192;

export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

function startsWith(bytes: Uint8Array, prefix: number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

export function imageMediaType(bytes: Uint8Array): ImageMediaType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

/**
 * A NUL byte means binary (text encodings we read never contain one); otherwise a high share of
 * control characters does. Invalid UTF-8 alone does not: Latin-1 text is still worth reading.
 */
export function isBinary(bytes: Uint8Array): boolean {
  const sample = bytes.length > SNIFF_BYTES ? bytes.subarray(0, SNIFF_BYTES) : bytes;
  if (sample.length === 0) return false;
  let control = 0;
  for (const b of sample) {
    if (b === 0) return true;
    // Tab, LF, FF, CR, backspace and ESC (ANSI colour in logs) are common in text.
    if (b < 0x20 && b !== 9 && b !== 10 && b !== 12 && b !== 13 && b !== 8 && b !== 27) control++;
  }
  return control / sample.length > 0.1;
}

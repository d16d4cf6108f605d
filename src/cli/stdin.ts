// Reads piped stdin with a size cap, and gives up on a pipe that never sends anything when a
// prompt argument already says what to do (CI runners and agents' shells leave such pipes open).

import { UsageError } from "../protocol/errors.ts";

export const MAX_STDIN_BYTES = 10 * 1024 * 1024;

export interface StdinSource {
  isTTY: boolean;
  stream(): ReadableStream<Uint8Array>;
}

export interface ReadStdinOptions {
  /** With a prompt argument, stop waiting if no byte arrives within this many ms. */
  firstByteTimeoutMs?: number;
  maxBytes?: number;
}

/** Returns the stdin text, or undefined when stdin is a terminal or stayed silent. */
export async function readStdin(source: StdinSource, opts: ReadStdinOptions = {}): Promise<string | undefined> {
  if (source.isTTY) return undefined;
  const maxBytes = opts.maxBytes ?? MAX_STDIN_BYTES;
  let reader: ReturnType<ReadableStream<Uint8Array>["getReader"]>;
  try {
    // Bun checks the descriptor here, synchronously (EISDIR for `< somedir`).
    reader = source.stream().getReader();
  } catch (err) {
    throw unreadable(err);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;

  try {
    let first: Awaited<ReturnType<typeof reader.read>>;
    if (opts.firstByteTimeoutMs !== undefined) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const silent = new Promise<"silent">((resolve) => {
        timer = setTimeout(() => resolve("silent"), opts.firstByteTimeoutMs);
      });
      const raced = await Promise.race([reader.read().catch((err) => Promise.reject(unreadable(err))), silent]);
      clearTimeout(timer);
      if (raced === "silent") return undefined;
      first = raced;
    } else {
      first = await reader.read().catch((err) => Promise.reject(unreadable(err)));
    }
    for (let r = first; !r.done; r = await reader.read().catch((err) => Promise.reject(unreadable(err)))) {
      total += r.value.byteLength;
      if (total > maxBytes) {
        throw new UsageError(`stdin is larger than ${Math.round(maxBytes / 1024 / 1024)} MB; pass a file path in the prompt instead`);
      }
      chunks.push(r.value);
    }
  } finally {
    // A silent pipe must not keep the process alive.
    reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  // Invalid UTF-8 becomes U+FFFD rather than an exception.
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

/** stdin that cannot be read at all (e.g. `< somedir`) is the user's input error, not ours. */
function unreadable(err: unknown): UsageError {
  if (err instanceof UsageError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  return new UsageError(`cannot read stdin${code === "EISDIR" ? ": it is a directory" : code ? `: ${code}` : ""}`);
}

/** Joins a prompt argument and piped text so the model can tell instruction from data. */
export function composePrompt(argPrompt: string | undefined, stdinText: string | undefined): string | undefined {
  const piped = stdinText?.replace(/\s+$/, "");
  const arg = argPrompt?.trim();
  if (arg && piped) return `${arg}\n\n<stdin>\n${piped}\n</stdin>`;
  if (arg) return arg;
  if (piped && piped.trim()) return piped.trim();
  return undefined;
}

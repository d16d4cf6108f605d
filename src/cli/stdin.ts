// Reads piped stdin to its end, with a size cap. Stdin that has started arriving is always read to
// its end, however slowly the rest comes. A pipe that stays silent either gets one notice on
// stderr and is waited for (no prompt argument: stdin is the prompt), or, with a prompt argument,
// is given up on after a while, as Claude Code does: an open, idle pipe (a CI step, another
// program's shell) must not hang the run. `< /dev/null` says there is nothing to wait for.

import { UsageError } from "../protocol/errors.ts";
import { isBinary } from "../text/binary.ts";
import { withPipedInput } from "../protocol/piped-input.ts";

export const MAX_STDIN_BYTES = 10 * 1024 * 1024;

export interface StdinSource {
  isTTY: boolean;
  stream(): ReadableStream<Uint8Array>;
}

export interface ReadStdinOptions {
  /** If no byte has arrived after this many ms, call onSilent once (and keep waiting). */
  noticeAfterMs?: number;
  onSilent?(): void;
  /** If no byte has arrived after this many ms, stop reading: the result is undefined. */
  giveUpAfterMs?: number;
  /** Called once when reading stops for that reason. */
  onGiveUp?(): void;
  maxBytes?: number;
}

/** Returns the stdin text, or undefined when stdin is a terminal. */
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
  const read = () => reader.read().catch((err) => Promise.reject(unreadable(err)));
  const notice =
    opts.onSilent && opts.noticeAfterMs !== undefined ? setTimeout(opts.onSilent, opts.noticeAfterMs) : undefined;
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  const silence =
    opts.giveUpAfterMs === undefined
      ? undefined
      : new Promise<"silent">((resolve) => (giveUp = setTimeout(() => resolve("silent"), opts.giveUpAfterMs)));
  // Only the first read races the deadline: once a byte has come, the rest is read to its end.
  const first = () => (silence ? Promise.race([read(), silence]) : read());

  try {
    const r0 = await first();
    clearTimeout(giveUp);
    if (r0 === "silent") {
      opts.onGiveUp?.();
      return undefined;
    }
    for (let r = r0; !r.done; r = await read()) {
      clearTimeout(notice);
      total += r.value.byteLength;
      if (total > maxBytes) {
        const mib = Math.round(maxBytes / 1024 / 1024);
        throw new UsageError(
          `stdin is larger than ${mib} MiB (${maxBytes} bytes); pass a file path in the prompt instead`,
        );
      }
      chunks.push(r.value);
    }
  } finally {
    clearTimeout(notice);
    clearTimeout(giveUp);
    reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  const bytes = Buffer.concat(chunks);
  // The Read tool refuses binary files; binary on stdin would reach the model as mojibake too.
  if (isBinary(bytes)) {
    throw new UsageError("stdin holds binary data, not text; pass the file's path in the prompt instead");
  }
  // Invalid UTF-8 becomes U+FFFD rather than an exception.
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
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
  if (arg && piped) return withPipedInput(arg, piped);
  if (arg) return arg;
  if (piped?.trim()) return piped.trim();
  return undefined;
}

// Blanks secrets in this process's original environment block, which Linux shows to every process
// of the same user in /proc/<pid>/environ: a command the model runs could otherwise read the API
// key there (`cat /proc/$PPID/environ`), even with the key kept out of its own environment.
// process.env and the resolved Config keep their copies; only the kernel-visible bytes change.

import { closeSync, openSync, readFileSync, writeSync } from "node:fs";

/**
 * Overwrites the value of each named variable in the environment block with `*`. Best effort,
 * Linux only, through /proc/self/mem, else bun:ffi, or (under Deno, given --allow-ffi) Deno.dlopen:
 * where none of them works nothing changes, and a warning would only be noise. Returns how many
 * were blanked.
 */
export async function blankSecretsInProcEnviron(names: readonly string[]): Promise<number> {
  if (process.platform !== "linux" || !names.length) return 0;
  let blanked = 0;
  try {
    if ("Deno" in globalThis) return blankWithDeno(names);
    // Through /proc/self/mem first: plain file I/O, where bun:ffi's dlopen and compiled stubs cost
    // ~0.7 ms of every start; FFI stays the way round a kernel that refuses the write.
    const viaProc = blankThroughProcMem(names);
    if (viaProc !== undefined) return viaProc;
    if (!("Bun" in globalThis)) return 0;
    const { dlopen, FFIType, toArrayBuffer } = await import("bun:ffi");
    const libc = dlopen("libc.so.6", {
      getenv: { args: [FFIType.cstring], returns: FFIType.ptr },
      strlen: { args: [FFIType.ptr], returns: FFIType.u64_fast },
    });
    try {
      for (const name of names) {
        // getenv points into the block /proc shows, as long as nothing called setenv for it.
        const at = libc.symbols.getenv(Buffer.from(`${name}\0`));
        if (!at) continue;
        const length = Number(libc.symbols.strlen(at));
        if (length > 0) new Uint8Array(toArrayBuffer(at, 0, length)).fill(0x2a);
        blanked++;
      }
    } finally {
      libc.close();
    }
  } catch {
    // No glibc (musl, say) or no FFI: the environment block stays as it was.
  }
  return blanked;
}

/**
 * Writes `*` over the values in the kernel's environment block itself (env_start..env_end of
 * /proc/self/stat, the bytes /proc/<pid>/environ shows), every entry of a named variable included.
 * Undefined when /proc cannot be read or written, so the caller can try FFI.
 */
function blankThroughProcMem(names: readonly string[]): number | undefined {
  let fd: number | undefined;
  try {
    const stat = readFileSync("/proc/self/stat", "latin1");
    // Fields after the command name (which may hold spaces and parentheses): field 3 is first.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const envStart = Number(fields[ENV_START_FIELD - 3]);
    const block = readFileSync("/proc/self/environ");
    if (!Number.isSafeInteger(envStart) || envStart <= 0) return undefined;
    const wanted = new Set(names);
    let blanked = 0;
    for (let at = 0; at < block.length; ) {
      const nul = block.indexOf(0, at);
      const end = nul === -1 ? block.length : nul;
      const eq = block.indexOf(0x3d, at);
      if (eq > at && eq < end && wanted.has(block.toString("latin1", at, eq))) {
        if (end > eq + 1) {
          fd ??= openSync("/proc/self/mem", "r+");
          writeSync(fd, Buffer.alloc(end - eq - 1, 0x2a), 0, end - eq - 1, envStart + eq + 1);
        }
        blanked++;
      }
      at = end + 1;
    }
    return blanked;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** proc(5): env_start, the address where the environment block begins (Linux 3.5 and later). */
const ENV_START_FIELD = 50;

/** The parts of Deno's FFI used here (this project type-checks against Bun's types). */
interface DenoFfi {
  dlopen(
    path: string,
    symbols: object,
  ): { symbols: { getenv(name: Uint8Array): unknown; strlen(at: unknown): number | bigint }; close(): void };
  UnsafePointerView: { getArrayBuffer(at: unknown, length: number): ArrayBuffer };
}

/** Deno's environment reads go to this same block: the resolved Config has its copies by now. */
function blankWithDeno(names: readonly string[]): number {
  const deno = (globalThis as unknown as { Deno: DenoFfi }).Deno;
  const libc = deno.dlopen("libc.so.6", {
    getenv: { parameters: ["buffer"], result: "pointer" },
    strlen: { parameters: ["pointer"], result: "usize" },
  });
  let blanked = 0;
  try {
    for (const name of names) {
      const at = libc.symbols.getenv(new TextEncoder().encode(`${name}\0`));
      if (!at) continue;
      const length = Number(libc.symbols.strlen(at));
      if (length > 0) new Uint8Array(deno.UnsafePointerView.getArrayBuffer(at, length)).fill(0x2a);
      blanked++;
    }
  } finally {
    libc.close();
  }
  return blanked;
}

// Blanks secrets in this process's original environment block, which Linux shows to every process
// of the same user in /proc/<pid>/environ: a command the model runs could otherwise read the API
// key there (`cat /proc/$PPID/environ`), even with the key kept out of its own environment.
// process.env and the resolved Config keep their copies; only the kernel-visible bytes change.

/**
 * Overwrites the value of each named variable in the environment block with `*`. Best effort,
 * Linux only, through bun:ffi or (under Deno, given --allow-ffi) Deno.dlopen: where libc or FFI is
 * not available nothing changes, and a warning would only be noise. Returns how many were blanked.
 */
export async function blankSecretsInProcEnviron(names: readonly string[]): Promise<number> {
  if (process.platform !== "linux" || !names.length) return 0;
  let blanked = 0;
  try {
    if ("Deno" in globalThis) return blankWithDeno(names);
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

/** The parts of Deno's FFI used here (this project type-checks against Bun's types). */
interface DenoFfi {
  dlopen(path: string, symbols: object): { symbols: { getenv(name: Uint8Array): unknown; strlen(at: unknown): number | bigint }; close(): void };
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

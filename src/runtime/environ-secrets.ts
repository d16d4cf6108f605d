// Blanks secrets in this process's original environment block, which Linux shows to every process
// of the same user in /proc/<pid>/environ: a command the model runs could otherwise read the API
// key there (`cat /proc/$PPID/environ`), even with the key kept out of its own environment.
// process.env and the resolved Config keep their copies; only the kernel-visible bytes change.

/**
 * Overwrites the value of each named variable in the environment block with `*`. Best effort,
 * Linux and Bun only (bun:ffi; a Deno port would use Deno.dlopen): where libc or FFI is not
 * available nothing changes, and a warning would only be noise. Returns how many were blanked.
 */
export async function blankSecretsInProcEnviron(names: readonly string[]): Promise<number> {
  if (process.platform !== "linux" || !names.length || !("Bun" in globalThis)) return 0;
  let blanked = 0;
  try {
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

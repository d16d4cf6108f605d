// Marks this process non-dumpable (prctl PR_SET_DUMPABLE 0): Linux then gives its /proc/<pid>
// entries (mem, environ, fd/, maps) to root and refuses ptrace to other processes of the same
// user. Without it a command the model runs reads the API key from synapse's heap through
// /proc/$PPID/mem, or writes escape codes to its terminal through /proc/$PPID/fd/2.
// Call it after blankSecretsInProcEnviron, which writes through /proc/self/mem: a non-root process
// may no longer open its own mem or environ once it is non-dumpable.

const PR_SET_DUMPABLE = 4;

/** The parts of Deno's FFI used here (this project type-checks against Bun's types). */
interface DenoFfi {
  permissions: { querySync(p: { name: "ffi" }): { state: string } };
  dlopen(path: string, symbols: object): { symbols: { prctl(...args: number[]): number }; close(): void };
}

/**
 * True when the kernel took it. Linux only; through bun:ffi, or under Deno through Deno.dlopen when
 * the run was given --allow-ffi (without it: skipped, never a permission prompt). No glibc, no FFI:
 * false, and the process stays as it was.
 */
export async function markNonDumpable(): Promise<boolean> {
  if (process.platform !== "linux") return false;
  try {
    if ("Deno" in globalThis) return withDeno((globalThis as unknown as { Deno: DenoFfi }).Deno);
    if (!("Bun" in globalThis)) return false;
    const { dlopen, FFIType } = await import("bun:ffi");
    const { u64, i32 } = FFIType;
    const libc = dlopen("libc.so.6", { prctl: { args: [i32, u64, u64, u64, u64], returns: i32 } });
    try {
      return libc.symbols.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) === 0;
    } finally {
      libc.close();
    }
  } catch {
    return false;
  }
}

function withDeno(deno: DenoFfi): boolean {
  if (deno.permissions.querySync({ name: "ffi" }).state !== "granted") return false;
  const libc = deno.dlopen("libc.so.6", {
    prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
  });
  try {
    return libc.symbols.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) === 0;
  } finally {
    libc.close();
  }
}

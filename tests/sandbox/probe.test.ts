// The probe: which SandboxState a configuration gives here, and the one warning a process prints.

import { describe, expect, test } from "bun:test";
import { sandboxState, sandboxWarningOnce } from "../../src/sandbox/probe.ts";
import { describeSandbox, isSandboxed, sandboxWarning } from "../../src/sandbox/types.ts";
import { HAVE_BWRAP, NEEDS_BWRAP } from "./support.ts";

describe("sandboxState", () => {
  test("full-access is no sandbox, by choice", async () => {
    expect(await sandboxState({ mode: "full-access", network: false })).toEqual({
      kind: "none",
      mode: "full-access",
      reason: "full-access",
    });
  });

  test("SYNAPSE_BWRAP pointing at nothing: no sandbox, saying why", async () => {
    const state = await sandboxState({ mode: "workspace-write", network: false, bwrapPath: "/nonexistent/bwrap" });
    expect(state).toEqual({ kind: "none", mode: "workspace-write", reason: "/nonexistent/bwrap not found" });
    expect(isSandboxed(state)).toBe(false);
  });

  test("a bwrap that cannot start a sandbox: no sandbox, with its complaint", async () => {
    // `false` stands for a bwrap refused by the kernel (no user namespaces): it exits 1, says nothing.
    const state = await sandboxState({ mode: "read-only", network: false, bwrapPath: "/bin/false" });
    expect(state).toEqual({ kind: "none", mode: "read-only", reason: "bwrap cannot start a sandbox here: exit 1" });
  });

  test.skipIf(!HAVE_BWRAP)(
    `bwrap on the trusted PATH that starts: the sandbox, in the asked mode${NEEDS_BWRAP}`,
    async () => {
      const state = await sandboxState({ mode: "read-only", network: true });
      expect(state).toMatchObject({ kind: "bwrap", mode: "read-only", network: true });
      expect(isSandboxed(state)).toBe(true);
    },
  );

  test("asked once per process and configuration", async () => {
    const config = { mode: "workspace-write" as const, network: false, bwrapPath: "/nonexistent/other" };
    expect(sandboxState(config)).toBe(sandboxState({ ...config }));
  });
});

describe("what is said about it", () => {
  test("one warning per process, only when commands run unconfined", () => {
    expect(sandboxWarning({ kind: "bwrap", mode: "workspace-write", network: false, bwrap: "/b" })).toBeNull();
    const missing = { kind: "none", mode: "workspace-write", reason: "bwrap not found" } as const;
    expect(sandboxWarning(missing)).toContain("no OS sandbox for commands (bwrap not found)");
    expect(sandboxWarning({ kind: "none", mode: "full-access", reason: "full-access" })).toContain(
      "sandbox off (--sandbox full-access)",
    );
    expect(sandboxWarningOnce(missing)).toBe(sandboxWarning(missing));
    expect(sandboxWarningOnce(missing)).toBeNull();
    expect(describeSandbox(missing)).toContain("unavailable (bwrap not found)");
  });
});

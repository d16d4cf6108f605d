// The permission mode and the sandbox state are always in the status line, first, dangerous ones
// in red and marked ⚠ (so they read without colour too); Shift+Tab's cycle of modes.

import { describe, expect, test } from "bun:test";
import { nextMode, safetyParts } from "../../../src/cli/interactive/safety-status.ts";
import { statusLine } from "../../../src/render/status-line.ts";
import { makeTheme } from "../../../src/render/theme.ts";
import type { SandboxState } from "../../../src/sandbox/types.ts";

const plain = makeTheme(false);
const colour = makeTheme(true);
const bwrap: SandboxState = { kind: "bwrap", mode: "workspace-write", network: false, bwrap: "/usr/bin/bwrap" };
const off: SandboxState = { kind: "none", mode: "full-access", reason: "full-access" };
const missing: SandboxState = { kind: "none", mode: "workspace-write", reason: "bwrap not found" };
const facts = {
  model: "anthropic/claude-sonnet-5-5",
  contextPercent: 12,
  sessionId: "20260101-000000-abcdef",
  cwd: "/home/u/project",
};

describe("safetyParts in the status line", () => {
  test.each([
    ["default", bwrap, "anthropic/claude-sonnet-5-5 · 12% context · default · sandboxed · 20260101-000000-abcdef"],
    [
      "accept-edits",
      { ...bwrap, network: true },
      "anthropic/claude-sonnet-5-5 · 12% context · accept-edits · sandboxed +net ·",
    ],
    [
      "default",
      { ...bwrap, mode: "read-only" },
      "anthropic/claude-sonnet-5-5 · 12% context · default · sandboxed read-only ·",
    ],
    ["plan", missing, "anthropic/claude-sonnet-5-5 · 12% context · plan · no sandbox (asks) · 20260101"],
    ["bypass", off, "anthropic/claude-sonnet-5-5 · 12% context · ⚠ BYPASS · ⚠ FULL-ACCESS · 20260101"],
  ] as const)("%s with %j", (mode, sandbox, start) => {
    expect(statusLine({ ...facts, safety: safetyParts(mode, sandbox) }, 120, plain, "/home/u").startsWith(start)).toBe(
      true,
    );
  });

  test("bypass and full-access are red; a narrow terminal keeps context and safety, cutting the model", () => {
    const line = statusLine({ ...facts, safety: safetyParts("bypass", off) }, 120, colour);
    expect(line).toContain("\x1b[31m⚠ BYPASS");
    expect(line).toContain("\x1b[31m⚠ FULL-ACCESS");
    expect(statusLine({ ...facts, safety: safetyParts("default", bwrap) }, 120, colour)).not.toContain("\x1b[31m");
    const narrow = statusLine({ ...facts, safety: safetyParts("bypass", off) }, 44, plain);
    expect(narrow.startsWith("12% context · ⚠ BYPASS · ⚠ FULL-ACCESS · ")).toBe(true);
    expect(narrow.length).toBeLessThanOrEqual(44);
    expect(statusLine({ ...facts, safety: safetyParts("default", bwrap) }, 44, plain)).toBe(
      "12% context · default · sandboxed · claude-…",
    );
  });
});

test("while the session opens, the status line already shows the configured mode", () => {
  const opening = { model: "starting…", sessionId: "", cwd: "" };
  expect(statusLine({ ...opening, safety: safetyParts("bypass", undefined) }, 80, plain)).toBe("starting… · ⚠ BYPASS");
  expect(statusLine({ ...opening, safety: safetyParts("default", undefined) }, 80, plain)).toBe("starting… · default");
});

describe("Shift+Tab cycles the permission mode", () => {
  test("default → accept-edits → plan → default; never into bypass unless the session started there", () => {
    expect(nextMode("default", false)).toBe("accept-edits");
    expect(nextMode("accept-edits", false)).toBe("plan");
    expect(nextMode("plan", false)).toBe("default");
    expect(nextMode("plan", true)).toBe("bypass");
    expect(nextMode("bypass", true)).toBe("default");
  });
});

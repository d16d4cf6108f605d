// Sandbox settings: --sandbox / SYNAPSE_SANDBOX / config `sandbox`, default workspace-write with no
// network; a project's config may only tighten them (a cloned repository wrote it).
import { describe, expect, test } from "bun:test";
import { parseCommandLine } from "../../src/cli/args.ts";
import { type FileConfig, resolveConfig } from "../../src/config/config.ts";
import { checkFileConfig } from "../../src/config/load.ts";

const base = { env: {}, processCwd: "/w", homeDir: "/h" };
type Src = {
  flags?: string[];
  env?: Record<string, string>;
  project?: FileConfig["sandbox"];
  user?: FileConfig["sandbox"];
};
const sandbox = (s: Src) =>
  resolveConfig({
    ...base,
    env: s.env ?? {},
    flags: parseCommandLine([...(s.flags ?? []), "hi"]).flags,
    projectFile: s.project ? { sandbox: s.project } : undefined,
    userFile: s.user ? { sandbox: s.user } : undefined,
  }).sandbox;

describe("sandbox settings", () => {
  test.each<[string, Src, { mode: string; network: boolean }]>([
    ["default", {}, { mode: "workspace-write", network: false }],
    ["flag", { flags: ["--sandbox", "read-only"] }, { mode: "read-only", network: false }],
    ["flag network", { flags: ["--sandbox-network"] }, { mode: "workspace-write", network: true }],
    ["env", { env: { SYNAPSE_SANDBOX: "full-access" } }, { mode: "full-access", network: false }],
    ["env network", { env: { SYNAPSE_SANDBOX_NETWORK: "1" } }, { mode: "workspace-write", network: true }],
    [
      "flag over env",
      { flags: ["--sandbox", "read-only"], env: { SYNAPSE_SANDBOX: "full-access" } },
      { mode: "read-only", network: false },
    ],
    ["user file", { user: { mode: "full-access", network: true } }, { mode: "full-access", network: true }],
    [
      "project tightens user",
      { user: { mode: "full-access", network: true }, project: { mode: "read-only", network: false } },
      { mode: "read-only", network: false },
    ],
  ])("%s", (_name, src, want) => {
    expect(sandbox(src)).toMatchObject(want);
  });

  test("a project's config may not loosen the sandbox", () => {
    expect(() => sandbox({ project: { mode: "full-access" } })).toThrow(/"sandbox.mode": "full-access" is refused/);
    expect(() => sandbox({ project: { network: true } })).toThrow(/"sandbox.network": true is refused/);
  });

  test("bad values are usage errors naming their source", () => {
    expect(() => sandbox({ flags: ["--sandbox", "none"] })).toThrow(
      /--sandbox must be one of read-only, workspace-write, full-access/,
    );
    expect(() => sandbox({ env: { SYNAPSE_SANDBOX: "off" } })).toThrow(/SYNAPSE_SANDBOX must be one of/);
    expect(() => checkFileConfig({ sandbox: { mode: "open" } })).toThrow(/"sandbox.mode" must be one of/);
    expect(() => checkFileConfig({ sandbox: { network: "yes" } })).toThrow(/"sandbox.network" must be true or false/);
    expect(() => checkFileConfig({ sandbox: { hosts: [] } })).toThrow(/unknown setting "sandbox.hosts"/);
    expect(() => checkFileConfig({ sandbox: "read-only" })).toThrow(/"sandbox" must be an object/);
    expect(checkFileConfig({ sandbox: { mode: "read-only", network: false } })).toBeTruthy();
  });

  test("SYNAPSE_BWRAP names the bubblewrap binary to use", () => {
    expect(sandbox({ env: { SYNAPSE_BWRAP: "/nonexistent" } }).bwrapPath).toBe("/nonexistent");
    expect(sandbox({}).bwrapPath).toBeUndefined();
  });
});

// Permission settings from flags and config files: rules merge (flags first), --add-dir resolves
// against the working directory, a bad `permissions` value is refused, and the secret values
// the config knows about are collected for redaction.
import { describe, expect, test } from "bun:test";
import { parseCommandLine } from "../../src/cli/args.ts";
import { resolveConfig } from "../../src/config/config.ts";
import { checkFileConfig } from "../../src/config/load.ts";

const base = { env: {}, processCwd: "/w", homeDir: "/h" };

describe("permission settings", () => {
  test("--allow, --deny and --add-dir are repeatable", () => {
    const { flags } = parseCommandLine([
      "--allow",
      "Bash(npm test)",
      "--allow",
      "Bash(git *)",
      "--deny",
      "Write(.git/**)",
      "--add-dir",
      "../lib",
      "--add-dir",
      "/opt/x",
      "hi",
    ]);
    expect(flags.allow).toEqual(["Bash(npm test)", "Bash(git *)"]);
    expect(flags.deny).toEqual(["Write(.git/**)"]);
    const config = resolveConfig({ ...base, flags: { ...flags, cwd: "proj" } });
    expect(config.addDirs).toEqual(["/w/lib", "/opt/x"]);
  });

  test("rules from flags, project and user files all apply", () => {
    const config = resolveConfig({
      ...base,
      flags: { allow: ["Bash(a)"] },
      projectFile: { permissions: { allow: ["Bash(b)"], deny: ["Bash(c)"] } },
      userFile: { permissions: { deny: ["Bash(d)"] } },
    });
    // The project's allow rules are kept apart: a cloned repository wrote them (see the policy tests).
    expect(config.permissions).toEqual({ allow: ["Bash(a)"], projectAllow: ["Bash(b)"], deny: ["Bash(c)", "Bash(d)"] });
  });

  test("a project's config may tighten the mode but never loosen it (bypass least of all)", () => {
    const mode = (project: string, user?: string, flags: { permissionMode?: string } = {}) =>
      resolveConfig({
        ...base,
        flags,
        projectFile: { permissionMode: project as never },
        userFile: user ? { permissionMode: user as never } : undefined,
      }).permissionMode;
    expect(() => mode("bypass")).toThrow(/project's config may only make the mode stricter/);
    expect(() => mode("default", "accept-edits")).toThrow(/"default" is refused/);
    expect(mode("accept-edits")).toBe("accept-edits");
    expect(mode("plan", "accept-edits")).toBe("plan");
    expect(mode("default", "bypass")).toBe("default");
    expect(mode("bypass", undefined, { permissionMode: "default" })).toBe("default"); // not used: the flag decides
  });

  test("config files: permissions must be lists of strings under allow / deny", () => {
    expect(checkFileConfig({ permissions: { allow: ["Bash(x)"], deny: [] } })).toBeTruthy();
    expect(() => checkFileConfig({ permissions: ["Bash"] })).toThrow(/"permissions" must be an object/);
    expect(() => checkFileConfig({ permissions: { allow: "Bash" } })).toThrow(/"permissions.allow" must be a list/);
    expect(() => checkFileConfig({ permissions: { ask: [] } })).toThrow(/permissions.ask/);
  });

  test("secrets: the provider keys and the variables SYNAPSE_HIDE_ENV names", () => {
    const config = resolveConfig({
      ...base,
      flags: {},
      env: {
        ANTHROPIC_API_KEY: "sk-ant-1234567890",
        OPENAI_API_KEY: "",
        GITHUB_TOKEN: "ghp_abcdefgh",
        SYNAPSE_HIDE_ENV: "GITHUB_TOKEN",
        PATH: "/bin",
      },
    });
    expect([...config.secrets].sort()).toEqual(["ghp_abcdefgh", "sk-ant-1234567890"]);
  });
});

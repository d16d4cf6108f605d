// `synapse sessions` through the compiled binary: this directory's sessions by default, --all for
// every directory (with the directory shown), and an unreadable store is an error, not "no sessions".

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { BINARY, providerEnv, runBinary, tempHome } from "../support/binary.ts";
import { writeSession } from "../support/session-fixture.ts";

const serve = fakeLLMPerTest();
let server: FakeLLM | undefined;

describe("synapse sessions", () => {
  test("lists this directory's sessions by default, every directory's with --all", async () => {
    const home = tempHome();
    const a = realpathSync(mkdtempSync(join(home.dir, "proj-a-")));
    const b = realpathSync(mkdtempSync(join(home.dir, "proj-b-")));
    server = await serve(() => ({ text: "ok" }));
    const env = { ...home.env, ...providerEnv(server.url) };
    expect((await runBinary({ args: ["first in a"], cwd: a, env })).code).toBe(0);
    expect((await runBinary({ args: ["second in b \x1b]0;pwned\x07"], cwd: b, env })).code).toBe(0);

    const here = await runBinary({ args: ["sessions"], cwd: a, env: home.env });
    expect(here.code).toBe(0);
    expect(here.stdout.split("\n")[0]).toMatch(/^ID\s+UPDATED\s+DIRECTORY\s+TITLE\s+MESSAGES\s+SIZE$/);
    expect(here.stdout).toContain("first in a");
    expect(here.stdout).not.toContain("second in b");
    expect(here.stdout).toContain(`~/${a.split("/").pop()}`);
    expect(here.stderr).toContain("1 more session in other directories: synapse sessions --all");

    const all = await runBinary({ args: ["sessions", "--all"], cwd: a, env: home.env });
    expect(all.code).toBe(0);
    expect(all.stdout).toContain("first in a");
    expect(all.stdout).toContain("second in b");
    expect(all.stdout).toContain(`~/${b.split("/").pop()}`);
    // A title holding an escape sequence is shown inert.
    expect(all.stdout).not.toContain("\x1b");
    expect(all.stdout).toContain("␛]0;pwned");
    expect(all.stderr).toBe("");

    const json = await runBinary({ args: ["sessions", "-o", "json"], cwd: b, env: home.env });
    expect(JSON.parse(json.stdout).map((s: any) => s.cwd)).toEqual([b]);
    const none = await runBinary({ args: ["sessions"], cwd: home.dir, env: home.env });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain(`no sessions for ${home.dir}`);
  });

  test("a listing larger than a pipe's buffer reaches a slow reader whole", async () => {
    const home = tempHome();
    for (let i = 0; i < 1500; i++) {
      writeSession(home.env.SYNAPSE_HOME!, {
        id: `20260103-${String(i).padStart(6, "0")}-c0ffee`,
        cwd: "/w",
        segments: 1,
        turnsPerSegment: 1,
        outputChars: 10,
      });
    }
    // The reader starts late, so the pipe (64 KiB) fills while synapse is still writing.
    const proc = Bun.spawn(["bash", "-c", `${BINARY} sessions --all | { sleep 0.3; cat; }`], {
      env: { ...home.env, PATH: process.env.PATH! },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    expect(out.length).toBeGreaterThan(65_536);
    expect(out.trimEnd().split("\n")).toHaveLength(1501);
  }, 60_000);

  test("an unreadable SYNAPSE_HOME is an error naming it, exit 1", async () => {
    const home = tempHome();
    const file = join(home.dir, "not-a-folder");
    writeFileSync(file, "x");
    const r = await runBinary({ args: ["sessions"], env: { ...home.env, SYNAPSE_HOME: file } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`cannot read the sessions in ${file}/sessions`);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("a store with no sessions folder yet is simply empty", async () => {
    const home = tempHome();
    mkdirSync(home.env.SYNAPSE_HOME!, { recursive: true });
    const r = await runBinary({ args: ["sessions", "--all"], env: home.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("no sessions in");
  });
});

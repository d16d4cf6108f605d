// `/rewind` in the executor against a real runtime and the fake server: the list and its picker
// choices, the three-way offer, and a rewind of code and conversation (files back, the prompt in
// the outcome's draft, the session reopened without it). The command's pure parts, table-driven.

import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/config.ts";
import { parseRewindArgs, pointLabel } from "../../src/executor/commands/rewind.ts";
import { type ExecutorEvent, createExecutor } from "../../src/executor/executor.ts";
import { restoreLines } from "../../src/executor/rewind-action.ts";
import { openRuntime } from "../../src/executor/session-runtime.ts";
import { type FakeLLM, startFakeLLM } from "../support/fake-llm.ts";

let fake: FakeLLM | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

describe("parseRewindArgs", () => {
  const cases: Array<[string, ReturnType<typeof parseRewindArgs>]> = [
    ["", { list: true }],
    ["2", { n: 2, mode: "all" }],
    ["2 ?", { n: 2, mode: "?" }],
    ["3 code", { n: 3, mode: "code" }],
    ["3 conversation", { n: 3, mode: "conversation" }],
    ["0", { error: '/rewind: "0" is not a prompt number (usage: /rewind [n [all|conversation|code]])' }],
    ["x", { error: '/rewind: "x" is not a prompt number (usage: /rewind [n [all|conversation|code]])' }],
    ["2 files", { error: '/rewind: unknown choice "files" (usage: /rewind [n [all|conversation|code]])' }],
    ["2 code now", { error: "/rewind: too many arguments (usage: /rewind [n [all|conversation|code]])" }],
  ];
  for (const [args, expected] of cases)
    test(JSON.stringify(args), () => expect(parseRewindArgs(args)).toEqual(expected));
});

describe("labels and restore lines", () => {
  test("a point's label: first line, cut, and its files", () => {
    const point = { id: "m", n: 4, text: "fix the\nparser please", ts: 0, files: 1, first: false };
    expect(pointLabel(point)).toBe("4. fix the parser please  (1 file changed since)");
    expect(pointLabel({ ...point, text: "x".repeat(80), files: 0 }, 10)).toBe(
      "4. xxxxxxxxx…  (no files changed since)",
    );
  });

  test("restore lines name each file relative to the workspace, and outside changes", () => {
    expect(restoreLines(undefined, "/w")).toEqual(["no file checkpoints for that prompt: files left as they are"]);
    const lines = restoreLines(
      [
        { path: "/w/a.txt", status: "restored", changedOutside: true, keptAs: "0".repeat(64) },
        { path: "/w/b.txt", status: "removed" },
        { path: "/elsewhere/c", status: "left alone", why: "it is a symbolic link now" },
        { path: "/w/d.txt", status: "restored", changedOutside: true },
      ],
      "/w",
    );
    expect(lines).toEqual([
      "files restored to before that prompt (commands' changes are not tracked):",
      "  a.txt: restored",
      "  b.txt: removed (the agent created it)",
      "  /elsewhere/c: left alone: it is a symbolic link now",
      "  d.txt: restored",
      "changed outside synapse since the agent's last write: a.txt (their content then is kept in the session's checkpoints)",
      "deleted outside synapse since the agent's last write: d.txt",
    ]);
  });
});

describe("/rewind through the executor", () => {
  test("lists, offers three choices, and rewinds code and conversation", async () => {
    fake = await startFakeLLM((req) => {
      const last = req.body.messages.at(-1);
      const text = last.content[0]?.text;
      if (text === "write it") return { toolCalls: [{ name: "Write", input: { path: "f.txt", content: "agent\n" } }] };
      return { text: "ok" };
    });
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "synapse-rewind-")));
    writeFileSync(join(dir, "f.txt"), "mine\n");
    const config = resolveConfig({
      flags: { permissionMode: "bypass" },
      env: {
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: fake.url,
        SYNAPSE_HOME: join(dir, "home"),
        SYNAPSE_RETRY_BASE_MS: "5",
        SYNAPSE_MEMORY_CHECK_INTERVAL_MS: "600000",
      },
      processCwd: dir,
      homeDir: dir,
    });
    const events: ExecutorEvent[] = [];
    const executor = await createExecutor({
      config,
      open: (sink, resume) => openRuntime({ config, resume, emit: sink }),
      emit: (e) => events.push(e),
    });
    const run = (text: string) => executor.waitFor(executor.submit({ text }));
    const output = () => events.filter((e) => e.type === "command_output").at(-1) as any;

    expect((await run("hello")).status).toBe("done");
    expect((await run("write it")).status).toBe("done");
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("agent\n");

    await run("/rewind");
    expect(output().choices.items.map((i: any) => [i.value, i.label])).toEqual([
      ["1 ?", "1. hello  (1 file changed since)"],
      ["2 ?", "2. write it  (1 file changed since)"],
    ]);
    await run("/checkpoint 2 ?");
    expect(output().choices.items.map((i: any) => i.value)).toEqual(["2 all", "2 conversation", "2 code"]);

    const sessionId = executor.runtime.sessionId;
    const outcome = await run("/rewind 2");
    expect(outcome.status).toBe("done");
    expect(outcome.draft).toBe("write it");
    expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("mine\n");
    // The same session, reopened: its window ends before the rewound prompt.
    expect(executor.runtime.sessionId).toBe(sessionId);
    const texts = executor.runtime.recent(50).map((m) => JSON.stringify(m.content));
    expect(texts.some((t) => t.includes("write it"))).toBe(false);
    expect(texts.some((t) => t.includes("hello"))).toBe(true);
    await executor.close();
    expect(existsSync(join(dir, "f.txt"))).toBe(true);
  }, 60_000);
});

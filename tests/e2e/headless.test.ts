// The compiled binary end to end against the fake LLM server: prompts, formats, exit codes.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { jsonLines, providerEnv, runBinary, spawnBinary, tempHome } from "../support/binary.ts";
import { untilCatching } from "../support/signal-ready.ts";

const serve = fakeLLMPerTest();

function lastUserText(body: any): string {
  const last = body.messages[body.messages.length - 1];
  if (typeof last.content === "string") return last.content;
  return last.content.map((b: any) => b.text ?? "").join("");
}

describe("prompt input", () => {
  test("a piped prompt is answered on stdout, nothing else there", async () => {
    const s = await serve([{ text: "Hello from the model." }]);
    const r = await runBinary({ stdin: "say hello\n", env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Hello from the model.\n");
    expect(lastUserText(s.requests[0]!.body)).toBe("say hello");
    expect(s.requests[0]!.body.stream).toBe(true);
  });

  test("prompt argument plus stdin: stdin is appended inside <stdin>", async () => {
    const s = await serve([{ text: "Looks fine." }]);
    const r = await runBinary({
      args: ["review this"],
      stdin: "diff --git a/x b/x\n+new line\n",
      env: providerEnv(s.url),
    });
    expect(r.code).toBe(0);
    expect(lastUserText(s.requests[0]!.body)).toBe("review this\n\n<stdin>\ndiff --git a/x b/x\n+new line\n</stdin>");
  });

  test("empty stdin and no argument is a usage error", async () => {
    const r = await runBinary({ stdin: "", env: providerEnv("http://127.0.0.1:9") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no prompt");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    const blank = await runBinary({ args: ["   "], stdin: " \n\t\n", env: providerEnv("http://127.0.0.1:9") });
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain("empty prompt");
  });

  test("no prompt at all is a usage error", async () => {
    const r = await runBinary({ env: providerEnv("http://127.0.0.1:9") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no prompt");
  });

  test("invalid UTF-8 on stdin is replaced, not fatal", async () => {
    const s = await serve([{ text: "got it" }]);
    const bytes = new Uint8Array([0x66, 0x69, 0x78, 0x20, 0xff, 0xfe, 0xc3, 0x28, 0x0a]);
    const r = await runBinary({ stdin: bytes, env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    expect(lastUserText(s.requests[0]!.body)).toContain("fix \uFFFD");
  });

  test("stdin over 10 MiB (10,485,760 bytes) is a usage error, not a crash", async () => {
    const r = await runBinary({ stdin: "x".repeat(10 * 1024 * 1024 + 1), env: providerEnv("http://127.0.0.1:9") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("larger than 10 MiB (10485760 bytes)");
  });
});

describe("command line", () => {
  test("--version and --help", async () => {
    const v = await runBinary({ args: ["--version"] });
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^synapse \d+\.\d+\.\d+\n$/);
    const h = await runBinary({ args: ["--help"] });
    expect(h.code).toBe(0);
    for (const flag of [
      "--model",
      "--output-format",
      "--continue",
      "--resume",
      "--cwd",
      "--max-turns",
      "--quiet",
      "--no-color",
    ]) {
      expect(h.stdout).toContain(flag);
    }
  });

  test("a bad flag is a one-line usage error with exit 2", async () => {
    const r = await runBinary({ args: ["--bogus", "hi"] });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--bogus");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("bad --output-format and --max-turns values exit 2", async () => {
    expect((await runBinary({ args: ["-o", "xml", "hi"] })).code).toBe(2);
    expect((await runBinary({ args: ["--max-turns", "0", "hi"] })).code).toBe(2);
  });

  test("no provider configured names the variables to set", async () => {
    const r = await runBinary({ args: ["hi"] });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("ANTHROPIC_API_KEY");
    expect(r.stderr).toContain("OPENAI_API_KEY");
  });

  test("-C into a missing directory exits 2", async () => {
    const r = await runBinary({ args: ["-C", "/no/such/dir", "hi"], env: providerEnv("http://127.0.0.1:9") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("/no/such/dir");
  });

  test("doctor: a worker thread of the sub-agents' task pool answers from inside the compiled binary", async () => {
    // The provider check makes a real request (tests/e2e/doctor.test.ts): give it a server.
    const s = await serve([]);
    const r = await runBinary({ args: ["doctor"], env: providerEnv(s.url) });
    // The real pool (task-pool.ts: started, a port round trip, done), not a separate thread pool.
    expect(r.stdout).toContain(
      "ok    worker threads: a worker thread of the sub-agent task pool answered over its message port",
    );
    expect(r.stdout).toContain("ok    bash");
    expect(r.stdout).toContain("ok    provider: anthropic/");
    expect(r.code).toBe(0);
  });

  test("the binary runs from any directory with no node_modules beside it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-copy-"));
    const copy = join(dir, "synapse");
    writeFileSync(copy, readFileSync(join(import.meta.dir, "../../dist/synapse")), { mode: 0o755 });
    const s = await serve([]);
    const proc = Bun.spawn([copy, "doctor"], {
      cwd: "/",
      env: { PATH: process.env.PATH!, ...tempHome().env, ...providerEnv(s.url) },
      stdout: "pipe",
    });
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(out).toContain("ok    worker threads");
  });
});

describe("output formats", () => {
  test("json prints one result object", async () => {
    const s = await serve([{ text: "The answer.", usage: { input_tokens: 11, output_tokens: 3 } }]);
    const r = await runBinary({ args: ["-o", "json", "q"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(1);
    const out = lines[0];
    expect(out).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "The answer.",
      num_turns: 1,
    });
    expect(out.usage).toEqual({
      input_tokens: 11,
      output_tokens: 3,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
    expect(typeof out.session_id).toBe("string");
    expect(typeof out.duration_ms).toBe("number");
    for (const key of ["shells_spawned", "shells_reused", "tasks_run", "messages_archived", "peak_heap_mb"])
      expect(out.stats).toHaveProperty(key);
  });

  test("stream-json: init first, assistant and user lines, result last", async () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-sj-"));
    writeFileSync(join(dir, "notes.txt"), "alpha\nbeta\n");
    const s = await serve([
      { toolCalls: [{ name: "Read", input: { path: "notes.txt" } }] },
      { text: "It has two lines." },
    ]);
    const r = await runBinary({ args: ["-o", "stream-json", "-C", dir, "count lines"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init", cwd: dir });
    expect(lines[0].tools).toContain("Read");
    const types = lines.map((l) => l.type);
    expect(types.at(-1)).toBe("result");
    const assistant = lines.filter((l) => l.type === "assistant");
    expect(assistant).toHaveLength(2);
    expect(assistant[0].message.content[0]).toMatchObject({ type: "tool_use", name: "Read" });
    const user = lines.find((l) => l.type === "user");
    expect(user.message.content[0].type).toBe("tool_result");
    expect(JSON.stringify(user.message.content[0].content)).toContain("beta");
    expect(lines.at(-1)).toMatchObject({ subtype: "success", result: "It has two lines.", num_turns: 2 });
    for (const l of lines) expect(l.session_id).toBe(lines[0].session_id);
  });

  test("text mode: tool activity on stderr, answer alone on stdout", async () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-txt-"));
    writeFileSync(join(dir, "a.txt"), "x\n");
    const s = await serve([
      { text: "Let me look.", toolCalls: [{ name: "Read", input: { path: "a.txt" } }] },
      { text: "Done." },
    ]);
    const r = await runBinary({ args: ["-C", dir, "look"], env: providerEnv(s.url) });
    expect(r.code).toBe(0);
    // As `claude -p` writes it: the final answer alone; the narration before a tool call is activity.
    expect(r.stdout).toBe("Done.\n");
    expect(r.stderr).toContain("Let me look.\n● Read(a.txt)");
    const quiet = await runBinary({
      args: ["-q", "-C", dir, "look"],
      env: providerEnv((await serve([{ text: "Done." }])).url),
    });
    expect(quiet.stderr).toBe("");
  });

  test("no colour codes when output is piped", async () => {
    const s = await serve([{ toolCalls: [{ name: "Glob", input: { pattern: "*" } }] }, { text: "ok" }]);
    const r = await runBinary({ args: ["go"], env: providerEnv(s.url) });
    expect(r.stdout + r.stderr).not.toContain("\x1b[");
  });
});

describe("bad input and hostile surroundings", () => {
  test("Ctrl-C while the prompt is still arriving runs nothing and exits 130", async () => {
    const s = await serve([{ toolCalls: [{ name: "Bash", input: { command: "echo RAN" } }] }, { text: "ran" }]);
    const proc = spawnBinary({ args: ["-o", "json"], stdin: "silent-pipe", env: providerEnv(s.url) });
    proc.stdin!.write("partial prompt\n");
    await untilCatching(proc.pid, "SIGINT"); // signals are trapped before stdin is read
    proc.kill("SIGINT");
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(code).toBe(130);
    expect(s.requests).toHaveLength(0);
    expect(out).toBe("");
    expect(err).toContain("nothing was run");
  });

  test("stdin that is a directory is a usage error", async () => {
    const proc = Bun.spawn(["bash", "-c", `"${join(import.meta.dir, "../../dist/synapse")}" hi < /tmp`], {
      env: { PATH: process.env.PATH!, ...tempHome().env, ...providerEnv("http://127.0.0.1:9") },
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(2);
    expect(await new Response(proc.stderr).text()).toContain("cannot read stdin: it is a directory");
  });

  test("an answer that cannot be written (full disk behind stdout) exits 1 and says so", async () => {
    const s = await serve([{ text: "an answer nobody will read" }]);
    const home = tempHome();
    const proc = Bun.spawn(["bash", "-c", `"${join(import.meta.dir, "../../dist/synapse")}" hi > /dev/full`], {
      env: { PATH: process.env.PATH!, ...home.env, ...providerEnv(s.url) },
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stderr).text()).toBe("synapse: cannot write the output: no space left on device\n");
  });

  test("stream-json into a reader that goes away exits 0 quietly, every time", async () => {
    const big = "y".repeat(400_000);
    const s = await serve(() => ({
      toolCalls: [{ name: "Bash", input: { command: `printf '%s\\n' ${"x".repeat(100)}{1..3000}` } }],
      text: big,
    }));
    for (let i = 0; i < 3; i++) {
      const proc = Bun.spawn(
        [
          "bash",
          "-c",
          `"${join(import.meta.dir, "../../dist/synapse")}" -q -o stream-json go | head -c 1000 >/dev/null; echo "\${PIPESTATUS[0]}"`,
        ],
        {
          env: { PATH: process.env.PATH!, ...tempHome().env, ...providerEnv(s.url) },
          stdout: "pipe",
          stderr: "pipe",
        },
      );
      const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      await proc.exited;
      expect(err).toBe("");
      expect(out.trim()).toBe("0");
    }
  });

  test.each([
    ["a FIFO", (dir: string) => (Bun.spawnSync(["mkfifo", join(dir, "pipe.png")]), "pipe.png"), "not a regular file"],
    ["/dev/zero", () => "/dev/zero", "not a regular file"],
    [
      "an image over the request budget",
      (dir: string) => (writeFileSync(join(dir, "big.png"), new Uint8Array(11 * 1024 * 1024)), "big.png"),
      "SYNAPSE_CONTEXT_MAX_IMAGE_BYTES",
    ],
  ])("--image with %s is refused at once", async (_name, make, message) => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-img-bad-"));
    const path = make(dir);
    const r = await runBinary({
      args: ["--image", path, "look"],
      cwd: dir,
      env: providerEnv("http://127.0.0.1:9"),
      timeoutMs: 10_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  test("a bad project config value is a usage error naming the file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-cfg-"));
    require("node:fs").mkdirSync(join(dir, ".synapse"));
    writeFileSync(join(dir, ".synapse", "config.json"), JSON.stringify({ maxTurns: "abc" }));
    const r = await runBinary({ args: ["hi"], cwd: dir, env: providerEnv("http://127.0.0.1:9") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(dir, ".synapse", "config.json"));
    expect(r.stderr).toContain("maxTurns");
  });
});

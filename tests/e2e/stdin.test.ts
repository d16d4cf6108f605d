// Piped stdin through the compiled binary: stdin that has started arriving is read to its end; a
// silent pipe is given up on after SYNAPSE_STDIN_WAIT_MS when there is a prompt argument, else
// waited for with one notice; `< /dev/null` runs at once, binary is refused.

import { describe, expect, test } from "bun:test";
import type { FakeLLM } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { BINARY, providerEnv, runBinary, spawnBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
let server: FakeLLM | undefined;

function lastUserText(body: any): string {
  const last = body.messages[body.messages.length - 1];
  return typeof last.content === "string" ? last.content : last.content.map((b: any) => b.text ?? "").join("");
}

/** Resolves with everything read once `needle` has appeared in the stream. */
async function readUntil(
  stream: ReadableStream<Uint8Array>,
  needle: string,
): Promise<{ seen: string; rest: Promise<string> }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  while (!seen.includes(needle)) {
    const r = await reader.read();
    if (r.done) throw new Error(`stream ended before "${needle}": ${seen}`);
    seen += decoder.decode(r.value, { stream: true });
  }
  const rest = (async () => {
    let more = "";
    for (let r = await reader.read(); !r.done; r = await reader.read())
      more += decoder.decode(r.value, { stream: true });
    return more;
  })();
  return { seen, rest };
}

describe("stdin that arrives late", () => {
  test("no prompt argument and a pipe silent at first: a notice, then the late data is the prompt", async () => {
    server = await serve([{ text: "reviewed" }]);
    const proc = spawnBinary({
      args: [],
      stdin: "silent-pipe",
      env: { ...providerEnv(server.url), SYNAPSE_STDIN_WAIT_MS: "50" },
    });
    const err = await readUntil(proc.stderr as ReadableStream<Uint8Array>, "waiting for stdin");
    expect(server.requests).toHaveLength(0);
    proc.stdin!.write("late data\n");
    proc.stdin!.end();
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    await err.rest;
    expect(code).toBe(0);
    expect(out).toBe("reviewed\n");
    expect(lastUserText(server.requests[0]!.body)).toBe("late data");
  });

  test("a prompt argument and an idle pipe: Claude Code's warning after SYNAPSE_STDIN_WAIT_MS, then the run goes on", async () => {
    server = await serve([{ text: "answered" }]);
    // The pipe stays open and silent for the whole run (a CI step's stdin): before, this hung.
    const r = await runBinary({
      args: ["question"],
      stdin: "silent-pipe",
      env: { ...providerEnv(server.url), SYNAPSE_STDIN_WAIT_MS: "50" },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("answered\n");
    expect(r.stderr).toContain(
      "synapse: warning: no stdin data received in 0.05s, proceeding without it. If piping from a slow command, " +
        "redirect stdin explicitly: < /dev/null to skip, or wait longer (SYNAPSE_STDIN_WAIT_MS).",
    );
    expect(lastUserText(server.requests[0]!.body)).toBe("question");
  });

  test("a prompt argument and stdin that has started arriving: read to its end, past the wait", async () => {
    server = await serve([{ text: "ok" }]);
    const proc = spawnBinary({
      args: ["summarise"],
      stdin: "silent-pipe",
      env: { ...providerEnv(server.url), SYNAPSE_STDIN_WAIT_MS: "50" },
    });
    // Written before the binary reads: the first byte is there long before the wait runs out.
    proc.stdin!.write("data\n");
    proc.stdin!.flush();
    // The rest comes well after the wait (a slow producer; this delay is the scenario).
    await Bun.sleep(300);
    proc.stdin!.write("more\n");
    proc.stdin!.end();
    const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(0);
    expect(err).not.toContain("no stdin data");
    expect(lastUserText(server.requests[0]!.body)).toBe("summarise\n\n<stdin>\ndata\nmore\n</stdin>");
  });

  test('the issue\'s case: `(sleep; echo data) | synapse "summarise"` answers with the data within the wait', async () => {
    server = await serve([{ text: "ok" }]);
    const home = tempHome();
    // The producer is slow on purpose (its sleep is the scenario, not a wait of the test's).
    const proc = Bun.spawn(["bash", "-c", `(sleep 0.3; echo data; sleep 0.1; echo more) | "${BINARY}" summarise`], {
      env: { PATH: process.env.PATH!, ...home.env, ...providerEnv(server.url), SYNAPSE_STDIN_WAIT_MS: "60000" },
      cwd: home.dir,
      stdout: "pipe",
      stderr: "pipe",
    });
    const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(0);
    expect(err).not.toContain("no stdin data");
    expect(lastUserText(server.requests[0]!.body)).toBe("summarise\n\n<stdin>\ndata\nmore\n</stdin>");
  });

  test("< /dev/null with a prompt argument runs at once, without a notice", async () => {
    server = await serve([{ text: "ok" }]);
    const r = await runBinary({ args: ["hi"], env: providerEnv(server.url) }); // runBinary gives /dev/null
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("waiting for stdin");
    expect(lastUserText(server.requests[0]!.body)).toBe("hi");
  });

  test("binary stdin is refused like a binary file (exit 2), nothing is sent", async () => {
    server = await serve([{ text: "never" }]);
    const bytes = new Uint8Array(1024 * 1024).map((_, i) => (i * 7919 + (i >> 8)) % 256);
    const r = await runBinary({ args: ["what is this"], stdin: bytes, env: providerEnv(server.url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("binary");
    expect(server.requests).toHaveLength(0);
  });
});

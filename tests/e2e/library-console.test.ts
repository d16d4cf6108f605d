// A library's own console writes during a run: the Anthropic SDK console.error()s an unreadable
// stream event's raw bytes. They come out as synapse's warnings (made inert: the bytes are the
// server's), never on stdout (the answer, or a program's protocol), and not at all with -q.

import { expect, test } from "bun:test";
import type { ScriptedReply } from "../support/fake-llm.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary } from "../support/binary.ts";

const serve = fakeLLMPerTest();
const ESC = "\u001b";

/** A stream whose second event is not JSON, and carries a terminal escape (a title change). */
const unreadable: ScriptedReply = {
  raw:
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant",' +
    '"model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n\n' +
    `event: content_block_start\ndata: {not json ${ESC}]0;pwned\u0007\n\n`,
  contentType: "text/event-stream",
};

async function run(args: string[]) {
  const s = await serve([unreadable]);
  return runBinary({ args, env: { ...providerEnv(s.url), SYNAPSE_MAX_RETRIES: "0" } });
}

test("text: the SDK's line is a warning, inert, on stderr; the run fails with its own error line", async () => {
  const r = await run(["hi"]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("warning: Could not parse message into JSON");
  expect(r.stderr).toContain("error: anthropic: unreadable response");
  expect(r.stderr).not.toContain(ESC);
});

test("-q leaves the library's noise out and keeps the error", async () => {
  const r = await run(["-q", "hi"]);
  expect(r.code).toBe(1);
  expect(r.stderr).not.toContain("Could not parse");
  expect(r.stderr).toContain("error: anthropic: unreadable response");
});

test("stream-json: stdout stays one JSON object per line, the SDK's words in a warning line", async () => {
  const r = await run(["-o", "stream-json", "hi"]);
  expect(r.code).toBe(1);
  const lines = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.some((l) => l.subtype === "warning" && String(l.message).includes("Could not parse"))).toBe(true);
  expect(lines.at(-1).type).toBe("result");
  expect(r.stderr).not.toContain("Could not parse");
});

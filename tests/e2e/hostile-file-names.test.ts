// A hostile repository's file names against the search filter: a name with a newline in it
// (`docs/a<newline>b.md`) printed a Grep line as two, and the filter, which reads each line's path,
// judged the second as `b.md`, outside the user's `--deny 'Read(docs/**)'`: the denied text
// reached the model (and Glob named it). Paths are now printed on one line (control characters as `?`).

import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";

const serve = fakeLLMPerTest();
const DENIED = "CANARY-DENIED-6b0e";

test("a file name with a newline cannot carry a denied file's lines past the Grep filter", async () => {
  const home = tempHome();
  const ws = join(home.dir, "ws");
  mkdirSync(join(ws, "docs"), { recursive: true });
  writeFileSync(join(ws, "docs", "a\nb.md"), `${DENIED}\n`);
  writeFileSync(join(ws, "notes.md"), "CANARY-OPEN\n");
  const grep = (output_mode: string) => ({
    toolCalls: [{ name: "Grep", input: { pattern: "CANARY", output_mode } }],
  });
  const glob = { toolCalls: [{ name: "Glob", input: { pattern: "**/*.md" } }] };
  const s = await serve([grep("content"), grep("count"), grep("files_with_matches"), glob, { text: "done" }]);
  const r = await runBinary({
    args: ["--deny", "Read(docs/**)", "-o", "stream-json", "go"],
    env: { ...home.env, ...providerEnv(s.url) },
    cwd: ws,
  });
  expect(r.code).toBe(0);
  const sent = JSON.stringify(s.requests.map((q) => q.body));
  expect(sent).toContain("CANARY-OPEN");
  expect(sent).toContain("a deny rule forbids reading those files");
  expect(sent).not.toContain(DENIED);
  expect(sent).not.toContain("b.md");
});

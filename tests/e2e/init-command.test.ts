// `/init` through the compiled binary: the model is asked to study the project and write AGENTS.md,
// its Write passes the permission gate like any other, and the next session reads the file.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initPrompt } from "../../src/executor/commands/init.ts";
import { providerEnv, runBinary, tempHome } from "../support/binary.ts";
import { fakeLLMPerTest } from "../support/fake-llm-per-test.ts";

const serve = fakeLLMPerTest();
const lastUserText = (body: any) =>
  JSON.stringify(body.messages.filter((m: any) => m.role === "user").at(-1)?.content ?? "");

test("/init sends the study-and-write prompt (with its focus), and the next session reads AGENTS.md", async () => {
  const ws = mkdtempSync(join(tmpdir(), "synapse-init-"));
  const home = tempHome();
  const agents = "# AGENTS.md\nRun `make check` before committing.\n";
  const fake = await serve([
    { toolCalls: [{ id: "w1", name: "Write", input: { path: "AGENTS.md", content: agents } }] },
    { text: "Wrote AGENTS.md." },
    { text: "noted" },
  ]);
  const env = { ...home.env, ...providerEnv(fake.url) };
  const r = await runBinary({ args: ["--permission-mode", "accept-edits", "/init the test commands"], env, cwd: ws });
  expect(r.code).toBe(0);
  expect(r.stdout.trim()).toBe("Wrote AGENTS.md.");
  expect(lastUserText(fake.requests[0]!.body)).toContain(JSON.stringify(initPrompt("the test commands")).slice(1, 80));
  expect(lastUserText(fake.requests[0]!.body)).toContain("Give particular attention to: the test commands");
  expect(readFileSync(join(ws, "AGENTS.md"), "utf8")).toBe(agents);
  // A later session carries it in its system prompt.
  const next = await runBinary({ args: ["hello"], env, cwd: ws });
  expect(next.code).toBe(0);
  expect(JSON.stringify(fake.requests.at(-1)!.body.system)).toContain("Run `make check` before committing.");
}, 30_000);

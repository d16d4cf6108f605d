// Running rg: records streamed as they come, rg stopped (not drained) once the consumer has enough,
// a consumer's exception returned as a rejection, exit codes and stderr kept.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { ripgrepAsset } from "../../src/tools/ripgrep-asset.ts";
import { runRipgrep } from "../../src/tools/ripgrep-process.ts";
import { tempDir, writeTree } from "./tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const rg = ripgrepAsset!.path;
const options = (onRecord: (r: Buffer) => boolean) => ({
  cwd: dir,
  signal: new AbortController().signal,
  timeoutMs: 60_000,
  env: {},
  onRecord,
});

test("stops rg at the consumer's cap: no record after it, exit code null", async () => {
  // 40 MB of matching lines: rg would print far more than the pipe holds before it is stopped.
  writeTree(dir, { "big.txt": "match\n".repeat(7_000_000) });
  const seen: string[] = [];
  const outcome = await runRipgrep(
    rg,
    ["--no-config", "match", "big.txt"],
    options((r) => (seen.push(r.toString()), seen.length < 10)),
  );
  expect(outcome).toEqual({ code: null, stderr: "", stopped: "enough" });
  expect(seen).toEqual(Array(10).fill("match"));
});

test("NUL-separated records, exit codes and stderr", async () => {
  writeTree(dir, { "a b.txt": "x", "c.txt": "x" });
  const files: string[] = [];
  const ok = await runRipgrep(rg, ["--no-config", "--files", "--null", "--sort", "path"], {
    ...options((r) => (files.push(r.toString()), true)),
    separator: 0,
  });
  expect(ok).toEqual({ code: 0, stderr: "", stopped: null });
  expect(files).toEqual(["a b.txt", "c.txt"]);
  const none = await runRipgrep(
    rg,
    ["--no-config", "zzz", "."],
    options(() => true),
  );
  expect(none.code).toBe(1);
  const bad = await runRipgrep(
    rg,
    ["--no-config", "(", "."],
    options(() => true),
  );
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("regex parse error");
});

test("a consumer that throws: the run rejects with its error and rg is stopped", async () => {
  writeTree(dir, { "a.txt": "x\n".repeat(1000) });
  const run = runRipgrep(
    rg,
    ["--no-config", "x", "a.txt"],
    options(() => {
      throw new Error("consumer broke");
    }),
  );
  await expect(run).rejects.toThrow("consumer broke");
});

test("an rg that cannot start rejects", async () => {
  await expect(
    runRipgrep(
      `${dir}/missing-rg`,
      [],
      options(() => true),
    ),
  ).rejects.toThrow(/ENOENT/);
});

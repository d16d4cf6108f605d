// The chunked line reader under the archive: chunk boundaries, multi-byte text, torn ends.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readLines } from "../../src/store/line-reader.ts";
import { removeTempHomes, tempHome } from "./helpers.ts";

afterAll(removeTempHomes);

async function collect(path: string, end?: number) {
  const out = [];
  for await (const line of readLines(path, end)) out.push(line);
  return out;
}

test("lines crossing 64 KiB chunk boundaries, multi-byte characters split across chunks", async () => {
  const path = join(tempHome(), "lines.jsonl");
  const lines = ["short", "é".repeat(40_000), "😀".repeat(50_000), "", "x".repeat(65_535), "y".repeat(65_536), "last"];
  writeFileSync(path, `${lines.join("\n")}\n`);
  const got = await collect(path);
  expect(got.map((l) => l.text)).toEqual(lines);
  expect(got.map((l) => l.no)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  expect(got.every((l) => l.terminated)).toBe(true);
});

test("an unterminated last line is reported as such, and `end` limits what is read", async () => {
  const path = join(tempHome(), "torn.jsonl");
  writeFileSync(path, "one\ntwo\nthr");
  const got = await collect(path);
  expect(got).toEqual([
    { text: "one", no: 1, terminated: true },
    { text: "two", no: 2, terminated: true },
    { text: "thr", no: 3, terminated: false },
  ]);
  expect((await collect(path, 8)).map((l) => l.text)).toEqual(["one", "two"]);
  writeFileSync(path, "");
  expect(await collect(path)).toEqual([]);
});

// Which session folders are litter of a run killed before its first message: table-driven.
import { expect, test } from "bun:test";
import { isAbandoned, UNLOCKED_LITTER_AGE_MS } from "../../src/store/abandoned-sessions.ts";

const OLD = UNLOCKED_LITTER_AGE_MS + 1;
const cases: Array<[string, string[], "absent" | "stale" | "held", number, boolean]> = [
  ["a dead run's lock alone", ["lock"], "stale", 0, true],
  ["a dead run's lock and a half-written meta", ["lock", "meta.json.4242.tmp"], "stale", 0, true],
  ["a take-over guard too", ["lock", "lock.guard"], "stale", 0, true],
  ["a live run's lock", ["lock"], "held", OLD, false],
  ["a live run's lock and temp file", ["lock", "meta.json.1.tmp"], "held", OLD, false],
  ["an archive: a real session", ["lock", "messages.jsonl"], "stale", OLD, false],
  ["images: a real session", ["lock", "images"], "stale", OLD, false],
  ["sub-agent transcripts", ["tasks"], "absent", OLD, false],
  ["an empty folder, just made (a run about to take its lock)", [], "absent", 0, false],
  ["an empty folder, long left", [], "absent", OLD, true],
  ["a temp file, no lock, young", ["meta.json.7.tmp"], "absent", 0, false],
];

for (const [name, names, lock, age, expected] of cases) {
  test(`${name}: ${expected ? "removed" : "kept"}`, () => {
    expect(isAbandoned(names, lock, age)).toBe(expected);
  });
}

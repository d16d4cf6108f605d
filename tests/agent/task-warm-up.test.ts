// When the streamed tool inputs of a turn ask the task pool to start its threads (pure).
import { describe, expect, test } from "bun:test";
import { KEEP_WARM_MS, taskWarmUp } from "../../src/agent/task-warm-up.ts";

type Delta = [index: number, name: string, json: string, at?: number];

/** The `warm` counts a turn's deltas cause. */
function warms(deltas: Delta[]): number[] {
  const seen: number[] = [];
  let clock = 0;
  const feed = taskWarmUp(
    (n) => seen.push(n),
    () => clock,
  );
  for (const [index, name, json, at] of deltas) {
    clock = at ?? clock;
    feed(index, name, json);
  }
  return seen;
}

const task = (index: number, at = 0): Delta[] => [
  [index, "Bash", '{"comm', at],
  [index, "Bash", '{"command": "tas', at],
  [index, "Bash", '{"command": "task:explore -p \\"look', at],
  [index, "Bash", '{"command": "task:explore -p \\"look at the parser', at],
];

describe("taskWarmUp", () => {
  const cases: Array<[string, Delta[], number[]]> = [
    ["a task call: once, as soon as its command shows it", task(0), [1]],
    ["two task calls: once each, with the count so far", [...task(0), ...task(1)], [1, 2]],
    ["a plain command: never", [[0, "Bash", '{"command": "ls -la"}']], []],
    ["another tool: never", [[0, "Read", '{"path": "task:x"}']], []],
    [
      "a command that only mentions task: later: never",
      [[0, "Bash", `{"command": "echo ${"x".repeat(250)} task:explore"}`]],
      [],
    ],
    ["whitespace around the JSON is allowed", [[0, "Bash", ' { "command" : " task:general -p x']], [1]],
    [
      "while its prompt streams: again every KEEP_WARM_MS, not more",
      [
        ...task(0, 0),
        [0, "Bash", '{"command": "task:explore -p \\"look at', KEEP_WARM_MS - 1],
        [0, "Bash", '{"command": "task:explore -p \\"look at it', KEEP_WARM_MS],
        [0, "Bash", '{"command": "task:explore -p \\"look at it all', KEEP_WARM_MS + 1],
        [0, "Bash", '{"command": "task:explore -p \\"look at it all now', 2 * KEEP_WARM_MS],
      ],
      [1, 1, 1],
    ],
  ];
  for (const [name, deltas, want] of cases) test(name, () => expect(warms(deltas)).toEqual(want));
});

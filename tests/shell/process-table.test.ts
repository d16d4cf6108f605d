// Which processes count as a shell session's members: pure over a process table snapshot.
import { describe, expect, test } from "bun:test";
import { type ProcessInfo, listProcesses, processStart, sessionMembers } from "../../src/shell/process-table.ts";

const proc = (pid: number, sid: number, start: number, extra: Partial<ProcessInfo> = {}): ProcessInfo => ({
  pid,
  pgid: pid,
  sid,
  start,
  zombie: false,
  ...extra,
});

describe("sessionMembers", () => {
  const ours = { sid: 100, start: 5 };
  test.each([
    [
      "the leader alive, same start: every live member",
      [proc(100, 100, 5), proc(101, 100, 7), proc(200, 200, 1)],
      [100, 101],
    ],
    [
      "the leader gone, members left (the id cannot be reused meanwhile): the members",
      [proc(101, 100, 7), proc(102, 100, 8)],
      [101, 102],
    ],
    [
      "the id reused by another process's session (a tmux server, say): none",
      [proc(100, 100, 9000), proc(103, 100, 9001)],
      [],
    ],
    ["zombies are not members", [proc(100, 100, 5), proc(101, 100, 7, { zombie: true })], [100]],
    ["an unknown start time (no /proc) is not taken for a reuse", [proc(100, 100, -1), proc(101, 100, 7)], [100, 101]],
  ] as const)("%s", (_name, table, pids) => {
    expect(sessionMembers(ours, [...table]).map((p) => p.pid)).toEqual([...pids]);
  });

  test("start times are read from /proc and match the table's", () => {
    const mine = listProcesses().find((p) => p.pid === process.pid);
    expect(mine).toBeDefined();
    expect(processStart(process.pid)).toBe(mine!.start);
    expect(mine!.start).toBeGreaterThan(0);
    expect(processStart(2 ** 30)).toBe(-1);
  });
});

// The command list under a `/name` being typed.

import { expect, test } from "bun:test";
import { menuRows, slashMenu } from "../../../src/cli/interactive/slash-menu.ts";

const commands = [
  { name: "help", aliases: ["?"], summary: "list the commands" },
  { name: "clear", aliases: ["new"], summary: "start a new session" },
  { name: "compact", summary: "condense the conversation" },
  { name: "cost", summary: "dollars and tokens" },
];

test("filters by name or alias as you type; nothing once a space follows or the name is whole", () => {
  const names = (draft: string) => slashMenu(draft, commands).map((c) => c.name);
  expect(names("/")).toEqual(["help", "clear", "compact", "cost"]);
  expect(names("/c")).toEqual(["clear", "compact", "cost"]);
  expect(names("/co")).toEqual(["compact", "cost"]);
  expect(names("/ne")).toEqual(["clear"]);
  expect(names("/cost")).toEqual([]);
  expect(names("/compact ")).toEqual([]);
  expect(names("/etc/hosts")).toEqual([]);
  expect(names("hello /c")).toEqual([]);
});

test("rows: the picked one marked, summaries in a column", () => {
  expect(menuRows(slashMenu("/co", commands), 1)).toEqual([
    "  /compact  condense the conversation",
    "❯ /cost     dollars and tokens",
  ]);
});

test("more commands than rows: the list scrolls to the picked one and says how many are not shown", () => {
  const many = Array.from({ length: 12 }, (_, i) => ({ name: `cmd${String(i).padStart(2, "0")}`, summary: `s${i}` }));
  const items = slashMenu("/", many);
  expect(items).toHaveLength(12);
  const first = menuRows(items, 0);
  expect(first).toHaveLength(9);
  expect(first[0]).toBe("❯ /cmd00  s0");
  expect(first[8]).toBe("  … 4 more (↑/↓)");
  const last = menuRows(items, 11);
  expect(last[0]).toBe("  /cmd04  s4");
  expect(last[7]).toBe("❯ /cmd11  s11");
  expect(menuRows(items, 5)[5]).toBe("❯ /cmd05  s5");
});

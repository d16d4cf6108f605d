// How the session calls the user back: bell, OSC 9, OSC 777, or nothing.

import { expect, test } from "bun:test";
import { longTurn, notification } from "../../../src/cli/interactive/notify.ts";

test("each kind writes its own bytes; the message cannot end or break out of the OSC string", () => {
  expect(notification("bell", "x")).toBe("\x07");
  expect(notification("off", "x")).toBe("");
  expect(notification("osc9", "synapse: allow Bash?")).toBe("\x1b]9;synapse: allow Bash?\x07");
  expect(notification("osc777", "done")).toBe("\x1b]777;notify;synapse;done\x07");
  expect(notification("osc9", "a\x07b\x1b]c;d\x9c")).toBe("\x1b]9;a b ]c d \x07");
});

test("a turn is long from SYNAPSE_NOTIFY_AFTER seconds on; 0 means every turn", () => {
  expect(longTurn(29_999, 30)).toBe(false);
  expect(longTurn(30_000, 30)).toBe(true);
  expect(longTurn(0, 0)).toBe(true);
});

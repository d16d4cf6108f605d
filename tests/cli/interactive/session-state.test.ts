// The interactive session's phases (session-state.ts): every phase × every event, and what each
// phase allows (keys and questions only before exit begins; drawing until the terminal is given back).

import { expect, test } from "bun:test";
import {
  type Phase,
  type PhaseEvent,
  SessionState,
  draws,
  nextPhase,
  takesInput,
} from "../../../src/cli/interactive/session-state.ts";

const TABLE: [Phase, PhaseEvent, Phase][] = [
  ["opening", "opened", "open"],
  ["opening", "leave", "leaving"], // Ctrl-D before the session has opened
  ["opening", "released", "opening"],
  ["opening", "failed", "closed"], // the session could not open
  ["open", "opened", "open"],
  ["open", "leave", "leaving"],
  ["open", "released", "open"],
  ["open", "failed", "closed"], // a crash
  ["leaving", "opened", "leaving"], // the session opened after exit began: it stays on its way out
  ["leaving", "leave", "leaving"],
  ["leaving", "released", "closed"],
  ["leaving", "failed", "closed"],
  ["closed", "opened", "closed"],
  ["closed", "leave", "closed"],
  ["closed", "released", "closed"],
  ["closed", "failed", "closed"],
];

test.each(TABLE)("%s + %s → %s", (phase, event, want) => {
  expect(nextPhase(phase, event)).toBe(want);
});

test.each([
  ["opening", true, true],
  ["open", true, true],
  ["leaving", false, true],
  ["closed", false, false],
] as const)("%s: takes input %p, draws %p", (phase, input, drawn) => {
  expect(takesInput(phase)).toBe(input);
  expect(draws(phase)).toBe(drawn);
});

test("an unknown event (a broken caller) fails loudly", () => {
  expect(() => nextPhase("open", "explode" as PhaseEvent)).toThrow(/unhandled session event/);
});

test("SessionState walks the usual life: opening → open → leaving → closed", () => {
  const s = new SessionState();
  expect([s.phase, s.takesInput, s.draws]).toEqual(["opening", true, true]);
  expect(s.on("opened")).toBe("open");
  expect(s.on("leave")).toBe("leaving");
  expect([s.takesInput, s.draws]).toEqual([false, true]);
  expect(s.on("released")).toBe("closed");
  expect(s.draws).toBe(false);
});

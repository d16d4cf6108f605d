// The text the model gets when the user says no with a reason: the reason ends as a sentence, so the
// advice after it never runs on ("use rg instead Do not retry").

import { expect, test } from "bun:test";
import { refusalMessage } from "../../src/policy/gate.ts";

test.each([
  ["", "The user refused this call. Do not retry it as is."],
  ["   ", "The user refused this call. Do not retry it as is."],
  ["use rg instead", "The user refused this call: use rg instead. Do not retry it as is."],
  ["use rg instead.", "The user refused this call: use rg instead. Do not retry it as is."],
  ["why?", "The user refused this call: why? Do not retry it as is."],
  ['say "stop!"', 'The user refused this call: say "stop!" Do not retry it as is.'],
  ["(not now)", "The user refused this call: (not now). Do not retry it as is."],
])("%p", (reason, message) => {
  expect(refusalMessage(reason)).toBe(message);
});

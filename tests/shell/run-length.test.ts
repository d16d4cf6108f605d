// Collapsing repeated lines, against Roo-Code's applyRunLengthEncoding vectors.

import { describe, expect, test } from "bun:test";
import { applyRunLengthEncoding, RunLengthEncoder } from "../../src/shell/run-length.ts";
import { expectedOf, inputOf, label, loadVectors } from "./vectors.ts";

describe("applyRunLengthEncoding (Roo-Code vectors)", () => {
  for (const file of ["applyRunLengthEncoding.json", "derived/applyRunLengthEncoding.derived.json"]) {
    loadVectors(file).forEach((v, i) => {
      test(`${file} ${label(v, i)}`, () => expect(applyRunLengthEncoding(inputOf(v))).toBe(expectedOf(v)));
    });
  }
});

describe("RunLengthEncoder", () => {
  test("a fragment ends the run before it and is passed on as is", () => {
    let out = "";
    const enc = new RunLengthEncoder((t) => (out += t));
    for (let i = 0; i < 10; i++) enc.pushLine("repeated line here\n");
    enc.pushFragment("piece of a long line");
    enc.pushLine(" and its end\n");
    enc.end();
    expect(out).toBe(
      "repeated line here\n<previous line repeated 9 additional times>\npiece of a long line and its end\n",
    );
  });

  test("a million identical lines take constant memory and one marker", () => {
    let out = "";
    const enc = new RunLengthEncoder((t) => (out += t));
    for (let i = 0; i < 1_000_000; i++) enc.pushLine("y\n");
    enc.end();
    expect(out).toBe("y\n<previous line repeated 999999 additional times>\n");
  });
});

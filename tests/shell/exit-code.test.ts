// Exit status interpretation, checked against Roo-Code's interpretExitCode vectors.

import { describe, expect, test } from "bun:test";
import { exitCodeForSignal, interpretExitCode, signalNameForExit } from "../../src/shell/exit-code.ts";
import { haveVectors, label, loadVectors, undef } from "./vectors.ts";

describe("interpretExitCode (Roo-Code vectors)", () => {
  const vectors = loadVectors("interpretExitCode.json");
  test.skipIf(!haveVectors)("the vector file is there", () => expect(vectors.length).toBe(34));
  vectors.forEach((v, i) => {
    test(label(v, i), () => {
      const got = interpretExitCode(undef(v.input));
      if (v.property) {
        expect((got as any)[v.property]).toEqual(v.value);
      } else {
        const expected = { ...v.expected, exitCode: undef(v.expected.exitCode) };
        expect(got).toEqual(expected);
        expect(Object.keys(got)).toEqual(Object.keys(v.expected));
      }
    });
  });
});

describe("signal names", () => {
  test.each([
    [130, "SIGINT"],
    [137, "SIGKILL"],
    [143, "SIGTERM"],
    [139, "SIGSEGV"],
    [141, "SIGPIPE"],
    [162, "SIGRTMIN"],
    [192, "SIGRTMAX"],
    [0, undefined],
    [1, undefined],
    [128, undefined],
    [227, undefined],
    [null, undefined],
  ])("%p → %p", (code, name) => {
    expect(signalNameForExit(code)).toBe(name);
  });

  test.each([
    ["SIGKILL", 137],
    ["SIGTERM", 143],
    [9, 137],
    ["SIGNOPE", undefined],
  ])("%p is reported as status %p", (signal, code) => {
    expect(exitCodeForSignal(signal)).toBe(code);
  });
});

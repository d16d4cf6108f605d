// What every suite that talks to the fake server did by hand: start a fake for a test, and stop
// every fake the test started once the test ends, pass or fail.

import { afterEach } from "bun:test";
import { type FakeLLM, startFakeLLM } from "./fake-llm.ts";

type Script = Parameters<typeof startFakeLLM>[0];
type Options = Parameters<typeof startFakeLLM>[1];

/** Call once at a suite's top level; the returned `serve(script)` starts a fake for the running test. */
export function fakeLLMPerTest(): (script: Script, options?: Options) => Promise<FakeLLM> {
  const started: FakeLLM[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((fake) => fake.stop()));
  });
  return async (script, options) => {
    const fake = await startFakeLLM(script, options);
    started.push(fake);
    return fake;
  };
}

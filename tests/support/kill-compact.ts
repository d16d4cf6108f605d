// Kills a running `synapse compact --all` with SIGKILL at a chosen moment, for the crash-safety tests.
import { expect } from "bun:test";
import { spawnBinary } from "./binary.ts";

/** Starts `synapse compact --all`, kills it with SIGKILL as soon as `moment()` holds, and waits for it. */
export async function killCompactWhen(env: Record<string, string>, moment: () => boolean): Promise<void> {
  const proc = spawnBinary({ args: ["compact", "--all"], env });
  let exited = false;
  proc.exited.then(() => (exited = true));
  while (!moment() && !exited) await Bun.sleep(1);
  proc.kill("SIGKILL");
  const code = await proc.exited;
  // Had it finished before the moment came, the test would prove nothing.
  expect(code).not.toBe(0);
}

// A trivial worker for `synapse doctor`: proves the sub-agent task pool's threads start from inside
// the compiled binary and speak its protocol (`started` first, one message answered on the port,
// `done` last), just as a sub-agent's worker does.
import type { MessagePort } from "node:worker_threads";

export default async function ping(input: {
  n: number;
  port: MessagePort;
}): Promise<{ pong: number; thread: boolean }> {
  const { isMainThread } = require("node:worker_threads");
  const { port } = input;
  port.postMessage({ t: "started" });
  // A round trip over the task's port: the main thread answers `echo` with the same number.
  const echoed = await new Promise<number>((resolve) => {
    port.once("message", (m: { n: number }) => resolve(m.n));
    port.postMessage({ t: "echo", n: input.n });
  });
  port.postMessage({ t: "done" });
  return { pong: echoed * 2, thread: !isMainThread };
}

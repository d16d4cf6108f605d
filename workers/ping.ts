// A trivial worker: proves worker threads start from inside the compiled binary.
export default function ping(input: { n: number }): { pong: number; thread: boolean } {
  const { isMainThread } = require("node:worker_threads");
  return { pong: input.n * 2, thread: !isMainThread };
}

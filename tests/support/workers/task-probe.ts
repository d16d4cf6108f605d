// A worker for task-pool tests: sleeps, throws, grows its heap, hangs, is held until released, or
// talks on its port.
import type { MessagePort } from "node:worker_threads";
import { runtime } from "../../../src/runtime/runtime.ts";

export interface ProbeInput {
  mode: "sleep" | "throw" | "grow" | "hang" | "hang-stoppable" | "held" | "ask" | "burst" | "bad-heap";
  ms?: number;
  port: MessagePort;
}

export default async function probe(input: ProbeInput | { warmUp: true }): Promise<unknown> {
  // A warm-up (TaskPool.warm): answered at once, with no port.
  if ("warmUp" in input) return null;
  input.port.postMessage({ t: "started" });
  try {
    return await work(input);
  } finally {
    input.port.postMessage({ t: "done" });
  }
}

async function work(input: ProbeInput): Promise<unknown> {
  const { port } = input;
  switch (input.mode) {
    case "sleep":
      await new Promise((r) => setTimeout(r, input.ms ?? 0));
      return { slept: input.ms };
    case "throw":
      throw new Error("probe exploded");
    case "grow": {
      const heapSize = await runtime.threadHeapBytes();
      // Grows by 16 MB at a time, reporting its heap after each step as the sub-agent worker does.
      const hoard: Uint8Array[] = [];
      for (let i = 0; i < 400; i++) {
        const chunk = new Array(2 * 1024 * 1024).fill(i);
        hoard.push(chunk as any);
        port.postMessage({ t: "heap", bytes: heapSize() });
        await new Promise((r) => setTimeout(r, 5));
      }
      return { grew: hoard.length };
    }
    case "hang":
      return new Promise(() => {});
    case "bad-heap":
      // A heap report the pool cannot read, then nothing: the pool must end the task itself.
      port.postMessage({ t: "heap", bytes: "a lot" });
      return new Promise(() => {});
    case "hang-stoppable":
      return new Promise((resolve) => port.on("message", (m: any) => m?.t === "abort" && resolve({ stopped: true })));
    case "held":
      // Says it holds its slot, and returns when the test says so.
      return new Promise((resolve) => {
        port.on("message", (m: any) => m?.t === "release" && resolve({ released: true }));
        port.postMessage({ t: "holding" });
      });
    case "burst":
      // Posts its last messages and returns at once: the result must not overtake them.
      for (let i = 0; i < (input.ms ?? 100); i++) port.postMessage({ t: "n", i });
      return { posted: input.ms };
    case "ask":
      return new Promise((resolve) => {
        port.on("message", (m: any) => resolve({ answer: m }));
        port.postMessage({ t: "question", n: 21 });
      });
  }
}

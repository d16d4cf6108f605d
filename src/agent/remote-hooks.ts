// A sub-agent's tool calls are hooked too: the session's hooks live in the main thread (their
// sources, approvals and sandbox), so inside a worker PreToolUse and PostToolUse are questions
// sent over the task's port, and the main thread runs the hooks and answers.

import type { MessagePort } from "node:worker_threads";
import type { ToolHooks } from "../hooks/index.ts";
import { type FromWorker, readToWorker, type ToWorker } from "./sub-agent-protocol.ts";

type HookAnswer = Extract<ToWorker, { t: "hook-done" }>;
type HookQuestion = Extract<FromWorker, { t: "hook" }>;

/** The worker's side: each event a message to the main thread, answered by `hook-done`. */
export function remoteToolHooks(post: (m: FromWorker) => void, port: MessagePort): ToolHooks {
  let next = 0;
  const pending = new Map<number, (answer: HookAnswer) => void>();
  port.on("message", (raw: unknown) => {
    let m: ToWorker;
    try {
      m = readToWorker(raw);
    } catch {
      return; // the shell's listener reports malformed answers; a hook question then stays open until abort
    }
    if (m.t !== "hook-done") return;
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  const ask = (question: Omit<HookQuestion, "t" | "id">, signal: AbortSignal) =>
    new Promise<HookAnswer>((resolve) => {
      const id = next++;
      // Interrupted: no hook verdict (the call is being abandoned anyway).
      const onAbort = () => resolve({ t: "hook-done", id, allow: false });
      signal.addEventListener("abort", onAbort, { once: true });
      pending.set(id, (answer) => {
        signal.removeEventListener("abort", onAbort);
        resolve(answer);
      });
      post({ t: "hook", id, ...question });
    });
  return {
    async preToolUse(call, signal) {
      const { allow, block, ask: asks, updatedInput, stop } = await ask({ when: "pre", call }, signal);
      return {
        allow,
        ...(stop ? { stop } : {}),
        ...(block ? { block } : {}),
        ...(asks !== undefined ? { ask: asks } : {}),
        ...(updatedInput ? { updatedInput } : {}),
      };
    },
    async postToolUse(call, response, signal) {
      const { context, stop } = await ask({ when: "post", call, response }, signal);
      return { ...(context ? { context } : {}), ...(stop ? { stop } : {}) };
    },
  };
}

/** The main thread's side: runs the session's hooks for one question and replies. */
export function answerHookQuestion(
  hooks: ToolHooks,
  m: HookQuestion,
  signal: AbortSignal,
  reply: (m: ToWorker) => void,
): void {
  const call = { id: m.call.id, name: m.call.name, input: m.call.input };
  // The whole verdict crosses: a hook's "ask" must reach the sub-agent's gate (which cannot ask,
  // so it refuses), and its rewritten input must be what the sub-agent's gate judges and runs.
  const answered: Promise<Omit<HookAnswer, "t" | "id">> =
    m.when === "pre"
      ? hooks.preToolUse(call, signal)
      : hooks.postToolUse(call, m.response, signal).then((v) => ({ allow: false, ...v }));
  answered.then(
    (answer) => reply({ t: "hook-done", id: m.id, ...answer }),
    () => reply({ t: "hook-done", id: m.id, allow: false }),
  );
}

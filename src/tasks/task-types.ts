// The task pool's contract: how a task ends, what a run is given, what the pool offers.

export type TaskFailure = {
  ok: false;
  reason: "timeout" | "out_of_memory" | "interrupted" | "crashed";
  message: string;
};

export type TaskEnd<O> = { ok: true; value: O } | TaskFailure;

export interface TaskRunOptions {
  signal: AbortSignal;
  /**
   * Messages from the worker (not yet checked: parse them), with a way to answer on the same port.
   * A throw ends the task as crashed, with the error's message.
   */
  // biome-ignore lint/suspicious/noExplicitAny: unchecked on arrival; each receiver parses it
  onMessage(message: any, reply: (message: unknown) => void): void;
  /** The worker began (left the queue). */
  onStart?(): void;
}

export interface TaskPool {
  /** Runs one task; never throws: every way a task can end is a TaskEnd. */
  run<I extends object, O>(input: I, opts: TaskRunOptions): Promise<TaskEnd<O>>;
  /** How many tasks are running in threads right now, and the most ever seen. */
  inFlight(): { now: number; max: number };
  /**
   * Makes sure `count` threads (at most the pool's size) are started or starting, ahead of the
   * tasks that will need them, by running `input` in each: a task the worker answers at once.
   * Never throws.
   */
  warm(count: number, input: object): void;
  destroy(): Promise<void>;
}

// The pool's own slots rather than tinypool's queue: after a terminated worker (timeout, heap cap)
// tinypool with minThreads 0 starts no new thread for the tasks it queued, so they would hang. Here
// a queued task starts as soon as any slot frees, and one cancelled while it waits leaves the queue.

export class TaskSlots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  /** Resolves true once a slot is this task's, false if `signal` fired while it waited. */
  acquire(signal: AbortSignal): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      if (this.busy < this.size) {
        this.busy++;
        return resolve(true);
      }
      const go = () => {
        signal.removeEventListener("abort", drop);
        this.busy++;
        resolve(true);
      };
      const drop = () => {
        this.waiting.splice(this.waiting.indexOf(go), 1);
        resolve(false);
      };
      this.waiting.push(go);
      signal.addEventListener("abort", drop, { once: true });
    });
  }

  release(): void {
    this.busy--;
    this.waiting.shift()?.();
  }
}

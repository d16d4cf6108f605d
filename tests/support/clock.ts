// Waiting for the wall clock to move on, for tests whose order is decided by millisecond timestamps.

/** Returns once Date.now() has passed the millisecond it was called in (at most about 1 ms). */
export function nextMillisecond(): void {
  const start = Date.now();
  while (Date.now() <= start) {
    // Spinning: this ends on the clock's next tick, which no timer could promise to wait for exactly.
  }
}

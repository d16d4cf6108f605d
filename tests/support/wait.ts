// Waiting, in tests, for something no event announces (another process's death, a line in `ps`):
// polled, and on failure a message saying what was awaited and what was last seen, instead of a
// silent hang until the test's own timeout. The deadline only bounds a failing test; how soon the
// condition comes true is never what a test asserts.

/** By default well inside a test's own timeout, so the message is what the runner reports. */
const WAIT_MS = 15_000;

export interface PollOptions {
  timeoutMs?: number;
  everyMs?: number;
  /** What was last seen, for the failure message. */
  seen?: () => unknown;
}

/** Resolves once `check` holds; rejects after `timeoutMs` naming `what` and what `seen` returns. */
export async function pollUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  options: PollOptions = {},
): Promise<void> {
  const { timeoutMs = WAIT_MS, everyMs = 20, seen } = options;
  const end = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > end) {
      const last = seen ? `; last seen: ${JSON.stringify(await seen())}` : "";
      throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

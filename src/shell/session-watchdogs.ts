// The shell pool's watchdogs, one per shell session (see watchdog.ts): started with the shell,
// stopped once the session is empty, and stopped last when the pool closes, so that the sessions
// stay guarded should synapse die while they are being killed.

import { startWatchdog, type Watchdog } from "./watchdog.ts";

export class SessionWatchdogs {
  private readonly bySession = new Map<number, Watchdog>();

  /** `env` is the shells' own (no keys). */
  constructor(private readonly env: Readonly<Record<string, string>>) {}

  /**
   * Starts the watchdog of the session led by `sid` (`scriptPath` holds WATCHDOG_SCRIPT). One that
   * fails to start leaves the shell unguarded, not unusable.
   */
  guard(scriptPath: string, sid: number): void {
    let watchdog: Watchdog;
    try {
      watchdog = startWatchdog(scriptPath, sid, this.env);
    } catch {
      return;
    }
    this.bySession.set(sid, watchdog);
    watchdog.exited.then(() => {
      if (this.bySession.get(sid) === watchdog) this.bySession.delete(sid);
    });
  }

  /** For a session that has surely ended. */
  stop(sid: number): void {
    this.bySession.get(sid)?.stop();
  }

  /** All of them, at once: for a process 'exit' handler, which cannot wait. */
  stopAllNow(): void {
    for (const watchdog of this.bySession.values()) watchdog.stop();
  }

  /** All of them, resolved once each has exited. */
  async stopAll(): Promise<void> {
    const watchdogs = [...this.bySession.values()];
    for (const watchdog of watchdogs) watchdog.stop();
    await Promise.all(watchdogs.map((w) => w.exited));
  }
}

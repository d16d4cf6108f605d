// Where a start's time goes, for whoever makes it faster (bench/startup.ts prints it): with
// SYNAPSE_STARTUP_TRACE=1 each phase's end is recorded — wall clock in epoch milliseconds (a
// harness subtracts its own spawn time) and the process's CPU time — up to the first request's
// fetch, and written to stderr as the process exits. Off, a mark is one comparison.

const on = process.env.SYNAPSE_STARTUP_TRACE === "1";
const marks: string[] = [];
let done = !on;

/** The end of a start-up phase; `last` closes the trace (the first request's fetch). */
export function startupMark(phase: string, last = false): void {
  if (done) return;
  const cpu = process.cpuUsage();
  const wall = performance.timeOrigin + performance.now();
  marks.push(`synapse-startup ${phase} ${wall.toFixed(2)} ${((cpu.user + cpu.system) / 1000).toFixed(2)}\n`);
  if (last) done = true;
}

/** The trace's lines (`synapse-startup <phase> <epoch ms> <cpu ms>`), or "" when not tracing. */
export const startupTrace = (): string => marks.join("");

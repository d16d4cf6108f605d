// Sees a turn's tool calls as they stream and says when `task:*` calls are coming, so the task pool
// can start its threads while the model is still writing the prompts (a thread's start is 40-140 ms
// that the first sub-agent would otherwise wait). Pure: fed the streamed inputs, calls `warm`.

/** How far into a Bash call's input its command starts, at the latest (`{"command": "task:`). */
const DECIDE_WITHIN = 200;
/** While task calls stream, `warm` is called again this often: a warmed thread that ended idle is started again. */
export const KEEP_WARM_MS = 500;

const TASK_COMMAND = /^\s*\{\s*"command"\s*:\s*"\s*task:/;

/**
 * A stream callback (`StreamCallbacks.onToolInput`) that calls `warm(n)` with the number of task
 * calls seen so far: when another is seen, and at most every KEEP_WARM_MS while the turn streams.
 */
export function taskWarmUp(
  warm: (count: number) => void,
  now: () => number = () => performance.now(),
): (index: number, name: string, json: string) => void {
  // Each call's verdict once known: a task call or not.
  const verdicts = new Map<number, boolean>();
  let tasks = 0;
  let warmedAt = Number.NEGATIVE_INFINITY;
  let warmedFor = 0;
  return (index, name, json) => {
    let isTask = verdicts.get(index);
    if (isTask === undefined) {
      if (name !== "Bash") isTask = false;
      else if (TASK_COMMAND.test(json)) isTask = true;
      else if (json.length > DECIDE_WITHIN) isTask = false;
      else return;
      verdicts.set(index, isTask);
      if (isTask) tasks++;
    }
    if (!isTask) return;
    const t = now();
    if (tasks === warmedFor && t - warmedAt < KEEP_WARM_MS) return;
    warmedAt = t;
    warmedFor = tasks;
    warm(tasks);
  };
}

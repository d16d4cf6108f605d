// On a redrawn screen a library's own console write (the Anthropic SDK's deprecation notice) lands
// in the middle of the live rows and tears the prompt and status line apart (the prompt row then
// shows the warning as if typed). While the session draws, console output becomes dim lines in the
// transcript instead: each distinct message once (runtime/console-route.ts), with no control
// character in it.

import { inertLine } from "../../render/inert.ts";
import { routeConsole } from "../../runtime/console-route.ts";

/** Routes console output to `show` (one call per new message, its lines); returns the undo. */
export function captureConsole(show: (lines: string[]) => void): () => void {
  return routeConsole((text) => show(text.split("\n").map(inertLine)));
}

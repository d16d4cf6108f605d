// Our side of the control protocol's requests to the SDK program (can_use_tool, hook_callback,
// mcp_message): each written as a `control_request` line with an id of ours, answered by the
// `control_response` that echoes it. A program that goes away (stdin ends) answers every request
// still open with an error, so nothing waits for it forever.

import type { ControlResponseLine } from "./sdk-lines.ts";

export type ControlAnswer = { ok: true; response: Record<string, unknown> } | { ok: false; error: string };

export interface ControlChannel {
  /** Sends a request; resolves with its answer (never rejects). `signal` withdraws it (control_cancel_request). */
  request(body: { subtype: string } & Record<string, unknown>, signal?: AbortSignal): Promise<ControlAnswer>;
  /** A `control_response` line read from stdin; false when it answers nothing we asked. */
  answer(line: ControlResponseLine): boolean;
  /** stdin ended: every open request gets an error answer. */
  close(reason: string): void;
}

export function createControlChannel(write: (line: object) => void): ControlChannel {
  const open = new Map<string, (answer: ControlAnswer) => void>();
  let next = 0;
  let closed: string | undefined;
  return {
    request(body, signal) {
      if (closed !== undefined) return Promise.resolve({ ok: false, error: closed });
      const id = `synapse-${++next}`;
      return new Promise<ControlAnswer>((resolve) => {
        const finish = (answer: ControlAnswer) => {
          open.delete(id);
          signal?.removeEventListener("abort", onAbort);
          resolve(answer);
        };
        const onAbort = () => {
          if (!open.has(id)) return;
          write({ type: "control_cancel_request", request_id: id });
          finish({ ok: false, error: "withdrawn" });
        };
        open.set(id, finish);
        if (signal?.aborted) return onAbort();
        signal?.addEventListener("abort", onAbort, { once: true });
        write({ type: "control_request", request_id: id, request: body });
      });
    },
    answer(line) {
      const finish = open.get(line.response.request_id);
      if (!finish) return false;
      const r = line.response;
      finish(r.subtype === "success" ? { ok: true, response: r.response ?? {} } : { ok: false, error: r.error });
      return true;
    },
    close(reason) {
      closed = reason;
      for (const finish of [...open.values()]) finish({ ok: false, error: reason });
    },
  };
}

// The session the executor is driving now, and the model choice that outlives a switch: /clear and
// /resume replace the runtime, a model picked with /model stays picked for the rest of the process.

import type { AgentEvent } from "../protocol/events.ts";
import type { ResumeTarget } from "../store/session.ts";
import type { SessionRuntime } from "./session-runtime.ts";

export type OpenRuntime = (emit: (event: AgentEvent) => void, resume?: ResumeTarget) => Promise<SessionRuntime>;

export class LiveSession {
  /** /model may always go back to this, whether or not the provider's list names it. */
  readonly startModel: string;
  /** The model picked with /model in this process, if any. */
  private chosenModel: string | undefined;

  private constructor(
    public runtime: SessionRuntime,
    private readonly open: OpenRuntime,
    private readonly sink: (event: AgentEvent) => void,
  ) {
    this.startModel = runtime.model;
  }

  static async start(open: OpenRuntime, sink: (event: AgentEvent) => void, resume?: ResumeTarget) {
    return new LiveSession(await open(sink, resume), open, sink);
  }

  setModel(model: string): void {
    this.runtime.setModel(model);
    this.chosenModel = this.runtime.model;
  }

  /**
   * Closes this session and opens it again (`/rewind` changed its conversation on disk), on the
   * model and in the permission mode (Shift+Tab's) it was using, with the rules granted for the
   * session and no second SessionStart: what the executor then holds is what a resume reads.
   */
  async reopen(): Promise<void> {
    const { sessionId, model, permissionMode } = this.runtime;
    const carried = this.runtime.carried();
    await this.runtime.close();
    this.runtime = await this.open(this.sink, { id: sessionId });
    this.runtime.carryOn(carried);
    if (this.runtime.model !== model) this.runtime.setModel(model);
    if (this.runtime.permissionMode !== permissionMode) this.runtime.setPermissionMode(permissionMode);
  }

  /**
   * Opens the next session before giving up this one: a failure leaves the old in place. Returns the
   * previous runtime, still open, for the caller to close once it has taken the new one in.
   */
  async switchTo(resume: ResumeTarget | undefined): Promise<SessionRuntime> {
    const next = await this.open(this.sink, resume);
    const previous = this.runtime;
    // /clear keeps the model in use. /resume opens the session on the model it recorded (or -m's),
    // unless one was picked with /model here: that stays chosen.
    const carry = resume ? this.chosenModel : previous.model;
    if (carry && next.model !== carry) {
      try {
        next.setModel(carry);
      } catch (err) {
        await next.close();
        throw err;
      }
    }
    // /clear begins the conversation again: SessionStart says so (Claude Code's source `clear`).
    if (!resume) next.carryOn({ granted: [], start: { source: "clear", fired: false } });
    this.runtime = next;
    return previous;
  }
}

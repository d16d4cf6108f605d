// The session's first prompt (its task), which a context without a compaction record starts from:
// the first message appended, or read once from the archive on resume.

import type { Message } from "../protocol/message.ts";
import type { SessionStore } from "../store/types.ts";

export class FirstPrompt {
  private task: Message | undefined;
  private loaded = false;

  constructor(private readonly store: SessionStore) {}

  /** A message just appended: it is the first prompt when it is the session's first message. */
  note(message: Message): void {
    if (!this.loaded && this.store.window()[0] === message && (this.store.messageCount?.() ?? 1) <= 1) {
      this.task = message;
      this.loaded = true;
    }
  }

  async load(): Promise<Message | undefined> {
    if (this.loaded) return this.task;
    const window = this.store.window();
    const total = this.store.messageCount?.();
    if (total !== undefined && total <= window.length) {
      this.task = window[0];
    } else {
      // Streams the archive only to its first message.
      for await (const message of this.store.readAll()) {
        this.task = message;
        break;
      }
    }
    this.loaded = true;
    return this.task;
  }
}

// The garbage a session's requests leave behind (JSON, wire objects, summary prompts, what a
// condense let go of), counted in bytes, so the runner forces a full collection once a few
// megabytes have built up rather than every turn.

export class GarbageMeter {
  private bytes = 0;

  add(bytes: number): void {
    this.bytes += bytes;
  }

  /** Adds `bytes`; whether the count has passed `limit`, starting it again when it has. */
  due(bytes: number, limit: number): boolean {
    this.bytes += bytes;
    if (this.bytes < limit) return false;
    this.bytes = 0;
    return true;
  }
}

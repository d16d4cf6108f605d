// Ctrl-R: reverse search through the prompt history, as in readline. Each key narrows the query;
// Ctrl-R again goes to the next older match. Pure state: the session shows the match in the prompt
// and the query on the hint line, and restores the draft when the search is cancelled.

export class HistorySearch {
  query = "";
  /** Index of the shown match in `entries`; entries.length while nothing matches yet. */
  private at: number;
  /** The query found nothing (at its last key). */
  failed = false;

  constructor(
    private readonly entries: readonly string[],
    /** The draft before the search, put back on cancel. */
    readonly draft: string,
  ) {
    this.at = entries.length;
  }

  /** The entry shown, or undefined before the query matches anything. */
  match(): string | undefined {
    return this.entries[this.at];
  }

  /** Where the query stands in the match (for the caret). */
  matchIndex(): number {
    const m = this.match();
    return m === undefined ? 0 : Math.max(0, m.lastIndexOf(this.query));
  }

  type(text: string): void {
    this.query += text;
    // The shown match is kept while it still matches; else the next older one.
    this.find(Math.min(this.at, this.entries.length - 1));
  }

  backspace(): void {
    this.query = [...this.query].slice(0, -1).join("");
    this.find(this.entries.length - 1);
  }

  /** Ctrl-R again: the next older match. */
  older(): void {
    this.find(this.at - 1);
  }

  /** What the hint line says. */
  label(): string {
    const miss = this.failed ? " (no match)" : "";
    return `reverse search: ${JSON.stringify(this.query)}${miss} · Enter to take it, Esc to cancel, Ctrl-R for older`;
  }

  private find(from: number): void {
    for (let i = from; i >= 0; i--) {
      if (this.query && this.entries[i]?.includes(this.query)) {
        this.at = i;
        this.failed = false;
        return;
      }
    }
    this.failed = this.query.length > 0;
  }
}

// Prompt history across sessions in $SYNAPSE_HOME/history: one JSON string per line (so multi-line
// prompts survive), newest last, trimmed to the newest MAX_ENTRIES when it grows past twice that.

import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const MAX_ENTRIES = 1000;

export class HistoryFile {
  readonly path: string;
  private count = 0;

  constructor(home: string) {
    this.path = join(home, "history");
  }

  load(): string[] {
    let text = "";
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return [];
    }
    const entries: string[] = [];
    for (const line of text.split("\n")) {
      if (!line) continue;
      try {
        const value = JSON.parse(line);
        if (typeof value === "string") entries.push(value);
      } catch {
        // A torn last line (a crash mid-append) is skipped.
      }
    }
    this.count = entries.length;
    return entries.slice(-MAX_ENTRIES);
  }

  append(entry: string): void {
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      if (++this.count > 2 * MAX_ENTRIES) {
        const kept = this.load().slice(-MAX_ENTRIES);
        writeFileSync(this.path, kept.map((e) => `${JSON.stringify(e)}\n`).join(""), { mode: 0o600 });
        this.count = kept.length;
      }
    } catch {
      // History is a convenience: a read-only home must not break the session.
    }
  }
}

// Prompt history across sessions in $SYNAPSE_HOME/history, newest last, trimmed to the newest
// MAX_ENTRIES when it grows past twice that. One JSON value per line (so multi-line prompts
// survive): `{"text": …, "cwd": …}`, the directory it was sent in, so ↑ walks this project's
// prompts while Ctrl-R searches every project's; a bare string (older files) belongs to none.

import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const MAX_ENTRIES = 1000;

export class HistoryFile {
  readonly path: string;
  private count = 0;

  constructor(home: string) {
    this.path = join(home, "history");
  }

  /** The prompts, oldest first: every one, or (given `cwd`) only those sent in that directory. */
  load(cwd?: string): string[] {
    const entries = this.entries();
    this.count = entries.length;
    const chosen = cwd === undefined ? entries : entries.filter((e) => e.cwd === cwd);
    return chosen.map((e) => e.text).slice(-MAX_ENTRIES);
  }

  append(entry: string, cwd?: string): void {
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      appendFileSync(this.path, line({ text: entry, cwd }), { mode: 0o600 });
      if (++this.count > 2 * MAX_ENTRIES) {
        const kept = this.entries().slice(-MAX_ENTRIES);
        writeFileSync(this.path, kept.map(line).join(""), { mode: 0o600 });
        this.count = kept.length;
      }
    } catch {
      // History is a convenience: a read-only home must not break the session.
    }
  }

  private entries(): Entry[] {
    let text = "";
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return [];
    }
    const entries: Entry[] = [];
    for (const raw of text.split("\n")) {
      if (!raw) continue;
      try {
        const value = JSON.parse(raw);
        if (typeof value === "string") entries.push({ text: value });
        else if (typeof value?.text === "string") {
          entries.push({ text: value.text, cwd: typeof value.cwd === "string" ? value.cwd : undefined });
        }
      } catch {
        // A torn last line (a crash mid-append) is skipped.
      }
    }
    return entries;
  }
}

interface Entry {
  text: string;
  cwd?: string;
}

const line = (e: Entry) => `${JSON.stringify(e.cwd === undefined ? e.text : { text: e.text, cwd: e.cwd })}\n`;

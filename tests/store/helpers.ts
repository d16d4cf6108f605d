// Shared bits for the store tests: a fresh home per test, a small config, message makers.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoreConfig } from "../../src/config/config.ts";
import type { Message, Role } from "../../src/protocol/message.ts";
import type { MessageStore } from "../../src/store/message-store.ts";

const homes: string[] = [];

/** Removes the homes made so far; each test file calls it from afterAll. */
export function removeTempHomes(): void {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
}

export function tempHome(prefix = "synapse-store-"): string {
  const home = mkdtempSync(join(tmpdir(), prefix));
  homes.push(home);
  return home;
}

export function storeConfig(overrides: Partial<StoreConfig> = {}): StoreConfig {
  return {
    maxMessages: 400,
    maxBytes: 8 * 1024 * 1024,
    flushMs: 200,
    rotateBytes: 64 * 1024 * 1024,
    contextMaxImages: 5,
    contextMaxImageBytes: 16 << 20,
    ...overrides,
  };
}

export function msg(n: number, text = `message ${n}`, role: Role = n % 2 === 0 ? "user" : "assistant"): Message {
  return { id: `m${n}`, role, content: [{ type: "text", text }], ts: 1_700_000_000_000 + n };
}

export async function readAllIds(store: MessageStore): Promise<string[]> {
  const ids: string[] = [];
  for await (const m of store.readAll()) ids.push(m.id);
  return ids;
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** Collects warnings so a test can assert on them. */
export function warnings(): { list: string[]; push: (m: string) => void } {
  const list: string[] = [];
  return { list, push: (m: string) => list.push(m) };
}

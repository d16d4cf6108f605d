// The sessions one `synapse acp` process holds, by id: each with its own executor, shells and store,
// so a turn in one never waits on another. Closing the registry closes (and so saves) them all.

import { RequestError } from "@agentclientprotocol/sdk";
import type { AcpSession } from "./acp-session.ts";

export interface SessionRegistry {
  add(session: AcpSession): void;
  /** The session, or the protocol's "not found" error. */
  get(id: string): AcpSession;
  has(id: string): boolean;
  /** session/close: its turn stopped, the session saved and released (its lock too). */
  close(id: string): Promise<void>;
  closeAll(): Promise<void>;
  killAllNow(): void;
}

export function createSessionRegistry(log: (line: string) => void): SessionRegistry {
  const sessions = new Map<string, AcpSession>();
  const get = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (!session) throw RequestError.sessionNotFound(id);
    return session;
  };
  return {
    add(session) {
      sessions.set(session.id, session);
    },
    get,
    has: (id) => sessions.has(id),
    async close(id) {
      const session = get(id);
      sessions.delete(id);
      await session.close();
    },
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(
        all.map((s) => s.close().catch((err) => log(`could not save session ${s.id}: ${err?.message ?? err}`))),
      );
    },
    killAllNow() {
      for (const s of sessions.values()) s.killNow();
    },
  };
}

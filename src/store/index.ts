// The store's public face: what the agent, CLI and memory monitor import.

export type { ListedSession, SessionMeta, SessionStore, StoreStats } from "./types.ts";
export { openSession, type OpenSessionOptions, type OpenedSession, type ResumeTarget } from "./session.ts";
export { MessageStore } from "./message-store.ts";
export { listSessions, formatSessionTable, formatBytes } from "./sessions-list.ts";
export { selectImagesForContext, imagePlaceholder, countImages, imageBytes, type ImageBudget } from "./image-context.ts";
export { StoreError } from "./errors.ts";
export { RingBuffer, type RingBufferOptions } from "./ring-buffer.ts";

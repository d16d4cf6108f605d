// What the executor holds of an open session: the `SessionRuntime` over its parts — model and
// mode switches, facts, MCP reports, images, the user's own commands, `/compact`, and closing.

import { readFile, stat } from "node:fs/promises";
import type { Config, PermissionMode } from "../config/config.ts";
import type { CompactOutcome } from "../context/condense.ts";
import { selectProvider } from "../llm/select.ts";
import type { ServerReport } from "../mcp/servers.ts";
import { UsageError } from "../protocol/errors.ts";
import { fileReason } from "../protocol/file-reason.ts";
import type { RunResult } from "../protocol/events.ts";
import type { ContentBlock, ImageBlock, Message } from "../protocol/message.ts";
import type { StartState } from "../hooks/index.ts";
import type { SandboxState } from "../sandbox/types.ts";
import { imageMediaType } from "../tools/binary.ts";
import { toolLimits } from "../tools/types.ts";
import type { SessionParts } from "./session-parts.ts";
import { MAIN_TASK, submitPrompt } from "./session-submit.ts";
import { restoreLines } from "./restore-lines.ts";
import { rewindFiles } from "./rewind-files.ts";
import type { RestoredFile } from "../store/checkpoints-restore.ts";
import { type RewindPoint, restoreFiles, rewindConversation, rewindPoints } from "./session-rewind.ts";
import { type UserToolInput, mentionBlock, runUserShell, runUserTool } from "./user-shell.ts";

export interface SessionRuntime {
  readonly sessionId: string;
  /** `provider/model` the next request goes to. */
  readonly model: string;
  /** Switches the model for the rest of the session and records it (UsageError: provider not configured). */
  setModel(spec: string): void;
  /** The permission mode the next tool call is judged in. */
  readonly permissionMode: PermissionMode;
  /** Shift+Tab in the interactive session: from the next tool call on (sub-agents from their start). */
  setPermissionMode(mode: PermissionMode): void;
  /** Counters for `/status`. */
  facts(): RuntimeFacts;
  /** The MCP servers (`/mcp`), once those that start unasked have connected or failed (or `signal` fired). */
  mcpServers(signal: AbortSignal): Promise<ServerReport[]>;
  /** Where commands run, once the sandbox probe has answered (or `signal` fired: undefined). */
  sandbox(signal: AbortSignal): Promise<SandboxState | undefined>;
  /** `/mcp__<server>__<prompt>` names of the prompts of the servers connected so far (/help, completion). */
  mcpPromptCommands(): string[];
  /** The newest messages in memory (a resumed session shows where it left off). */
  recent(count: number): readonly Message[];
  attachImage(path: string): Promise<ImageBlock>;
  submit(prompt: ContentBlock[], signal: AbortSignal): Promise<RunResult>;
  /** `!command`: the user's own command through the Bash tool (same sandbox and gate), output kept for the model. */
  runShell(command: string, signal: AbortSignal): Promise<void>;
  /** An `@path` mention: the file through Read (its checks, its bounds); undefined when Read refused or failed. */
  readMention(path: string, signal: AbortSignal): Promise<string | undefined>;
  /**
   * Condenses the session's context now (`/compact [focus]`): a summary with the focus text added
   * to its prompt. Interrupted (InterruptedError), the session is left exactly as it was.
   */
  compact(focus: string | undefined, signal: AbortSignal, keepLast?: number): Promise<CompactOutcome>;
  /** `/rewind`: the prompts with file checkpoints, oldest first. */
  rewindPoints(): Promise<RewindPoint[]>;
  /** `/rewind`: puts the files back to before prompt `to`; a line per file for the user. */
  restoreFiles(to: string): Promise<string[]>;
  /** The Agent SDK's rewind_files: each file put back to before prompt `to` (only listed when `dryRun`). */
  rewindFiles(to: string, dryRun: boolean): Promise<RestoredFile[] | undefined>;
  /** `/rewind`: records the conversation's rewind to before `to` (the executor then reopens the session). */
  rewindConversation(to: string, first: boolean): Promise<void>;
  /** What this process carries from one runtime of a session to the next (LiveSession). */
  carried(): CarriedState;
  /** Before the first prompt: takes on what the runtime before this one had. */
  carryOn(state: CarriedState): void;
  /** Flushes the archive and stops everything; safe to call twice. */
  close(): Promise<void>;
  /** Synchronous last resort for process exit: kills every process the session started. */
  killNow(): void;
}

/** The rules granted "for this session", and whether SessionStart fired (and as what). */
export interface CarriedState {
  granted: readonly string[];
  start: StartState;
}

export interface RuntimeFacts {
  messagesInMemory: number;
  /** Whether the session is kept on disk (a new one is from its first message): only then can it be resumed. */
  saved: boolean;
  shells: { spawned: number; reused: number; commandsRun: number };
  memory: { peakRssMb: number; peakHeapMb: number };
  /** Where commands run (/status, the status line); undefined while the sandbox is being probed. */
  sandbox: SandboxState | undefined;
  permissionMode: PermissionMode;
}

export function sessionHandle(s: SessionParts): SessionRuntime {
  const { config, store, mcp, context, sandbox } = s;
  let closed = false;
  return {
    sessionId: store.id,
    get model() {
      return `${s.provider.name}/${s.provider.model}`;
    },
    setModel(spec) {
      s.provider = selectProvider({ ...config, model: spec });
      store.updateMeta({ model: `${s.provider.name}/${s.provider.model}` });
    },
    get permissionMode() {
      return sandbox.permissions.mode;
    },
    setPermissionMode(mode) {
      sandbox.setPermissionMode(mode);
    },
    recent: (count) => store.window().slice(-count),
    facts: () => runtimeFacts(s),
    async sandbox(signal) {
      await Promise.race([sandbox.ready(), aborted(signal)]);
      return sandbox.state;
    },
    mcpPromptCommands: () => mcp.reports().flatMap((r) => r.prompts),
    async mcpServers(signal) {
      await Promise.race([mcp.settled(), aborted(signal)]);
      return mcp.reports();
    },
    attachImage: (path) => attachImage(config, store, path),
    submit: (prompt, signal) => submitPrompt(s, prompt, signal),
    async readMention(path, signal) {
      const { text, failed } = await runUserTool("Read", { path }, await userToolInput(s, signal));
      sandbox.shell.releaseTask(MAIN_TASK);
      return failed ? undefined : mentionBlock(path, text);
    },
    async runShell(command, signal) {
      const message = await runUserShell(command, await userToolInput(s, signal));
      sandbox.shell.releaseTask(MAIN_TASK);
      store.append(message);
      context.noteAppended(message);
      await store.flush();
    },
    async compact(focus, signal, keepLast) {
      const outcome = await context.condense("manual", { signal, focus: focus?.trim() || undefined, keepLast });
      await store.flush();
      return outcome;
    },
    rewindPoints: () => rewindPoints(store),
    restoreFiles: async (to) => restoreLines(await restoreFiles(store, to), config.cwd),
    rewindFiles: (to, dryRun) => rewindFiles(store, to, dryRun),
    rewindConversation: (to, first) => rewindConversation(store, to, first),
    carried: () => ({ granted: [...s.granted], start: s.hooks.startState() }),
    carryOn(state) {
      for (const rule of state.granted) if (!s.granted.includes(rule)) s.granted.push(rule);
      s.hooks.continueStart(state.start);
    },
    async close() {
      if (closed) return;
      closed = true;
      s.monitor.stop();
      await mcp.close();
      await s.tasks.close();
      await sandbox.shell.close();
      await store.close();
      await s.sweep();
    },
    killNow() {
      sandbox.shell.killAllNow();
      mcp.killNow();
      // A forced exit skips close(): the lock must not outlive the process all the same.
      store.releaseLockNow();
    },
  };
}

function runtimeFacts(s: SessionParts): RuntimeFacts {
  const shells = s.sandbox.shell.stats();
  const m = s.monitor.stats();
  return {
    messagesInMemory: s.store.window().length,
    saved: s.store.kept,
    shells: { spawned: shells.shells_spawned, reused: shells.shells_reused, commandsRun: shells.commands_run },
    memory: { peakRssMb: m.peakRssMb, peakHeapMb: m.peakHeapMb },
    sandbox: s.sandbox.state,
    permissionMode: s.sandbox.permissions.mode,
  };
}

/** Resolves when `signal` fires (at once if it has). */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * A tool call the user asked for (`!command`, an `@file` mention): the main task's gate and tools,
 * once the sandbox's answer is in (until then the policy would not know whether commands are confined).
 */
async function userToolInput(s: SessionParts, signal: AbortSignal): Promise<UserToolInput> {
  const { sandbox, emit, options } = s;
  await Promise.race([sandbox.ready(), aborted(signal)]);
  return {
    tools: s.tools,
    emit,
    context: {
      cwd: s.config.cwd,
      signal,
      taskId: MAIN_TASK,
      limits: toolLimits(s.config),
      services: {
        shell: sandbox.shell,
        get permissions() {
          return sandbox.permissions;
        },
        granted: s.granted,
        approve: options.approve,
        editorFiles: options.editorFiles,
      },
      warn: (message) => emit({ type: "warning", message }),
    },
  };
}

async function attachImage(config: Config, store: SessionParts["store"], path: string): Promise<ImageBlock> {
  let bytes: Uint8Array;
  // Only `--image ""` gives no path (editors and the SDK pass files they wrote).
  if (path.trim() === "") throw new UsageError("--image needs the path of an image file");
  try {
    // Checked before reading: a FIFO would block forever, /dev/zero would never end.
    const info = await stat(path);
    if (!info.isFile()) throw new Error("not a regular file");
    const limit = config.store.contextMaxImageBytes;
    if (info.size > limit) {
      throw new Error(
        `${(info.size / 1048576).toFixed(1)} MB is more than the ${(limit / 1048576).toFixed(1)} MB ` +
          "a request may carry (SYNAPSE_CONTEXT_MAX_IMAGE_BYTES)",
      );
    }
    bytes = await readFile(path);
  } catch (err) {
    throw new UsageError(`cannot use image ${path}: ${fileReason(err)}`);
  }
  const mediaType = imageMediaType(bytes);
  if (!mediaType) throw new UsageError(`${path} is not a PNG, JPEG, GIF or WebP image`);
  return { type: "image", image: await store.saveImage(bytes, mediaType) };
}

// A session's MCP servers: which may start (a project's entries only once approved), all started
// in parallel, their tools offered under `mcp__<server>__<tool>` names, the lists refreshed after a
// change, and every server ended with the session (or at once, on the way out of the process).

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ContentBlock } from "../protocol/message.ts";
import { errorMessage } from "../protocol/errors.ts";
import type { Tool } from "../tools/types.ts";
import { resourceMentions, resourceText } from "./resource-mentions.ts";
import { userWordsOf } from "../protocol/piped-input.ts";
import { parsePromptCommand, promptArguments, promptText } from "./prompt-command.ts";
import { UsageError } from "../protocol/errors.ts";
import { WATCHDOG_SCRIPT } from "../shell/watchdog.ts";
import { isApproved, recordApproval } from "../policy/project-approvals.ts";
import { deniesWholeTool } from "../policy/denied-tools.ts";
import type { McpConnection, ServerStatus } from "./connection.ts";
import type { ServerPrompt } from "./prompt-command.ts";
import { mcpTool } from "./mcp-tool.ts";
import { expandEntry } from "./server-entry.ts";
import type { ConfiguredServer } from "./sources.ts";
import { MCP_PREFIX, mcpToolNames, serverPart } from "./tool-names.ts";
import { entryOf } from "../text/checked-index.ts";

export interface McpSessionInput {
  cwd: string;
  /** Synapse's data folder (SYNAPSE_HOME): where approvals are remembered. */
  home: string;
  /** The scrubbed environment: `${VAR}` expansion and the servers' base environment. */
  env: Record<string, string>;
  /** The session folder: the servers' log and the watchdog script go in `mcp/` there. */
  sessionDir: string;
  servers: ConfiguredServer[];
  /** `--allow-project-mcp`: this run starts the project's servers unasked. */
  allowProject: boolean;
  /** The user's allow rules: `mcp__<server>` also approves a project server. */
  allowRules: readonly string[];
  startTimeoutMs: number;
  callTimeoutMs: number;
  maxOutputTokens: number;
  /** Plan mode: only the tools a server marks read-only (`readOnlyHint`). */
  readOnlyOnly: boolean;
  /** The deny rules: a tool one refuses whole (`mcp__server`, `mcp__server__tool`) is not offered. */
  denyRules?: readonly string[];
  warn(message: string): void;
}

/** Asks the user whether a project's server may start (the interactive approval prompt). */
export type AskApproval = (server: ConfiguredServer) => Promise<boolean>;

export interface ServerReport {
  name: string;
  scope: ConfiguredServer["scope"];
  status: ServerStatus;
  error?: string;
  tools: string[];
  /** Its prompts as the slash commands that run them: `mcp__<server>__<prompt>` (no leading slash). */
  prompts: string[];
}

export interface McpServers {
  /** Once every server that may start has connected or failed; with `ask`, asks about project servers first. */
  ready(ask?: AskApproval): Promise<void>;
  /** Once every server started without asking has connected or failed (no question, no warning). */
  settled(): Promise<void>;
  reports(): ServerReport[];
  /** Puts the servers' current tools into `tools` (replacing earlier MCP tools); false when nothing changed. */
  install(tools: Map<string, Tool>): boolean;
  /** Fetches lists that changed and installs them; true when the tools changed. */
  refresh(tools: Map<string, Tool>): Promise<boolean>;
  /**
   * A prompt that is `/mcp__<server>__<prompt> args…` replaced by that server prompt's text; a
   * UsageError names an unknown prompt or a missing argument.
   */
  expandPrompt(prompt: ContentBlock[], signal: AbortSignal): Promise<ContentBlock[]>;
  /** The prompt with each `@server:uri` resource's contents added as a text block after it. */
  attachResources(prompt: ContentBlock[], signal: AbortSignal): Promise<ContentBlock[]>;
  close(): Promise<void>;
  killNow(): void;
}

export const MCP_LOG = "mcp-servers.log";

export function startMcpServers(input: McpSessionInput): McpServers {
  return new McpServerSet(input);
}

type PromptCommand = { connection: McpConnection; name: string; args: ServerPrompt["arguments"] };
type State = { server: ConfiguredServer; connection?: McpConnection; status: ServerStatus; error?: string };

/** One session's servers: each method one job; `states` is the only shared record. */
class McpServerSet implements McpServers {
  private readonly dir: string;
  private prepared = false;
  private readonly states = new Map<string, State>();
  /** Set by close(): a server still on its way up is ended as soon as it exists. */
  private closed = false;
  /** Project servers not yet approved, in the order configured. */
  private readonly waiting: ConfiguredServer[] = [];
  private readonly first: Promise<void>;
  private asked: Promise<void> | null = null;
  private warnedWaiting = false;
  /** The tool list last installed, to tell whether a refresh changed anything. */
  private installed = "";

  constructor(private readonly input: McpSessionInput) {
    this.dir = join(input.sessionDir, "mcp");
    this.first = this.startApproved();
  }

  private prepare(): void {
    if (this.prepared) return;
    this.prepared = true;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(this.dir, "watchdog.sh"), WATCHDOG_SCRIPT);
  }

  private async startApproved(): Promise<void> {
    const started: Promise<void>[] = [];
    const checks = this.input.servers.map(async (server) => {
      this.states.set(server.name, { server, status: "pending" });
      if (await this.approved(server)) started.push(this.connect(server));
      else {
        entryOf(this.states, server.name).status = "needs-approval";
        this.waiting.push(server);
      }
    });
    await Promise.all(checks);
    await Promise.all(started);
  }

  private async approved(server: ConfiguredServer): Promise<boolean> {
    const { input } = this;
    if (server.scope !== "project") return true;
    if (input.allowProject || input.allowRules.includes(`${MCP_PREFIX}${serverPart(server.name)}`)) return true;
    return isApproved(input.home, input.cwd, server.name, server.raw);
  }

  private async connect(server: ConfiguredServer): Promise<void> {
    const { input, dir } = this;
    const state = entryOf(this.states, server.name);
    const expanded = server.entry
      ? expandEntry(server.entry, input.env)
      : { ok: false as const, error: server.error ?? "no entry" };
    if (!expanded.ok) {
      state.status = "failed";
      state.error = expanded.error;
      input.warn(`MCP server "${server.name}" (${server.origin}) was not started: ${expanded.error}`);
      return;
    }
    this.prepare();
    // The SDK loads only in sessions that start a server: a run without MCP pays nothing for it.
    const { McpConnection } = await import("./connection.ts");
    const connection = new McpConnection(server.name, expanded.entry, {
      cwd: input.cwd,
      env: input.env,
      logPath: join(dir, MCP_LOG),
      watchdogPath: join(dir, "watchdog.sh"),
      startTimeoutMs: input.startTimeoutMs,
      callTimeoutMs: input.callTimeoutMs,
      warn: input.warn,
    });
    state.connection = connection;
    if (this.closed) return connection.close();
    await connection.connect();
    if (connection.status === "failed" && !this.closed) {
      input.warn(`MCP server "${server.name}" failed to start: ${connection.error} (log: ${join(dir, MCP_LOG)})`);
    }
  }

  private async askAll(ask: AskApproval): Promise<void> {
    for (const server of this.waiting.splice(0)) {
      if (!(await ask(server))) continue;
      await recordApproval(this.input.home, this.input.cwd, server.name, server.raw).catch((err) => {
        this.input.warn(`could not remember the approval of "${server.name}": ${err}`);
      });
      await this.connect(server);
    }
  }

  private connected(): McpConnection[] {
    return [...this.states.values()].flatMap((s) => (s.connection?.status === "connected" ? [s.connection] : []));
  }

  async ready(ask?: AskApproval): Promise<void> {
    await this.first;
    const { waiting } = this;
    if (ask && waiting.length) {
      this.asked ??= this.askAll(ask);
      await this.asked;
    }
    if (this.warnedWaiting || !waiting.length) return;
    this.warnedWaiting = true;
    const names = waiting.map((s) => `"${s.name}"`).join(", ");
    this.input.warn(
      `MCP server${waiting.length > 1 ? "s" : ""} ${names} of the project's .mcp.json not started: not approved ` +
        `(approve in an interactive session, or run with --allow-project-mcp or --allow mcp__<server>)`,
    );
  }

  settled(): Promise<void> {
    return this.first;
  }

  reports(): ServerReport[] {
    const prompts = this.promptCommands();
    return [...this.states.values()].map((s) => ({
      name: s.server.name,
      scope: s.server.scope,
      status: s.connection?.status ?? s.status,
      ...((s.connection?.error ?? s.error) ? { error: s.connection?.error ?? s.error } : {}),
      tools: s.connection?.status === "connected" ? s.connection.tools.map((t) => t.name) : [],
      prompts: [...prompts].flatMap(([name, p]) => (p.connection === s.connection ? [name] : [])),
    }));
  }

  /** Every connected server's prompts by their slash-command names, made unique as tool names are. */
  private promptCommands(): Map<string, PromptCommand> {
    const byName = new Map<string, PromptCommand>();
    const taken = new Set<string>();
    for (const connection of this.connected()) {
      const names = mcpToolNames(
        connection.name,
        connection.prompts.map((p) => p.name),
        taken,
      );
      for (const [i, p] of connection.prompts.entries()) {
        byName.set(names[i] ?? p.name, { connection, name: p.name, args: p.arguments });
      }
    }
    return byName;
  }

  install(tools: Map<string, Tool>): boolean {
    const { input } = this;
    const taken = new Set([...tools.keys()].filter((k) => !k.startsWith(MCP_PREFIX)));
    const fresh: Tool[] = [];
    for (const connection of this.connected()) {
      const offered = connection.tools.filter((t) => !input.readOnlyOnly || t.annotations?.readOnlyHint === true);
      const names = mcpToolNames(
        connection.name,
        offered.map((t) => t.name),
        taken,
      );
      const limits = { maxOutputTokens: input.maxOutputTokens };
      for (const [i, t] of offered.entries()) {
        const name = names[i] ?? t.name;
        if (!deniesWholeTool(input.denyRules ?? [], name)) fresh.push(mcpTool(name, connection, t, limits));
      }
    }
    const signature = JSON.stringify(fresh.map((t) => [t.name, t.description, t.inputSchema]));
    if (signature === this.installed) return false;
    this.installed = signature;
    for (const name of [...tools.keys()]) if (name.startsWith(MCP_PREFIX)) tools.delete(name);
    for (const tool of fresh) tools.set(tool.name, tool);
    return true;
  }

  async refresh(tools: Map<string, Tool>): Promise<boolean> {
    let changed = false;
    for (const { connection } of this.states.values()) if (connection && (await connection.refresh())) changed = true;
    return changed && this.install(tools);
  }

  async expandPrompt(prompt: ContentBlock[], signal: AbortSignal): Promise<ContentBlock[]> {
    const first = prompt[0];
    const parsed = first?.type === "text" ? parsePromptCommand(first.text) : undefined;
    if (!parsed) return prompt;
    const byName = this.promptCommands();
    const found = byName.get(parsed.name);
    if (!found) {
      const known = [...byName.keys()].map((n) => `/${n}`).join(", ") || "none";
      throw new UsageError(`unknown MCP prompt /${parsed.name} (MCP prompts: ${known})`);
    }
    const values = promptArguments(found.args ?? [], parsed.args);
    if (!values.ok) throw new UsageError(`/${parsed.name}: ${values.error}`);
    const messages = await found.connection.getPrompt(found.name, values.values, signal);
    return [{ type: "text", text: promptText(messages) }, ...prompt.slice(1)];
  }

  async attachResources(prompt: ContentBlock[], signal: AbortSignal): Promise<ContentBlock[]> {
    const { input } = this;
    const connected = new Map(this.connected().map((c) => [c.name, c]));
    if (!connected.size) return prompt;
    // Only the user's words ask for a resource: a piped diff's `@server:uri` is data.
    const text = userWordsOf(prompt.map((b) => (b.type === "text" ? b.text : "")).join("\n"));
    const attached: ContentBlock[] = [];
    for (const mention of resourceMentions(text, new Set(connected.keys()))) {
      try {
        const contents = await entryOf(connected, mention.server).readResource(mention.uri, signal);
        const limit = `SYNAPSE_MAX_MCP_OUTPUT_TOKENS=${input.maxOutputTokens}`;
        attached.push({ type: "text", text: resourceText(mention, contents, input.maxOutputTokens * 4, limit) });
      } catch (err) {
        if (signal.aborted) break;
        input.warn(`could not attach @${mention.server}:${mention.uri}: ${errorMessage(err)}`);
      }
    }
    return attached.length ? [...prompt, ...attached] : prompt;
  }

  async close(): Promise<void> {
    // Not waiting for servers still starting (up to SYNAPSE_MCP_TIMEOUT_MS): an interrupted start ends now.
    this.closed = true;
    await Promise.all([...this.states.values()].map((s) => s.connection?.close()));
  }

  killNow(): void {
    for (const s of this.states.values()) s.connection?.killNow();
  }
}

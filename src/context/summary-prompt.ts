// The words of a condense: the summariser's instructions, the transcript it reads (tool outputs
// cut), and the compaction record's text, which stands in for the condensed messages.

import type { CompactionInfo, Message } from "../protocol/message.ts";

/** Each tool output is cut to this many characters in the transcript the summariser reads. */
export const TRANSCRIPT_OUTPUT_CHARS = 2000;

export const SUMMARY_SYSTEM =
  "You condense the history of a coding agent's session so that the work can continue in a fresh context window. " +
  "You answer with the summary only: no preamble, no tool calls.";

/** How every summary request starts: how tests and the bench tell a summary call from a turn. */
export const SUMMARY_REQUEST_START = "Summarise the conversation ";

export interface SummaryRequest {
  task: string;
  /** The summary an earlier condense wrote: to be updated, not dropped. */
  previousSummary?: string;
  /** The conversation as text; undefined when the request carries the conversation itself, above. */
  transcript?: string;
  /** The user's latest messages, newest last. */
  userMessages: string[];
  focus?: string;
}

export function summaryPrompt(req: SummaryRequest): string {
  const above = req.transcript === undefined;
  const parts = [
    `${SUMMARY_REQUEST_START}${above ? "above" : "below"} between a user and a coding agent, so that the agent ` +
      "can carry on the task without it.",
    ...(above ? ["Answer with the summary as text only: do not call any tool."] : []),
    "Write these sections, concise but complete:",
    "1. Task: what the user asked for, in their words where it matters.",
    "2. Current work and state: what was being done right before this point and how far it got.",
    "3. Key decisions and their reasons.",
    "4. Files and code touched: paths, what changed, important snippets, function names.",
    "5. Errors met and how they were fixed.",
    "6. Pending steps: what remains to be done.",
    "7. The user's latest instructions, quoted word for word.",
  ];
  if (req.previousSummary) {
    parts.push(
      "An earlier summary of the session comes first: update it with what happened since, keeping what still " +
        "matters; do not drop it.",
    );
  }
  if (req.focus) parts.push(`The user asks this summary to focus on: ${req.focus}`);
  parts.push("", "<task>", req.task, "</task>");
  if (req.previousSummary) parts.push("", "<previous_summary>", req.previousSummary, "</previous_summary>");
  if (req.userMessages.length) {
    parts.push("", "<user_messages>", ...req.userMessages.map((m) => `<message>${m}</message>`), "</user_messages>");
  }
  if (req.transcript !== undefined) parts.push("", "<conversation>", req.transcript, "</conversation>");
  return parts.join("\n");
}

function cut(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}\n[... ${text.length - max} more characters cut for the summary]`;
}

/** One line block per message; tool outputs cut to `outputChars`. Compaction records are skipped. */
export function transcriptOf(messages: readonly Message[], outputChars = TRANSCRIPT_OUTPUT_CHARS): string[] {
  const out: string[] = [];
  for (const m of messages) {
    if (m.compaction) continue;
    const lines: string[] = [];
    for (const b of m.content) {
      if (b.type === "text") {
        if (b.text) lines.push(`${m.role === "user" ? "USER" : "ASSISTANT"}: ${b.text}`);
      } else if (b.type === "image") {
        lines.push(`${m.role === "user" ? "USER" : "ASSISTANT"}: [image]`);
      } else if (b.type === "tool_use") {
        lines.push(`TOOL CALL ${b.name} ${JSON.stringify(b.input ?? {})}`);
      } else {
        const text =
          typeof b.content === "string"
            ? b.content
            : b.content.map((p) => (p.type === "text" ? p.text : "[image]")).join("\n");
        lines.push(`TOOL RESULT${b.is_error ? " (error)" : ""}: ${cut(text, outputChars)}`);
      }
    }
    if (lines.length) out.push(lines.join("\n"));
  }
  return out;
}

/** A plain user prompt's words (not tool results), or undefined. */
export function promptText(m: Message): string | undefined {
  if (m.role !== "user" || m.compaction || m.content.some((b) => b.type === "tool_result")) return undefined;
  const text = m.content
    .map((b) => (b.type === "text" ? b.text : b.type === "image" ? "[image]" : ""))
    .join("\n")
    .trim();
  return text || undefined;
}

/** What the model reads in place of the condensed messages. */
export function recordText(
  info: Pick<CompactionInfo, "method" | "task" | "summary" | "userMessages" | "count">,
): string {
  const parts = [
    `The earlier part of this session (${info.count} messages) was condensed to fit the context window; ` +
      "the session archive still holds every message.",
    "",
    "<task>",
    info.task || "(the first prompt had no text)",
    "</task>",
  ];
  if (info.userMessages?.length) {
    parts.push(
      "",
      "The user's own messages since then, verbatim, oldest first:",
      "<user_messages>",
      ...info.userMessages.map((m) => `<message>${m}</message>`),
      "</user_messages>",
    );
  }
  if (info.method === "window") {
    parts.push(
      "",
      `[${info.count} earlier messages were left out here to fit the context window, without a summary; ` +
        "the session archive holds them all.]",
    );
  }
  if (info.summary) parts.push("", "<summary>", info.summary, "</summary>");
  parts.push("", "Continue the task from here.");
  return parts.join("\n");
}

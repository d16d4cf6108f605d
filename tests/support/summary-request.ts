// Tells a summary call from a turn in a recorded request: its last message asks for the summary
// (a summary call carries the turn's tools and messages, so that it reads the turn's prompt cache).

import { SUMMARY_REQUEST_START } from "../../src/context/summary-prompt.ts";

/** Whether a request body (Anthropic or OpenAI) is a summary call. */
export function isSummaryRequest(body: any): boolean {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  return JSON.stringify(messages.at(-1) ?? null).includes(SUMMARY_REQUEST_START);
}

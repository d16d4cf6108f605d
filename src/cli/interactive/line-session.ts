// The interactive session on a terminal that cannot move its cursor (TERM=dumb: an editor's shell
// buffer, a serial console): plain lines only. The terminal's own line editing reads the prompt
// (cooked mode, its echo), finished lines of the answer and the tool rows are written as they
// come, and nothing is ever redrawn. Ctrl-C interrupts a running turn (else exits), Ctrl-D leaves.

import { writeSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Config } from "../../config/config.ts";
import { type Executor, type ExecutorEvent, createExecutor } from "../../executor/executor.ts";
import { openRuntime } from "../../executor/session-runtime.ts";
import { EXIT } from "../../protocol/errors.ts";
import { codeAfterSave, endOnce, startLifecycle } from "../process-lifecycle.ts";
import { inertLine } from "../../render/inert.ts";
import { loadMarkdown } from "../../render/markdown.ts";
import { makeTheme } from "../../render/theme.ts";
import { toolLabel } from "../../render/tool-label.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../tools/types.ts";
import type { Command } from "../args.ts";
import { resumeWindow } from "./session-replay.ts";
import { SessionView } from "./session-view.ts";
import { welcomeLine } from "./welcome.ts";
import { closeSession } from "./session-exit.ts";

type RunCommand = Extract<Command, { kind: "run" }>;

const PROMPT = "› ";

/** The question for a call the policy does not allow by itself, on one line, and how to answer. */
export function approvalQuestion(request: ApprovalRequest, limit: number): string {
  const label = inertLine(toolLabel(request.tool, request.input, limit));
  const always = request.exact ? `, a = yes and don't ask again for ${inertLine(request.rule)}` : "";
  return `allow ${label}? (${inertLine(request.reason)}) y = yes${always}, anything else = no: `;
}

/** A typed answer: y/yes, a/always (only when offered), else no with the text as the reason. */
export function parseApproval(line: string, exact: boolean | undefined): ApprovalAnswer {
  const answer = line.trim();
  if (/^(y|yes)$/i.test(answer)) return "yes";
  if (exact && /^(a|always)$/i.test(answer)) return "always";
  return { no: /^(n|no)?$/i.test(answer) ? "" : answer };
}

export async function runLineSession(config: Config, command: RunCommand): Promise<number> {
  const life = startLifecycle();
  const out = (text: string) => {
    try {
      writeSync(1, text);
    } catch {
      // The terminal went away (SIGHUP follows).
    }
  };
  const width = () => Math.max(20, (process.stdout.columns || 80) - 1);
  const view = new SessionView(makeTheme(false), width, config.toolResultSummaryLimit);
  const flush = () => {
    const lines = view.takeCommitted();
    if (lines.length) out(`${lines.join("\n")}\n`);
  };
  let executor: Executor | undefined;
  let pendingImages = [...command.images];
  const early: string[] = [];
  // A question waiting for its answer: the next line typed is the answer, not a prompt.
  const questions: { request: ApprovalRequest; resolve: (a: ApprovalAnswer) => void }[] = [];

  const idle = () => !executor?.running() && !executor?.pending();
  const ask = (request: ApprovalRequest): Promise<ApprovalAnswer> =>
    new Promise((resolve) => {
      if (ending.begun()) return resolve({ no: "the session ended" });
      flush();
      questions.push({ request, resolve });
      if (questions.length === 1) out(approvalQuestion(request, config.toolResultSummaryLimit));
    });

  const submit = (text: string) => {
    if (!executor) return void early.push(text);
    let images: string[] | undefined;
    if (pendingImages.length && !text.trimStart().startsWith("/")) {
      images = pendingImages;
      pendingImages = [];
    }
    // `!command` and `@path` work as in the full session; a line typed at the idle prompt is on
    // the screen already (the terminal echoed it), so it is not printed a second time.
    const shellMode = text.trimStart().startsWith("!");
    const atPrompt = idle();
    const id = executor.submit({ text, images, shellMode, attachMentions: true });
    if (atPrompt) view.unechoed(id);
    void executor.waitFor(id).then((outcome) => {
      if (outcome.exit) void exit(EXIT.ok);
    });
  };

  const ending = endOnce(async (code) => {
    for (const q of questions.splice(0)) q.resolve({ no: "the session ended" });
    input.close();
    let line = "";
    if (executor) {
      const closed = await closeSession(executor);
      line = closed.line;
      code = codeAfterSave(code, closed);
    }
    flush();
    out(`\n${line}`);
    return code;
  });
  const exit = (code: number) => ending.end(code);

  const onEvent = (event: ExecutorEvent) => {
    view.handle(event);
    flush();
    if (event.type === "session_changed" && executor) {
      view.replay(...resumeWindow(executor));
      flush();
    }
    if (event.type !== "submission_end" || ending.begun()) return;
    setImmediate(() => idle() && !questions.length && out(PROMPT));
  };

  const input = createInterface({ input: process.stdin, terminal: false });
  input.on("line", (line) => {
    const question = questions.shift();
    if (question) {
      question.resolve(parseApproval(line, question.request.exact));
      if (questions[0]) out(approvalQuestion(questions[0].request, config.toolResultSummaryLimit));
      return;
    }
    if (line.trim()) submit(line);
    else if (idle()) out(PROMPT);
  });
  input.on("close", () => void exit(EXIT.ok));
  // Ctrl-C: the turn stops (a question is answered no), or with nothing running the session ends.
  life.onSignal(({ signal, code }) => {
    if (signal === "SIGINT" && executor && !idle()) {
      for (const q of questions.splice(0)) q.resolve({ no: "", stop: true });
      executor.interruptAll();
    } else void exit(code);
  });

  out(`${welcomeLine(false)}\n${PROMPT}`);
  // The view draws answers (and a resumed session's messages) as Markdown.
  await loadMarkdown();
  executor = await createExecutor({
    config,
    resume: command.resume,
    open: (sink, resume) => openRuntime({ config, resume, emit: sink, approve: ask }),
    emit: onEvent,
  });
  life.own(executor);
  if (command.resume) {
    view.replay(...resumeWindow(executor));
    view.say(`  resumed session ${executor.runtime.sessionId}`);
    flush();
  }
  for (const text of early.splice(0)) submit(text);
  return ending.done;
}

// The tool calls waiting for the user's yes or no, asked one at a time: the open question takes the
// prompt's place and its keys, the next waits until it is answered. A session on its way out
// answers no, or its close would wait on a question forever.

import type { ApprovalAnswer, ApprovalRequest } from "../../tools/types.ts";
import type { Theme } from "../../render/theme.ts";
import { ApprovalPrompt } from "./approval-prompt.ts";
import { FRESH_QUESTION_MS } from "./type-ahead.ts";

export interface OpenQuestion {
  prompt: ApprovalPrompt;
  request: ApprovalRequest;
}

export interface QuestionHost {
  theme: Theme;
  /** Whether new questions are still put to the user. */
  asking(): boolean;
  /** A question was put, or became answerable by Enter: draw it. */
  shown(): void;
  /** A question was put: call the user back (bell or notification). */
  notify(request: ApprovalRequest): void;
}

const ENDED: ApprovalAnswer = { no: "the session ended" };

export class ApprovalQueue {
  private open: (OpenQuestion & { resolve: (a: ApprovalAnswer) => void }) | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly host: QuestionHost) {}

  /** The question on screen, if any. */
  get current(): OpenQuestion | undefined {
    return this.open;
  }

  /** Asks about a call once the questions before it are answered. */
  ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    const answered = this.chain.then(
      () =>
        new Promise<ApprovalAnswer>((resolve) => {
          if (!this.host.asking()) return resolve(ENDED);
          const prompt = new ApprovalPrompt(request, this.host.theme);
          this.open = { prompt, request, resolve };
          this.host.shown();
          this.host.notify(request);
          // Enter alone answers only once the question has been on screen a moment (type-ahead.ts).
          setTimeout(() => {
            prompt.armEnter();
            if (this.open?.prompt === prompt) this.host.shown();
          }, FRESH_QUESTION_MS);
        }),
    );
    this.chain = answered;
    return answered;
  }

  /**
   * Takes the open question off the screen and returns how to answer it: the caller may act first
   * (stop the turn, so the answer finds its signal already aborted).
   */
  take(): ((answer: ApprovalAnswer) => void) | undefined {
    const open = this.open;
    this.open = undefined;
    return open?.resolve;
  }

  /** The session is ending: the open question is answered no. */
  cancel(): void {
    this.take()?.(ENDED);
  }
}

/** Whether an answer stops the turn (Esc / Ctrl-C on the question). */
export const stopsTurn = (answer: ApprovalAnswer): boolean => typeof answer === "object" && answer.stop === true;

/** The transcript's line for an answered question, one inert line. */
export function answerLine(request: ApprovalRequest, answer: ApprovalAnswer): string {
  const said =
    answer === "yes"
      ? "allowed once"
      : answer === "always"
        ? `allowed: ${request.rule} for this session`
        : stopsTurn(answer)
          ? "rejected by the user; the turn stopped"
          : `refused${answer.no ? `: ${answer.no}` : ""}`;
  return `  ⎿ ${request.tool} ${said}`.replace(/[\x00-\x1f\x7f]/g, " ");
}

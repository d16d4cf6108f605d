// The interactive session's phases. Keys are read (and typed lines kept for later) while the session
// opens; exit begins with `leave`, after which no key or new question is taken while a running turn
// winds down; once the terminal is given back (`released`, or a crash, or a failed open) nothing is
// drawn again. A pure machine: an event a phase has no use for leaves it as it is.

import { assertNever } from "../../protocol/assert-never.ts";

export type Phase = "opening" | "open" | "leaving" | "closed";
export type PhaseEvent = "opened" | "leave" | "released" | "failed";

export function nextPhase(phase: Phase, event: PhaseEvent): Phase {
  switch (event) {
    case "opened":
      return phase === "opening" ? "open" : phase;
    case "leave":
      return phase === "opening" || phase === "open" ? "leaving" : phase;
    case "released":
      return phase === "leaving" ? "closed" : phase;
    case "failed":
      return "closed";
    default:
      return assertNever(event, "session event");
  }
}

/** Keys, new questions and exit requests are taken only before exit begins. */
export const takesInput = (phase: Phase): boolean => phase === "opening" || phase === "open";

/** The screen is drawn until the terminal is given back. */
export const draws = (phase: Phase): boolean => phase !== "closed";

/** A small holder for the phase, so the parts share one. */
export class SessionState {
  phase: Phase = "opening";

  on(event: PhaseEvent): Phase {
    this.phase = nextPhase(this.phase, event);
    return this.phase;
  }

  get takesInput(): boolean {
    return takesInput(this.phase);
  }

  get draws(): boolean {
    return draws(this.phase);
  }
}

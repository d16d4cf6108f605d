// `/resume` lists recent sessions of this directory; `/resume <id>` (or a unique prefix) switches
// to one of them.

import type { ListedSession } from "../../store/types.ts";
import { type SlashCommand, act, fail, say } from "../slash-command.ts";
import { itemAt } from "../../text/checked-index.ts";

const SHOWN = 10;

export const resumeCommand: SlashCommand = {
  name: "resume",
  usage: "/resume [id]",
  summary: "list recent sessions here, or switch to one",
  async run(args, ctx) {
    const sessions = (await ctx.listSessions()).filter((s) => s.state !== "newer");
    const current = ctx.facts().sessionId;
    const wanted = args.trim();
    if (!wanted) {
      if (!sessions.length) return say("no earlier sessions in this directory");
      const row = (s: ListedSession) => {
        const when = new Date(s.updated).toISOString().slice(0, 16).replace("T", " ");
        return `${s.id}  ${when}  ${s.messages} msgs  ${s.title.replace(/\s+/g, " ").slice(0, 50)}`;
      };
      const rows = sessions.slice(0, SHOWN).map((s) => `${s.id === current ? "* " : "  "}${row(s)}`);
      // The picker offers every session (it filters and scrolls); the printed list the newest.
      const items = sessions.map((s) => ({ value: s.id, label: row(s), current: s.id === current }));
      const choices = { command: "resume", title: "Recent sessions", items };
      return { ...say("Recent sessions (/resume <id> to switch):", ...rows), choices };
    }
    const matches = sessions.filter((s) => s.id === wanted || s.id.startsWith(wanted));
    if (matches.length === 0) return fail(`no session ${wanted} in this directory (/resume lists them)`);
    if (matches.length > 1 && !matches.some((s) => s.id === wanted))
      return fail(`${wanted} matches ${matches.length} sessions; give more of the id`);
    const target = matches.find((s) => s.id === wanted) ?? itemAt(matches, 0);
    if (target.id === current) return say(`already in session ${current}`);
    return act({ kind: "ResumeSession", id: target.id });
  },
};

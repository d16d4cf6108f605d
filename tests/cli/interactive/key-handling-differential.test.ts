// The split key handling (key-dispatch.ts deciding, key-actions.ts acting, double-press.ts,
// approval-queue.ts, prompt-area.ts, search-keys.ts, prompt-submit.ts, screen-painter.ts) against
// the closure it replaced (legacy-key-session.ts) on random key sequences: after every key the
// same draft and caret, the same bytes on the terminal, the same calls to the executor, the same
// exits and answers. Real parts on both sides; only the executor is a recorder.

import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config, PermissionMode } from "../../../src/config/config.ts";
import type { Executor } from "../../../src/executor/executor.ts";
import type { SessionFacts } from "../../../src/executor/slash-command.ts";
import type { Frame } from "../../../src/render/screen-diff.ts";
import { makeTheme } from "../../../src/render/theme.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../../src/tools/types.ts";
import { ApprovalQueue } from "../../../src/cli/interactive/approval-queue.ts";
import { DoublePress } from "../../../src/cli/interactive/double-press.ts";
import { HistoryFile } from "../../../src/cli/interactive/history-file.ts";
import { KeyHandler } from "../../../src/cli/interactive/key-actions.ts";
import type { Key } from "../../../src/cli/interactive/key-decoder.ts";
import { openPicker } from "../../../src/cli/interactive/list-picker.ts";
import { PromptArea } from "../../../src/cli/interactive/prompt-area.ts";
import { PromptEditor } from "../../../src/cli/interactive/prompt-editor.ts";
import { PromptSubmitter } from "../../../src/cli/interactive/prompt-submit.ts";
import { ScreenPainter } from "../../../src/cli/interactive/screen-painter.ts";
import { composeFrame } from "../../../src/cli/interactive/session-frame.ts";
import { SessionView } from "../../../src/cli/interactive/session-view.ts";
import { TypeAhead } from "../../../src/cli/interactive/type-ahead.ts";
import { legacyKeySession } from "./legacy-key-session.ts";

const FACTS: SessionFacts = {
  model: "anthropic/fake",
  sessionId: "20260101-000000-abc",
  cwd: "/work",
  usage: { input_tokens: 0, output_tokens: 0 },
  contextTokens: 0,
  contextWindow: 200_000,
  messagesInMemory: 0,
  shells: { spawned: 0, reused: 0, commandsRun: 0 },
  memory: { peakRssMb: 0, peakHeapMb: 0, rssMb: 0 },
  tasksRunning: 0,
  sandbox: undefined,
  permissionMode: "default",
};

/** The executor as the keys see it, recording what they ask of it. */
class RecordingExecutor {
  log: string[] = [];
  runningId: string | undefined;
  private n = 0;
  private mode: PermissionMode = "default";
  readonly runtime = {
    sessionId: FACTS.sessionId,
    permissionMode: "default" as PermissionMode,
    setPermissionMode: (m: PermissionMode) => {
      this.mode = m;
      this.runtime.permissionMode = m;
      this.log.push(`mode ${m}`);
    },
    mcpPromptCommands: () => ["mcp__docs__summarise"],
  };
  running = () => this.runningId;
  pending = () => 0;
  submit = (input: { text: string; images?: string[]; shellMode?: boolean }) => {
    this.log.push(`submit ${JSON.stringify(input)}`);
    return `s${++this.n}`;
  };
  waitFor = () => new Promise<never>(() => {});
  interrupt = (id?: string) => void this.log.push(`interrupt ${id ?? "running"}`);
  facts = () => ({ ...FACTS, permissionMode: this.mode });
}

function config(cwd: string): Config {
  return {
    cwd,
    color: false,
    theme: "dark",
    permissionMode: "default",
    notify: { kind: "off", afterSeconds: 0 },
    toolResultSummaryLimit: 80,
  } as unknown as Config;
}

const COLUMNS = 60;
const ROWS = 16;
const HISTORY = ["first prompt", "fix the bug", "/model fake"];

function legacySide(cwd: string) {
  const out: string[] = [];
  const exits: number[] = [];
  const executor = new RecordingExecutor();
  const theme = makeTheme(false);
  const view = new SessionView(theme, () => COLUMNS - 1, 80);
  const editor = new PromptEditor([...HISTORY]);
  const s = legacyKeySession({
    config: config(cwd),
    theme,
    view,
    out: (t) => void out.push(t),
    columns: () => COLUMNS,
    rows: () => ROWS,
    editor,
    history: new HistoryFile(mkdtempSync(join(tmpdir(), "synapse-legacy-"))),
    everywhere: [...HISTORY],
    executor: () => executor as unknown as Executor,
    exit: (code) => void exits.push(code),
    suspend: () => void out.push("<suspended>"),
  });
  return {
    out,
    exits,
    executor,
    editor,
    onKey: s.onKey,
    approve: s.approve,
    openPicker: s.openPicker,
  };
}

function splitSide(cwd: string) {
  const out: string[] = [];
  const exits: number[] = [];
  const executor = new RecordingExecutor();
  const theme = makeTheme(false);
  const width = () => COLUMNS - 1;
  const view = new SessionView(theme, width, 80);
  const area = new PromptArea(new PromptEditor([...HISTORY]));
  const approvals = new ApprovalQueue({ theme, asking: () => true, shown: () => painter.paint(), notify: () => {} });
  const press = new DoublePress(() => painter.paint());
  // As interactive-session.ts composes it.
  const frame = (spin: number): Frame =>
    composeFrame({
      theme,
      width: width(),
      rows: ROWS,
      editor: area.editor,
      view,
      spin,
      candidates: area.candidates,
      hint: area.search ? area.search.label() : press.hint(),
      menu: area.rows(approvals.current !== undefined),
      facts: executor.facts(),
      approval: approvals.current?.prompt,
      startMode: "default",
    });
  const painter = new ScreenPainter({
    out: (t) => void out.push(t),
    columns: () => COLUMNS,
    rows: () => ROWS,
    view,
    draws: () => true,
    frame,
    paused: () => approvals.current !== undefined,
  });
  const exit = (code: number) => void exits.push(code);
  const submitter = new PromptSubmitter({ view, theme, color: false, width, exit }, [], "dark");
  submitter.attach(executor as unknown as Executor);
  const keys = new KeyHandler({
    config: config(cwd),
    theme,
    width,
    view,
    area,
    press,
    painter,
    approvals,
    submitter,
    typeAhead: new TypeAhead(),
    history: new HistoryFile(mkdtempSync(join(tmpdir(), "synapse-split-"))),
    everywhere: [...HISTORY],
    executor: () => executor as unknown as Executor,
    exit,
    suspend: () => void out.push("<suspended>"),
  });
  return {
    out,
    exits,
    executor,
    editor: area.editor,
    onKey: keys.onKey,
    approve: (r: ApprovalRequest) => approvals.ask(r),
    openPicker: (choices: Parameters<typeof openPicker>[0]) => {
      area.picker = openPicker(choices);
    },
  };
}

/** A small seeded generator (mulberry32): the same sequences on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Esc only while a turn runs: on an idle empty prompt it now arms /rewind (a later feature).
type Step = { key: Key } | { toggleRunning: true } | { picker: true } | { escWhileRunning: true };

const KEYS: Key[] = [
  { kind: "text", text: "a" },
  { kind: "text", text: "fix" },
  { kind: "text", text: "/" },
  { kind: "text", text: "/m" },
  { kind: "text", text: "/theme light" },
  { kind: "text", text: "\\" },
  { kind: "text", text: " " },
  { kind: "text", text: "y" },
  { kind: "text", text: "n" },
  { kind: "paste", text: "two\nlines" },
  { kind: "enter" },
  { kind: "enter" },
  { kind: "newline" },
  { kind: "tab" },
  { kind: "back-tab" },
  { kind: "backspace" },
  { kind: "delete" },
  { kind: "page", to: "down" },
  { kind: "move", to: "up" },
  { kind: "move", to: "down" },
  { kind: "move", to: "left" },
  { kind: "move", to: "home" },
  { kind: "move", to: "up", shift: true },
  { kind: "delete-word-back" },
  ...["c", "c", "d", "d", "r", "r", "o", "l", "g", "k", "u", "w", "y", "a", "e", "z", "x"].map(
    (name): Key => ({ kind: "ctrl", name }),
  ),
];

function steps(rand: () => number, n: number): Step[] {
  const out: Step[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.04) out.push({ toggleRunning: true });
    else if (r < 0.06) out.push({ picker: true });
    else if (r < 0.1) out.push({ escWhileRunning: true });
    else out.push({ key: KEYS[Math.floor(rand() * KEYS.length)] ?? { kind: "enter" } });
  }
  return out;
}

const CHOICES = {
  command: "model",
  title: "models",
  items: [
    { value: "fake-a", label: "fake-a", current: true },
    { value: "fake-b", label: "fake-b" },
  ],
};
const REQUEST: ApprovalRequest = {
  tool: "Bash",
  input: { command: "make deploy" },
  reason: "not in the allow list",
  rule: "Bash(make deploy)",
  exact: true,
};

test("300 random key sequences: the split handles every key as the closure did", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "synapse-keys-"));
  let compared = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const rand = random(seed);
    const sides = [legacySide(cwd), splitSide(cwd)] as const;
    // A third of the sequences start with a question waiting.
    const answers: ApprovalAnswer[][] = [[], []];
    if (seed % 3 === 0) {
      sides.forEach((s, i) => void s.approve(REQUEST).then((a) => answers[i]?.push(a)));
      await Bun.sleep(0);
    }
    for (const [n, step] of steps(rand, 60).entries()) {
      for (const s of sides) {
        if (s.exits.length) continue; // a session on its way out takes no key
        if ("key" in step) s.onKey(step.key);
        else if ("picker" in step) s.openPicker(CHOICES);
        else if ("escWhileRunning" in step) {
          if (s.executor.runningId) s.onKey({ kind: "esc" });
        } else s.executor.runningId = s.executor.runningId ? undefined : "run-1";
      }
      const [a, b] = sides.map((s) => ({
        draft: s.editor.text,
        caret: s.editor.cursor,
        screen: s.out.join(""),
        executor: s.executor.log,
        exits: s.exits,
      }));
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        expect({ seed, n, step, ...b }).toEqual({ seed, n, step, ...a });
      }
      compared++;
    }
    await Bun.sleep(0);
    expect(answers[1]).toEqual(answers[0] ?? []);
  }
  expect(compared).toBe(300 * 60);
});

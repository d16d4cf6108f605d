// Raw mode through libc (src/runtime/direct-terminal.ts) must be the mode node:tty's setRawMode sets,
// and restore must give back the mode as it was: checked on a real pseudo-terminal (util-linux
// `script`), where `stty -g` prints the terminal's whole state before, during and after.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rawTermios } from "../../src/runtime/direct-terminal.ts";

const module = join(import.meta.dir, "../../src/runtime/direct-terminal.ts");
const hasScript = Bun.which("script") !== null && process.platform === "linux";

/** Runs `body` (a module's text) in bun on a fresh pseudo-terminal; its stdout, carriage returns dropped. */
function onTerminal(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), "direct-terminal-"));
  const file = join(dir, "probe.ts");
  writeFileSync(file, body);
  const run = Bun.spawnSync(["script", "-qfec", `stty cols 77 rows 21; ${process.execPath} ${file}`, "/dev/null"], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: process.env,
  });
  return run.stdout.toString().replace(/\r/g, "");
}

const stty = `const stty = () => Bun.spawnSync(["stty", "-g"], { stdin: "inherit" }).stdout.toString().trim();`;

describe.skipIf(!hasScript)("raw mode through libc", () => {
  test("is node's raw mode, is undone by restore, and reads the window's size", () => {
    const out = onTerminal(`
      import { openDirectTerminal } from ${JSON.stringify(module)};
      ${stty}
      const before = stty();
      process.stdin.setRawMode(true);
      const node = stty();
      process.stdin.setRawMode(false);
      const direct = await openDirectTerminal();
      const took = direct?.raw();
      const ours = stty();
      direct?.restore();
      console.log(JSON.stringify({ before, node, took, ours, after: stty(), size: direct?.size() }));
      process.exit(0);
    `);
    const r = JSON.parse(out.trim().split("\n").at(-1)!);
    expect(r.took).toBe(true);
    expect(r.node).not.toBe(r.before);
    expect(r.ours).toBe(r.node);
    expect(r.after).toBe(r.before);
    expect(r.size).toEqual({ columns: 77, rows: 21 });
  });

  test("restore gives back a mode the terminal had before, not a cooked default", () => {
    const out = onTerminal(`
      import { openDirectTerminal } from ${JSON.stringify(module)};
      ${stty}
      Bun.spawnSync(["stty", "-echo", "-ixon"], { stdin: "inherit" });
      const before = stty();
      const direct = await openDirectTerminal();
      direct?.raw();
      direct?.restore();
      console.log(JSON.stringify({ before, after: stty() }));
      process.exit(0);
    `);
    const r = JSON.parse(out.trim().split("\n").at(-1)!);
    expect(r.after).toBe(r.before);
  });
});

describe("the raw termios bytes", () => {
  // [word offset, bits that must be clear, bits that must be set]
  const words: Array<[string, number, number, number]> = [
    ["c_iflag: BRKINT ICRNL INPCK ISTRIP IXON off", 0, 0o2 | 0o400 | 0o20 | 0o40 | 0o2000, 0],
    ["c_oflag: ONLCR on (a newline still returns the carriage)", 4, 0, 0o4],
    ["c_cflag: CS8 on", 8, 0, 0o60],
    ["c_lflag: ECHO ICANON IEXTEN ISIG off", 12, 0o10 | 0o2 | 0o100000 | 0o1, 0],
  ];
  const cooked = new Uint8Array(60).fill(0xff);
  const raw = rawTermios(cooked);
  const view = new DataView(raw.buffer);
  for (const [what, at, clear, set] of words) {
    test(what, () => {
      const v = view.getUint32(at, true);
      expect((v & clear) >>> 0).toBe(0);
      expect((v & set) >>> 0).toBe(set);
      // Every other bit is left as it was.
      expect((v | clear) >>> 0).toBe(0xffffffff);
    });
  }
  test("VMIN 1, VTIME 0; the rest of c_cc and the speeds as they were; the input not changed", () => {
    expect(raw[17 + 6]).toBe(1);
    expect(raw[17 + 5]).toBe(0);
    expect([...raw.slice(16, 22), ...raw.slice(24)].every((b) => b === 0xff)).toBe(true);
    expect(cooked.every((b) => b === 0xff)).toBe(true);
  });
});

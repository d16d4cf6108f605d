// The terminal's raw mode and size straight from libc (tcgetattr, tcsetattr, ioctl TIOCGWINSZ)
// through bun:ffi, for the interactive session's first frame: process.stdin and process.stdout
// load node:tty and node:stream (~10 ms of a compiled binary's start), which the session can then
// do after that frame is drawn, the terminal already raw so a key typed meanwhile waits unechoed.
// Linux on x86-64 and arm64 only, where struct termios and these constants are the generic ones;
// elsewhere, under Deno, or when a call fails: undefined, and the caller asks node:tty instead.

/** Raw mode on one terminal and the size of another, and the first one's mode as it was. */
export interface DirectTerminal {
  /** Raw mode as libuv (node's setRawMode) sets it; false when the terminal refused it. */
  raw(): boolean;
  /** Puts back the mode the terminal had when this was opened (again and again, harmlessly). */
  restore(): void;
  /** The output terminal's size, or undefined when the kernel does not say. */
  size(): { columns: number; rows: number } | undefined;
}

// <asm-generic/termbits.h>: struct termios is four u32 flag words, c_line, then c_cc.
const IFLAG = 0;
const OFLAG = 4;
const CFLAG = 8;
const LFLAG = 12;
const CC = 17;
const VTIME = 5;
const VMIN = 6;
const BRKINT = 0o2;
const INPCK = 0o20;
const ISTRIP = 0o40;
const ICRNL = 0o400;
const IXON = 0o2000;
const ONLCR = 0o4;
const CS8 = 0o60;
const ISIG = 0o1;
const ICANON = 0o2;
const ECHO = 0o10;
const IEXTEN = 0o100000;
const TCSADRAIN = 1;
const TIOCGWINSZ = 0x5413;
/** Larger than glibc's struct termios (60 bytes): the kernel never writes past it. */
const TERMIOS_BYTES = 128;

interface Libc {
  tcgetattr(fd: number, termios: Uint8Array): number;
  tcsetattr(fd: number, when: number, termios: Uint8Array): number;
  ioctl(fd: number, request: number, out: Uint8Array): number;
}

/** The termios bytes of raw mode made from `original`, as libuv's uv_tty_set_mode(UV_TTY_MODE_RAW). */
export function rawTermios(original: Uint8Array): Uint8Array {
  const raw = original.slice();
  const words = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const set = (at: number, f: (v: number) => number) => words.setUint32(at, f(words.getUint32(at, true)) >>> 0, true);
  set(IFLAG, (v) => v & ~(BRKINT | ICRNL | INPCK | ISTRIP | IXON));
  set(OFLAG, (v) => v | ONLCR);
  set(CFLAG, (v) => v | CS8);
  set(LFLAG, (v) => v & ~(ECHO | ICANON | IEXTEN | ISIG));
  raw[CC + VMIN] = 1;
  raw[CC + VTIME] = 0;
  return raw;
}

/** `input` is made raw and restored; `output`'s size is read. Undefined where this cannot work. */
export async function openDirectTerminal(input = 0, output = 1): Promise<DirectTerminal | undefined> {
  if (process.platform !== "linux" || !["x64", "arm64"].includes(process.arch)) return undefined;
  if ("Deno" in globalThis || !("Bun" in globalThis)) return undefined;
  try {
    const { dlopen, FFIType } = await import("bun:ffi");
    const { i32, u64, ptr } = FFIType;
    const libc = dlopen("libc.so.6", {
      tcgetattr: { args: [i32, ptr], returns: i32 },
      tcsetattr: { args: [i32, i32, ptr], returns: i32 },
      ioctl: { args: [i32, u64, ptr], returns: i32 },
    }).symbols as unknown as Libc;
    const original = new Uint8Array(TERMIOS_BYTES);
    if (libc.tcgetattr(input, original) !== 0) return undefined;
    return directTerminal(libc, input, output, original);
  } catch {
    return undefined;
  }
}

function directTerminal(libc: Libc, input: number, output: number, original: Uint8Array): DirectTerminal {
  const raw = rawTermios(original);
  const winsize = new Uint8Array(8);
  return {
    raw: () => libc.tcsetattr(input, TCSADRAIN, raw) === 0,
    restore: () => {
      libc.tcsetattr(input, TCSADRAIN, original);
    },
    size: () => {
      if (libc.ioctl(output, TIOCGWINSZ, winsize) !== 0) return undefined;
      const words = new DataView(winsize.buffer);
      const rows = words.getUint16(0, true);
      const columns = words.getUint16(2, true);
      return columns > 0 && rows > 0 ? { columns, rows } : undefined;
    },
  };
}

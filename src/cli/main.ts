// Entry point: parse the command line, dispatch, and turn every failure into one line on stderr
// and a documented exit code.

import { EXIT, SynapseError, errorMessage } from "../protocol/errors.ts";
import { HELP_TEXT, VERSION } from "./help.ts";

// Bun.write, not process.stdout: creating process.stdout costs ~8 ms in a compiled binary.
const print = (text: string) => Bun.write(Bun.stdout, text);
const VERSION_LINE = `synapse ${VERSION}\n`;
const QUICK: Record<string, string> = { "--version": VERSION_LINE, "-v": VERSION_LINE, "--help": HELP_TEXT, "-h": HELP_TEXT };

async function main(argv: string[]): Promise<number> {
  // The commonest quick calls skip argument parsing (node:util) altogether.
  const quick = argv.length === 1 ? QUICK[argv[0]] : undefined;
  if (quick) {
    await print(quick);
    return EXIT.ok;
  }
  const { parseCommandLine } = await import("./args.ts");
  const { command, flags } = parseCommandLine(argv);
  if (command.kind === "help") {
    await print(HELP_TEXT);
    return EXIT.ok;
  }
  if (command.kind === "version") {
    await print(VERSION_LINE);
    return EXIT.ok;
  }
  // Everything past this point loads lazily so --help and --version stay fast.
  const { loadConfig } = await import("../config/load.ts");
  const config = loadConfig(flags);
  switch (command.kind) {
    case "sessions":
      return (await import("./sessions-command.ts")).runSessionsCommand(config);
    case "doctor":
      return (await import("./doctor.ts")).runDoctor(config);
    case "run":
      return (await import("./headless.ts")).runHeadless(config, command);
  }
}

function fail(err: unknown): number {
  if (err instanceof SynapseError) {
    process.stderr.write(`synapse: ${err.message}\n`);
    return err.exitCode;
  }
  process.stderr.write(`synapse: internal error: ${errorMessage(err)}\n`);
  return EXIT.failed;
}

// No top-level await: the binary is compiled to bytecode, which does not allow it.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => process.exit(fail(err)),
);

// Entry point: parse the command line, dispatch, and turn every failure into one line on stderr
// and a documented exit code.

import { EXIT, SynapseError, errorMessage } from "../protocol/errors.ts";
import { parseCommandLine } from "./args.ts";
import { HELP_TEXT, VERSION } from "./help.ts";

async function main(argv: string[]): Promise<number> {
  const { command, flags } = parseCommandLine(argv);
  if (command.kind === "help") {
    process.stdout.write(HELP_TEXT);
    return EXIT.ok;
  }
  if (command.kind === "version") {
    process.stdout.write(`synapse ${VERSION}\n`);
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

let code: number;
try {
  code = await main(process.argv.slice(2));
} catch (err) {
  code = fail(err);
}
process.exit(code);

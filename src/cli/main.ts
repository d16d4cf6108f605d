// Entry point: parse the command line, dispatch, and turn every failure into one line on stderr
// and a documented exit code.

import { startupMark, startupTrace } from "../runtime/startup-trace.ts";
import { EXIT, SynapseError, UsageError, errorMessage } from "../protocol/errors.ts";
import { inert } from "../render/inert.ts";
import { HELP_TEXT, VERSION } from "./help.ts";
import { printQuick } from "../runtime/quick-print.ts";
import { outputFailure, readerWentAway } from "./output/write-failure.ts";

/** Not process.stdout (creating that costs ~8 ms in a compiled binary). A reader gone away is no error. */
const print = (text: string) =>
  printQuick(text).catch((err) => {
    if (!readerWentAway(err)) throw outputFailure(err);
  });
const VERSION_LINE = `synapse ${VERSION}\n`;
const QUICK: Record<string, string> = {
  "--version": VERSION_LINE,
  "-v": VERSION_LINE,
  "--help": HELP_TEXT,
  "-h": HELP_TEXT,
};

async function main(argv: string[]): Promise<number> {
  // The commonest quick calls skip argument parsing (node:util) altogether.
  const [only] = argv;
  const quick = argv.length === 1 && only !== undefined ? QUICK[only] : undefined;
  if (quick) {
    await print(quick);
    return EXIT.ok;
  }
  startupMark("main");
  const { parseCommandLine } = await import("./args.ts");
  startupMark("args");
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
  const config = await startConfig(flags);
  startupMark("config");
  // Before any child starts: no process of ours may show the keys in /proc/<pid>/environ.
  await (await import("../runtime/environ-secrets.ts")).blankSecretsInProcEnviron(config.shell.hiddenSet);
  // Then (blanking writes through /proc/self/mem, which this closes) no process of the same user
  // may read synapse's memory, environ or descriptors, and every program synapse runs for itself
  // is found on a PATH the workspace cannot put a folder in front of.
  await (await import("../runtime/non-dumpable.ts")).markNonDumpable();
  (await import("../runtime/trusted-path.ts")).initTrustedPath(config.shell.env.PATH, config.cwd);
  startupMark("secured");
  switch (command.kind) {
    case "sessions":
      return (await import("./sessions-command.ts")).runSessionsCommand(config, command);
    case "doctor":
      return (await import("./doctor.ts")).runDoctor(config);
    case "compact":
      return (await import("./compact-command.ts")).runCompactCommand(config, command);
    case "mcp":
      return (await import("./mcp-command.ts")).runMcpCommand(config, command.args);
    case "acp": {
      const { checkWorkDirs } = await import("./work-dirs.ts");
      // Each session works in the folder the editor names, read like -C: its project config, its checks.
      const { loadConfig } = await import("../config/load.ts");
      const configFor = (cwd: string, addDirs: readonly string[] = []) => {
        const sessionConfig = loadConfig({ ...flags, cwd, addDir: [...(flags.addDir ?? []), ...addDirs] });
        checkWorkDirs(sessionConfig);
        return sessionConfig;
      };
      return (await import("../acp/acp-server.ts")).runAcp({
        configFor,
        home: config.home,
        version: VERSION,
        secrets: config.secrets,
      });
    }
    case "run": {
      (await import("./work-dirs.ts")).checkWorkDirs(config);
      // Terminals on both ends and no prompt: the interactive session. Its code loads only here.
      const { terminalFacts } = await import("./terminal.ts");
      const tty = terminalFacts();
      if (command.prompt === undefined && tty.inIsTTY && tty.outIsTTY && config.outputFormat === "text") {
        // Structured output is for programs; the interactive session does not take it.
        if (config.outputSchema) throw new UsageError("--json-schema and --output-schema need a prompt (or stdin)");
        return (await import("./interactive/interactive-session.ts")).runInteractive(config, command);
      }
      if (command.sdk?.inputFormat === "stream-json")
        return (await import("./sdk-run.ts")).runSdk(config, command, command.sdk);
      const hl = await import("./headless.ts");
      return hl.runHeadless(config, command);
    }
  }
}

/** The config of this start: the files' schemas load only when a config file exists. */
async function startConfig(flags: import("../config/config.ts").ConfigFlags) {
  const { configFromFiles, hasConfigFile, readConfigFiles } = await import("../config/config-files.ts");
  const files = readConfigFiles(flags);
  const check = hasConfigFile(files) ? (await import("../config/file-config.ts")).checkFileConfig : undefined;
  return configFromFiles(files, check);
}

function fail(err: unknown): number {
  if (err instanceof SynapseError) {
    // Messages may quote paths, API answers or file contents: never escape codes that act.
    process.stderr.write(`synapse: ${inert(err.message)}\n`);
    return err.exitCode;
  }
  process.stderr.write(`synapse: internal error: ${inert(errorMessage(err))}\n`);
  return EXIT.failed;
}

// The process ends here and only here, with main's code. Without this handle, a shutdown that
// awaits only unref'd things (the shells' watchdogs) let the event loop drain: Bun then ended the
// process with status 0, before process.exit(code) and before the session lock was released.
const keepAlive = setInterval(() => {}, 1 << 30);

// No top-level await: the binary is compiled to bytecode, which does not allow it.
main(process.argv.slice(2)).then(
  (code) => {
    clearInterval(keepAlive);
    const trace = startupTrace();
    if (trace) process.stderr.write(trace);
    process.exit(code);
  },
  (err) => {
    clearInterval(keepAlive);
    process.exit(fail(err));
  },
);

// Why a stdio MCP server did not start, in words: which of two pipe errors arrives first when a
// server exits at once (EPIPE on our write, or the SDK's "Connection closed") is a race, and
// neither says what happened; a spawn error names a system call. Pure.

const SAYINGS: Array<[pattern: RegExp, says: (command: string) => string]> = [
  [/\bENOENT\b.*spawn/, (command) => `could not run ${command}: no such file`],
  [/\bEACCES\b.*spawn/, (command) => `could not run ${command}: permission denied`],
  [/\bEPIPE\b|Connection closed/, () => "the server exited before the MCP handshake (see its log)"],
];

/** The reason to show for `message`, the error a stdio server's start ended with; others unchanged. */
export function stdioStartFailure(message: string, command: string): string {
  for (const [pattern, says] of SAYINGS) if (pattern.test(message)) return says(command);
  return message;
}

// A stdio server's failed start in words, whichever pipe error won the race.

import { expect, test } from "bun:test";
import { stdioStartFailure } from "../../src/mcp/start-failure.ts";

test.each([
  ["EPIPE: broken pipe, write", "the server exited before the MCP handshake (see its log)"],
  ["MCP error -32000: Connection closed", "the server exited before the MCP handshake (see its log)"],
  ["ENOENT: no such file or directory, posix_spawn '/no/bin'", "could not run /no/bin: no such file"],
  ["EACCES: permission denied, posix_spawn '/no/bin'", "could not run /no/bin: permission denied"],
  [
    "starting the server (SYNAPSE_MCP_TIMEOUT_MS) took more than 30000 ms",
    "starting the server (SYNAPSE_MCP_TIMEOUT_MS) took more than 30000 ms",
  ],
])("%s → %s", (message, said) => {
  expect(stdioStartFailure(message, "/no/bin")).toBe(said);
});

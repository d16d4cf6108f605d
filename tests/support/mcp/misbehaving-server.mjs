// A small MCP server over stdio, in plain JSON-RPC lines (no SDK), that misbehaves on request:
//   node misbehaving-server.mjs <mode> [marker-file]
// Tools: `ok` (answers "ok from <pid>"), `crash` (exits mid-call), `hang` (never answers),
// `big` (a 5 MB text), `grow` (adds the tool `extra` and sends tools/list_changed).
// Modes: "normal"; "garbage" (writes lines that are not JSON-RPC before each answer);
// "hang-start" (never answers initialize); "stubborn" (outlives the end of its stdin, ignores SIGTERM
// and SIGHUP, and starts a child that does the same: only a kill of its whole session ends them).
// With a marker file, each start appends its pid there. More arguments are ignored (a word for ps).

import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const [mode = "normal", marker, ...words] = process.argv.slice(2);
if (marker && marker !== "-") appendFileSync(marker, `${process.pid}\n`);
if (mode === "stubborn") {
  for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"]) process.on(signal, () => {});
  setInterval(() => {}, 1 << 30);
  const keep = "for (const s of ['SIGTERM','SIGHUP','SIGINT']) process.on(s, () => {}); setInterval(() => {}, 1 << 30)";
  spawn(process.execPath, ["-e", keep, "child", ...words], { stdio: "ignore" });
}
const schema = { type: "object", properties: {} };
const tools = [
  { name: "ok", description: "answers ok", inputSchema: schema, annotations: { readOnlyHint: true } },
  { name: "crash", description: "exits mid-call", inputSchema: schema },
  { name: "hang", description: "never answers", inputSchema: schema },
  { name: "big", description: "5 MB of text", inputSchema: schema },
  { name: "grow", description: "adds a tool", inputSchema: schema },
];
const send = (message) => {
  if (mode === "garbage") process.stdout.write("this is not JSON-RPC\n{\"half\": \n");
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
};
const text = (t) => ({ content: [{ type: "text", text: t }] });

createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  const reply = (result) => send({ id: msg.id, result });
  switch (msg.method) {
    case "initialize":
      if (mode === "hang-start") return;
      return reply({ protocolVersion: msg.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: "misbehaving", version: "1" } });
    case "tools/list":
      return reply({ tools });
    case "tools/call":
      switch (msg.params.name) {
        case "ok":
          return reply(text(`ok from ${process.pid}`));
        case "crash":
          process.stderr.write("crashing now\n");
          return process.exit(3);
        case "hang":
          return;
        case "big":
          return reply(text("x".repeat(5 * 1024 * 1024)));
        case "grow":
          tools.push({ name: "extra", description: "the added tool", inputSchema: schema });
          send({ method: "notifications/tools/list_changed" });
          return reply(text("grown"));
        default:
          return send({ id: msg.id, error: { code: -32602, message: `no tool ${msg.params.name}` } });
      }
    default:
      return send({ id: msg.id, error: { code: -32601, message: `no method ${msg.method}` } });
  }
});

// Runs every benchmark in turn and prints their figures (`npm run bench`).
import "./temp-root.ts";
const benches = [
  "./startup.ts",
  "./agent-loop.ts",
  "./shell.ts",
  "./shell-binary.ts",
  "./sandbox.ts",
  "./store.ts",
  "./session-memory.ts",
  "./context.ts",
  "./compact.ts",
  "./search.ts",
  "./tasks.ts",
  "./interactive.ts",
  "./acp.ts",
  "./mcp.ts",
];
for (const path of benches) {
  console.log(`\n== ${path.slice(2, -3)}`);
  const mod = await import(path);
  await mod.main();
}

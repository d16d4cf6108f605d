// `synapse doctor`: checks the parts a run depends on, from inside this very binary.

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/config.ts";
import { probeProvider } from "../llm/provider-probe.ts";
import { inertLine } from "../render/inert.ts";
import { EXIT, errorMessage } from "../protocol/errors.ts";
import { createThreadPool } from "../tasks/thread-pool.ts";
import { searchEngine } from "../tools/search-engine.ts";
import { runtime } from "../runtime/runtime.ts";
import { which } from "../runtime/portable.ts";
import { printOut } from "./output/print.ts";

const DOCTOR_PROVIDER_TIMEOUT_MS = 15_000;

interface Check {
  name: string;
  run(): Promise<string>;
}

function checks(config: Config): Check[] {
  return [
    {
      name: "worker threads",
      async run() {
        const pool = await createThreadPool<{ n: number }, { pong: number; thread: boolean }>("ping", 1);
        try {
          const reply = await pool.run({ n: 21 });
          if (reply.pong !== 42 || !reply.thread) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
          return "a worker thread answered";
        } finally {
          await pool.destroy();
        }
      },
    },
    {
      name: "bash",
      async run() {
        const bash = which("bash", config.shell.env.PATH ?? "");
        if (!bash) throw new Error("bash not found on PATH");
        const proc = runtime.spawn([bash, "-c", "echo $BASH_VERSION"], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
        const version = (await new Response(proc.stdout).text()).trim();
        if ((await proc.exited) !== 0) throw new Error("bash did not run");
        return `${bash} ${version}`;
      },
    },
    {
      name: "session store",
      async run() {
        mkdirSync(config.home, { recursive: true, mode: 0o700 });
        const probe = join(config.home, `.doctor-${process.pid}`);
        writeFileSync(probe, "ok", { mode: 0o600 });
        rmSync(probe);
        return `${config.home} is writable`;
      },
    },
    {
      name: "search",
      async run() {
        // Unpacks rg on first use, as Grep would; a fallback still searches, only slower.
        const engine = await searchEngine(config.cacheDir);
        if (engine.kind === "ripgrep") return `ripgrep ${engine.version} (${engine.path})`;
        return `built-in JavaScript search: ${engine.reason}`;
      },
    },
    {
      name: "provider",
      async run() {
        // One real, cheap request: a wrong base URL, a dead server or a bad key shows here.
        const probe = await probeProvider(config, AbortSignal.timeout(DOCTOR_PROVIDER_TIMEOUT_MS));
        const listed = probe.modelListed ? "listed" : "not listed";
        return `${probe.provider}/${probe.model} at ${probe.url} answered: ${probe.modelCount} models (${probe.model} ${listed})`;
      },
    },
  ];
}

export async function runDoctor(config: Config): Promise<number> {
  let failed = 0;
  for (const check of checks(config)) {
    try {
      // Server-controlled words (an error body, a model id) reach the terminal made inert.
      await printOut(`ok    ${check.name}: ${inertLine(await check.run())}\n`);
    } catch (err) {
      failed++;
      await printOut(`FAIL  ${check.name}: ${inertLine(errorMessage(err))}\n`);
    }
  }
  return failed ? EXIT.failed : EXIT.ok;
}

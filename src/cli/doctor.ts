// `synapse doctor`: checks the parts a run depends on, from inside this very binary.

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/config.ts";
import { probeProvider } from "../llm/provider-probe.ts";
import { inertLine } from "../render/inert.ts";
import { EXIT, errorMessage } from "../protocol/errors.ts";
import { createTaskPool } from "../tasks/task-pool.ts";
import { workerFile } from "../tasks/worker-file.ts";
import { searchEngine } from "../tools/search-engine.ts";
import { runtime } from "../runtime/runtime.ts";
import { trustedBinary } from "../runtime/trusted-path.ts";
import { printOut } from "./output/print.ts";
import { sandboxState } from "../sandbox/probe.ts";
import { describeSandbox } from "../sandbox/types.ts";

const DOCTOR_PROVIDER_TIMEOUT_MS = 15_000;
const DOCTOR_WORKER_TIMEOUT_MS = 30_000;

interface Check {
  name: string;
  run(): Promise<string>;
}

/** A check that found something to tell but nothing that stops a run (printed WARN, exit 0). */
class CheckWarning extends Error {}

function checks(config: Config): Check[] {
  return [
    {
      name: "worker threads",
      async run() {
        // The very pool sub-agents run in: its slots, message port, time limit and heap cap.
        const pool = await createTaskPool({
          filename: workerFile("ping"),
          maxThreads: 1,
          timeoutMs: DOCTOR_WORKER_TIMEOUT_MS,
          heapCapBytes: 256 * 1048576,
        });
        try {
          const end = await pool.run<{ n: number }, { pong: number; thread: boolean }>(
            { n: 21 },
            {
              signal: AbortSignal.timeout(DOCTOR_WORKER_TIMEOUT_MS),
              onMessage: (m, reply) => m?.t === "echo" && reply({ n: m.n }),
            },
          );
          if (!end.ok) throw new Error(`the task pool's worker ${end.reason}: ${end.message}`);
          if (end.value.pong !== 42 || !end.value.thread)
            throw new Error(`unexpected reply ${JSON.stringify(end.value)}`);
          return "a worker thread of the sub-agent task pool answered over its message port";
        } finally {
          await pool.destroy();
        }
      },
    },
    {
      name: "bash",
      async run() {
        // The bash the shell pool runs, found the same way: never a `bash` the workspace put first on PATH.
        const bash = trustedBinary("bash");
        if (!bash) throw new Error("bash not found on the trusted PATH");
        const proc = runtime.spawn([bash, "--noprofile", "--norc", "-c", "echo $BASH_VERSION"], {
          env: { ...config.shell.env },
          stdin: "ignore",
          stdout: "pipe",
          stderr: "pipe",
        });
        const version = (await new Response(proc.stdout).text()).trim();
        if ((await proc.exited) !== 0) throw new Error("bash did not run");
        return `${bash} ${version}`;
      },
    },
    {
      name: "sandbox",
      async run() {
        // The same probe a session makes: bwrap found on the trusted PATH and starting a sandbox.
        const state = await sandboxState(config.sandbox, config.shell.env);
        const line = describeSandbox(state);
        if (state.kind === "none" && state.mode !== "full-access") throw new CheckWarning(line);
        return line;
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
        const where = `${probe.provider}/${probe.model} at ${probe.url}`;
        return `${where} answered: ${probe.modelCount} models (${probe.model} ${listed})`;
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
      if (err instanceof CheckWarning) {
        await printOut(`WARN  ${check.name}: ${inertLine(err.message)}\n`);
        continue;
      }
      failed++;
      await printOut(`FAIL  ${check.name}: ${inertLine(errorMessage(err))}\n`);
    }
  }
  return failed ? EXIT.failed : EXIT.ok;
}

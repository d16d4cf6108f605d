// `synapse doctor`: checks the parts a run depends on, from inside this very binary.

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/config.ts";
import { selectProvider } from "../llm/select.ts";
import { EXIT, errorMessage } from "../protocol/errors.ts";
import { createThreadPool } from "../tasks/thread-pool.ts";

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
        const bash = Bun.which("bash");
        if (!bash) throw new Error("bash not found on PATH");
        const proc = Bun.spawn([bash, "-c", "echo $BASH_VERSION"], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
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
      name: "provider",
      async run() {
        const provider = selectProvider(config);
        return `${provider.name}/${provider.model}`;
      },
    },
  ];
}

export async function runDoctor(config: Config): Promise<number> {
  let failed = 0;
  for (const check of checks(config)) {
    try {
      process.stdout.write(`ok    ${check.name}: ${await check.run()}\n`);
    } catch (err) {
      failed++;
      process.stdout.write(`FAIL  ${check.name}: ${errorMessage(err)}\n`);
    }
  }
  return failed ? EXIT.failed : EXIT.ok;
}

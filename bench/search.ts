// Grep and Glob on a generated tree of ~50,000 files / ~500 MB against ripgrep run directly on the
// same tree: time (tool inside the compiled binary, timed by the fake server between the model's
// reply and the next request) and the binary's peak RSS. Results are checked against rg's first.
// The tree is written under the temp folder and deleted afterwards. `bun bench/search.ts [files]`

import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLLM } from "../tests/support/fake-llm.ts";
import { BINARY, providerEnv, tempHome } from "../tests/support/binary.ts";
import { ripgrepAsset } from "../src/tools/ripgrep-asset.ts";
import { measure, median } from "./measure.ts";

const RUNS = 5;
const NEEDLE_EVERY = 500;

/** A small deterministic PRNG, so every run builds the same tree. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

function generateTree(root: string, files: number): { bytes: number; needles: number; dts: number } {
  const rand = prng(42);
  const words = [
    "const",
    "let",
    "function",
    "return",
    "import",
    "export",
    "value",
    "result",
    "buffer",
    "stream",
    "handler",
    "options",
    "config",
    "index",
    "length",
    "promise",
    "await",
    "async",
    "string",
    "number",
  ];
  const lines: string[] = [];
  for (let i = 0; i < 4000; i++) {
    let line = "  ".repeat(Math.floor(rand() * 4));
    const n = 3 + Math.floor(rand() * 12);
    for (let j = 0; j < n; j++)
      line += words[Math.floor(rand() * words.length)] + (rand() < 0.2 ? `${i}_${j}` : "") + (j < n - 1 ? " " : ";");
    lines.push(line);
  }
  let bytes = 0;
  let needles = 0;
  let dts = 0;
  const made = new Set<string>();
  for (let i = 0; i < files; i++) {
    const dir = join(root, `pkg${i % 50}`, `lib${Math.floor(i / 50) % 40}`, `m${Math.floor(i / 2000)}`);
    if (!made.has(dir)) mkdirSync(dir, { recursive: true });
    made.add(dir);
    const target = 2000 + Math.floor(rand() * 16000);
    const parts: string[] = [];
    let size = 0;
    while (size < target) {
      const line = lines[Math.floor(rand() * lines.length)]!;
      parts.push(line);
      size += line.length + 1;
    }
    if (i % NEEDLE_EVERY === 7) {
      parts.splice(
        Math.floor(parts.length / 2),
        0,
        `  const digest = createHash("sha256").update(data${i}).digest("hex");`,
      );
      needles++;
    }
    const isDts = i % 5 === 0;
    if (isDts) dts++;
    const text = `${parts.join("\n")}\n`;
    writeFileSync(join(dir, `file${i}${isDts ? ".d.ts" : ".js"}`), text);
    bytes += text.length;
  }
  return { bytes, needles, dts };
}

function rg(args: string[]): { ms: number; out: string } {
  const t0 = performance.now();
  const r = spawnSync(ripgrepAsset!.path, args, { encoding: "utf8", maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`rg ${args.join(" ")} failed: ${r.stderr}`);
  return { ms, out: r.stdout };
}

/** One Grep/Glob call from the compiled binary: the tool's result, its time, the process's peak RSS. */
async function binaryCall(binary: string, cwd: string, name: string, input: unknown) {
  const server = await startFakeLLM([{ toolCalls: [{ name, input }] }, { text: "done" }]);
  const home = tempHome();
  const r = await measure([binary, "-o", "json", "search"], { cwd, env: { ...home.env, ...providerEnv(server.url) } });
  await server.stop();
  rmSync(home.dir, { recursive: true, force: true });
  if (r.code !== 0) throw new Error(`binary run failed: ${r.stdout} ${r.stderr}`);
  const [first, second] = server.requests;
  const block = second!.body.messages.at(-1).content.find((b: any) => b.type === "tool_result");
  return { result: String(block.content), toolMs: second!.receivedAt - first!.finishedAt!, peakRssMb: r.peakRssMb };
}

const sorted = (text: string) =>
  text
    .split("\n")
    .filter((l) => l && !l.startsWith("("))
    .sort();
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

export async function main(files = Number(process.argv[2] ?? 50_000)) {
  const free = statfsSync(tmpdir());
  const freeMb = (free.bavail * free.bsize) / 1024 / 1024;
  if (freeMb < 4000) throw new Error(`only ${freeMb.toFixed(0)} MB free under ${tmpdir()}; the bench needs ~1.5 GB`);
  const root = mkdtempSync(join(tmpdir(), "synapse-search-bench-"));
  try {
    const t0 = performance.now();
    const treeDir = join(root, "tree");
    const tree = generateTree(treeDir, files);
    console.log(
      `tree: ${files} files, ${(tree.bytes / 1e6).toFixed(0)} MB, ${tree.needles} with the needle, ${tree.dts} .d.ts (${((performance.now() - t0) / 1000).toFixed(1)} s to write)`,
    );
    // A private copy, alone in its folder: no node_modules beside it, and no rebuild mid-bench.
    const binary = join(root, "bin", "synapse");
    mkdirSync(join(root, "bin"));
    copyFileSync(BINARY, binary);
    console.log(`binary: ${(statSync(binary).size / 1e6).toFixed(1)} MB`);

    const cases = [
      {
        label: "Grep createHash\\( (files_with_matches)",
        tool: "Grep",
        input: { pattern: "createHash\\(" },
        rgArgs: ["--files-with-matches", "createHash\\(", treeDir],
      },
      {
        label: "Grep createHash\\( (content)",
        tool: "Grep",
        input: { pattern: "createHash\\(", output_mode: "content" },
        rgArgs: ["--line-number", "--with-filename", "createHash\\(", treeDir],
      },
      {
        label: "Glob **/* (every file: only the newest 100 are kept)",
        tool: "Glob",
        input: { pattern: "**/*" },
        rgArgs: ["--files", treeDir],
      },
      {
        label: "Glob **/*.d.ts",
        tool: "Glob",
        input: { pattern: "**/*.d.ts" },
        rgArgs: ["--files", "--glob", "*.d.ts", treeDir],
      },
    ];
    // Matches on nearly every line (hundreds of MB of output from rg -n): the search is stopped at
    // the cap, so time and memory stay small; checked line by line against the files.
    const flood = await binaryCall(binary, treeDir, "Grep", { pattern: "return", output_mode: "content" });
    const floodLines = flood.result.split("\n");
    if (
      floodLines.length !== 201 ||
      !floodLines.slice(0, 200).every((l) => /^\/.+:\d+:.*return/.test(l)) ||
      !floodLines[200]!.startsWith("(truncated")
    ) {
      throw new Error(`Grep return: unexpected result ${flood.result.slice(0, 300)}`);
    }
    const floodRuns = [flood];
    for (let i = 1; i < RUNS; i++)
      floodRuns.push(await binaryCall(binary, treeDir, "Grep", { pattern: "return", output_mode: "content" }));
    console.log(
      `Grep return (content, matches everywhere, cut at 200): Synapse ${fmt(median(floodRuns.map((r) => r.toolMs)))}, peak RSS ${Math.max(...floodRuns.map((r) => r.peakRssMb)).toFixed(0)} MiB`,
    );

    for (const c of cases) {
      // Warm the page cache and check the answer before any timing.
      const direct = rg(c.rgArgs);
      const ours = await binaryCall(binary, treeDir, c.tool, c.input);
      if (c.tool === "Glob") {
        const all = sorted(direct.out);
        const note = /showing (\d+) of (\d+) files/.exec(ours.result);
        if (!note || Number(note[2]) !== all.length)
          throw new Error(`Glob total differs from rg's ${all.length}: ${ours.result.slice(-200)}`);
        const newest = all
          .map((p) => ({ p, t: statSync(p).mtimeMs }))
          .sort((a, b) => b.t - a.t || (a.p < b.p ? -1 : 1))
          .slice(0, 100);
        const shown = ours.result.split("\n").filter((l) => !l.startsWith("("));
        if (shown.some((p, i) => statSync(p).mtimeMs !== newest[i]!.t))
          throw new Error("Glob's newest 100 differ from rg's listing");
      } else if (JSON.stringify(sorted(direct.out)) !== JSON.stringify(sorted(ours.result))) {
        throw new Error(
          `${c.label}: results differ from rg's\n${ours.result.slice(0, 500)}\n---\n${direct.out.slice(0, 500)}`,
        );
      }
      const rgMs: number[] = [];
      const toolMs: number[] = [];
      const rss: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        rgMs.push(rg(c.rgArgs).ms);
        const run = await binaryCall(binary, treeDir, c.tool, c.input);
        toolMs.push(run.toolMs);
        rss.push(run.peakRssMb);
      }
      const ratio = median(toolMs) / median(rgMs);
      console.log(
        `${c.label}: rg ${fmt(median(rgMs))}, Synapse ${fmt(median(toolMs))} (${ratio.toFixed(2)}x) ` +
          `[runs: ${toolMs.map((m) => m.toFixed(0)).join(", ")}], peak RSS ${Math.max(...rss).toFixed(0)} MiB ${ratio <= 1.5 && Math.max(...rss) < 80 ? "ok" : "OVER TARGET"}`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();

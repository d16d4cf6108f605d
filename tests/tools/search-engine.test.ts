// Choosing and unpacking ripgrep: content-addressed copy in the cache folder, private modes, the
// JavaScript fallback when rg cannot be unpacked or run, and two processes unpacking at once.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/config/config.ts";
import { ripgrepAsset } from "../../src/tools/ripgrep-asset.ts";
import { resolveEngine, unpackRipgrep } from "../../src/tools/search-engine.ts";
import { tempDir } from "./tool-context.ts";

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const realRg = ripgrepAsset!.path;

/** A stand-in for the asset inside the binary: same bytes, a content-hash style name. */
function embeddedAsset(name = "rg-abc123.") {
  mkdirSync(join(dir, "bunfs"), { recursive: true });
  copyFileSync(realRg, join(dir, "bunfs", name));
  return { path: join(dir, "bunfs", name), embedded: true };
}

describe("search engine", () => {
  test("the cache folder comes from Config: $XDG_CACHE_HOME/synapse, else ~/.cache/synapse", () => {
    const config = (env: Record<string, string>) =>
      resolveConfig({ flags: {}, env, processCwd: "/work", homeDir: "/home/u" });
    expect(config({}).cacheDir).toBe("/home/u/.cache/synapse");
    expect(config({ XDG_CACHE_HOME: "/var/cache/u" }).cacheDir).toBe("/var/cache/u/synapse");
    expect(config({ XDG_CACHE_HOME: "rel" }).cacheDir).toBe("/work/rel/synapse");
  });

  test("from source: node_modules' rg, not unpacked", async () => {
    expect(ripgrepAsset).toMatchObject({ embedded: false });
    const engine = await resolveEngine(ripgrepAsset, join(dir, "cache"));
    expect(engine).toMatchObject({ kind: "ripgrep", path: realRg });
    expect(() => statSync(join(dir, "cache"))).toThrow();
  });

  test("embedded: unpacked once into a 0700 folder under its content name, executable, then reused", async () => {
    const asset = embeddedAsset();
    const cache = join(dir, "xdg", "synapse");
    const engine = await resolveEngine(asset, cache);
    expect(engine).toMatchObject({
      kind: "ripgrep",
      path: join(cache, "rg-abc123"),
      version: expect.stringMatching(/^15\./),
    });
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(statSync(join(cache, "rg-abc123")).mode & 0o777).toBe(0o700);
    expect(readdirSync(cache)).toEqual(["rg-abc123"]);
    const before = statSync(join(cache, "rg-abc123")).mtimeMs;
    expect(unpackRipgrep(asset, cache)).toBe(join(cache, "rg-abc123"));
    expect(statSync(join(cache, "rg-abc123")).mtimeMs).toBe(before);
  });

  test("a torn copy (wrong size) is replaced", () => {
    const asset = embeddedAsset();
    const cache = join(dir, "cache");
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, "rg-abc123"), "half", { mode: 0o700 });
    unpackRipgrep(asset, cache);
    expect(statSync(join(cache, "rg-abc123")).size).toBe(statSync(realRg).size);
  });

  test("falls back to JavaScript: no rg for the platform, cache folder unusable, rg that cannot run", async () => {
    expect(await resolveEngine(null, dir)).toEqual({
      kind: "javascript",
      reason: `no ripgrep is built in for ${process.platform}-${process.arch}`,
    });
    writeFileSync(join(dir, "file"), "");
    const blocked = await resolveEngine(embeddedAsset(), join(dir, "file", "synapse"));
    expect(blocked).toMatchObject({
      kind: "javascript",
      reason: expect.stringContaining(`ripgrep could not be unpacked into ${dir}/file/synapse: ENOTDIR`),
    });
    // Bytes the kernel will not execute stand for a noexec mount or a binary for another CPU.
    writeFileSync(join(dir, "bunfs", "rg-bad."), "\x7fELF not really");
    const bad = await resolveEngine({ path: join(dir, "bunfs", "rg-bad."), embedded: true }, join(dir, "cache"));
    expect(bad).toMatchObject({
      kind: "javascript",
      reason: expect.stringContaining(`ripgrep could not run from ${dir}/cache/rg-bad`),
    });
  });

  test("two processes unpacking at once both get a whole, working rg", async () => {
    const asset = embeddedAsset();
    const cache = join(dir, "race");
    const script = `
      const { unpackRipgrep, ripgrepVersion } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/search-engine.ts"))});
      process.stdout.write("ready\\n");
      process.stdin.once("data", async () => {
        const path = unpackRipgrep(${JSON.stringify(asset)}, ${JSON.stringify(cache)});
        process.stdout.write(path + " " + (await ripgrepVersion(path)) + "\\n");
        process.exit(0);
      });`;
    const children = [0, 1].map(() => spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"] }));
    const outputs = children.map((child) => {
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      const ready = new Promise<void>((resolve) => child.stdout.on("data", () => out.includes("ready") && resolve()));
      const done = new Promise<number | null>((resolve) => child.on("close", resolve));
      return { ready, done, text: () => out };
    });
    // Both wait at the line until both are loaded, then start together.
    await Promise.all(outputs.map((o) => o.ready));
    for (const child of children) child.stdin.end("go\n");
    expect(await Promise.all(outputs.map((o) => o.done))).toEqual([0, 0]);
    for (const o of outputs) expect(o.text()).toContain(`${join(cache, "rg-abc123")} 15.`);
    expect(readdirSync(cache)).toEqual(["rg-abc123"]);
    expect(readFileSync(join(cache, "rg-abc123")).equals(readFileSync(realRg))).toBe(true);
  }, 20_000);
});

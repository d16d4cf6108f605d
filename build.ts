// Compiles Synapse into one self-contained binary (dist/synapse) with its worker entry points
// embedded where they can be found from inside the binary.
//
// Inside a `bun build --compile` binary every module's import.meta.url is /$bunfs/root/<name>, so
// tinypool looks for its thread entry at /$bunfs/root/entry/worker.js and our workers must sit at
// /$bunfs/root/workers/<name>.js. A generated staging folder used as the build root puts them there.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = import.meta.dir;
// A staging folder and output of this process's own: two builds at once (parallel test runs) must
// not delete each other's files, and a running dist/synapse is replaced by rename, never rewritten.
const stage = join(root, `.build-${process.pid}`);
const outfile = join(root, "dist", "synapse");
const tmpOut = `${outfile}.${process.pid}.tmp`;

rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, "entry"), { recursive: true });
mkdirSync(join(stage, "workers"), { recursive: true });

const rel = (from: string, to: string) => relative(from, to).split("\\").join("/");
writeFileSync(join(stage, "main.ts"), `import ${JSON.stringify(rel(stage, join(root, "src/cli/main.ts")))};\n`);
writeFileSync(
  join(stage, "entry", "worker.ts"),
  `import ${JSON.stringify(rel(join(stage, "entry"), join(root, "node_modules/tinypool/dist/entry/worker.js")))};\n`,
);
const workers = readdirSync(join(root, "workers")).filter((f) => f.endsWith(".ts"));
for (const file of workers) {
  const target = rel(join(stage, "workers"), join(root, "workers", file));
  writeFileSync(
    join(stage, "workers", file),
    `export * from ${JSON.stringify(target)};\nexport { default } from ${JSON.stringify(target)};\n`,
  );
}

// ripgrep ships inside the binary: src/tools/ripgrep-asset.ts (which finds rg in node_modules when
// running from source) is replaced by a module that embeds this platform's rg as a file asset,
// unpacked on first use by src/tools/search-engine.ts. No rg for this platform: no asset, and
// Grep/Glob use their JavaScript search.
const rgExe = process.platform === "win32" ? "rg.exe" : "rg";
const rgFile = join(root, "node_modules", "@vscode", `ripgrep-${process.platform}-${process.arch}`, "bin", rgExe);
const ripgrepAssetModule = existsSync(rgFile)
  ? `import rg from ${JSON.stringify(rgFile)} with { type: "file" };\n` +
    "export const ripgrepAsset = { path: rg, embedded: true };\n"
  : `export const ripgrepAsset = null;\n`;
if (!existsSync(rgFile))
  console.warn(`warning: ${relative(root, rgFile)} not found; the binary will search without ripgrep`);

// The tools' JSON Schemas, generated here once rather than by every run (src/tools/prebuilt-schemas.ts).
const { TOOL_CODE } = await import("./src/tools/tool-code.ts");
const schemas = Object.fromEntries(TOOL_CODE.map((t) => [t.name, t.inputSchema]));
const prebuiltSchemasModule =
  `const schemas: Record<string, unknown> = ${JSON.stringify(schemas)};\n` +
  "export const builtInSchema = (name: string) => schemas[name];\n";

const result = await Bun.build({
  entrypoints: [
    join(stage, "main.ts"),
    join(stage, "entry", "worker.ts"),
    ...workers.map((f) => join(stage, "workers", f)),
  ],
  root: stage,
  // Nothing from the directory synapse starts in may configure it: a cloned repository's bunfig.toml
  // (a `preload` runs code inside the binary, key in process.env) or .env (ANTHROPIC_BASE_URL, HTTP_PROXY,
  // SYNAPSE_PERMISSION_MODE) would otherwise be read by the compiled binary at every start.
  compile: {
    outfile: tmpOut,
    autoloadDotenv: false,
    autoloadBunfig: false,
    autoloadTsconfig: false,
    autoloadPackageJson: false,
  },
  minify: true,
  // Without splitting the provider SDKs sit in the main chunk and are parsed at every start,
  // even though they are imported lazily (31–40 ms against 6 ms for --version).
  splitting: true,
  bytecode: true,
  format: "esm",
  sourcemap: "none",
  plugins: [
    {
      name: "embed-ripgrep",
      setup(build) {
        build.onLoad({ filter: /[\\/]src[\\/]tools[\\/]ripgrep-asset\.ts$/ }, () => ({
          contents: ripgrepAssetModule,
          loader: "ts",
        }));
      },
    },
    {
      name: "prebuilt-tool-schemas",
      setup(build) {
        build.onLoad({ filter: /[\\/]src[\\/]tools[\\/]prebuilt-schemas\.ts$/ }, () => ({
          contents: prebuiltSchemasModule,
          loader: "ts",
        }));
      },
    },
  ],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  rmSync(stage, { recursive: true, force: true });
  process.exit(1);
}
renameSync(tmpOut, outfile);
rmSync(stage, { recursive: true, force: true });
console.log(`built ${relative(root, outfile)}`);

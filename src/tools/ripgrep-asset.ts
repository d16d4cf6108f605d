// Where the ripgrep executable comes from when running from source: the platform package that
// @vscode/ripgrep installs in node_modules. build.ts swaps this module, inside the compiled
// binary, for one that embeds that same file as an asset (see ripgrepAssetModule in build.ts).

import { createRequire } from "node:module";

export interface RipgrepAsset {
  path: string;
  /** True inside the compiled binary: the file lives in /$bunfs and must be unpacked to run. */
  embedded: boolean;
}

function locate(): RipgrepAsset | null {
  const exe = process.platform === "win32" ? "rg.exe" : "rg";
  try {
    return {
      path: createRequire(import.meta.url).resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/${exe}`),
      embedded: false,
    };
  } catch {
    // No package for this platform: searches use the JavaScript engine.
    return null;
  }
}

export const ripgrepAsset: RipgrepAsset | null = locate();

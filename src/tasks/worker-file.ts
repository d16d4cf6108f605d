// Where a worker entry file lives: embedded in the compiled binary, or in the source tree.

/** True when running from a `bun build --compile` binary (modules live under /$bunfs). */
export function isCompiled(moduleUrl: string = import.meta.url): boolean {
  return moduleUrl.includes("/$bunfs/");
}

export function workerFile(name: string, moduleUrl: string = import.meta.url): string {
  if (isCompiled(moduleUrl)) return `/$bunfs/root/workers/${name}.js`;
  return new URL(`../../workers/${name}.ts`, moduleUrl).pathname;
}

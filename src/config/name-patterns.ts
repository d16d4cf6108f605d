// A list of names where `PREFIX_*` stands for every name starting with PREFIX (environment
// variable lists: the secrets kept from commands, the sandbox's allow-list). Compiled once into a
// set and a few prefixes: every start filters the whole environment through two or three lists.

/** A test for `name` against `patterns`: exact names, or `PREFIX*` for a prefix. */
export function nameMatcher(patterns: readonly string[]): (name: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const p of patterns) {
    if (p.endsWith("*")) prefixes.push(p.slice(0, -1));
    else exact.add(p);
  }
  if (!prefixes.length) return (name) => exact.has(name);
  return (name) => {
    if (exact.has(name)) return true;
    for (const prefix of prefixes) if (name.startsWith(prefix)) return true;
    return false;
  };
}

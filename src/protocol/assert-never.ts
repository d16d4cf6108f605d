// The default branch of a switch that handles every member of a union: once all are handled the
// value's type is `never`, so a member added later without a case is a type error here, and a value
// that breaks the types at run time (a peer's message) fails loudly rather than being skipped.

export function assertNever(value: never, what = "value"): never {
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  throw new Error(`unhandled ${what}: ${shown.slice(0, 200)}`);
}

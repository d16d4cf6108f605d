// One clear line for what node:util's parseArgs refuses: its own messages span several lines and
// speak of internals ("argument is ambiguous", "-XYZ").

export function argumentError(err: unknown, argv: readonly string[]): string {
  const message = err instanceof Error ? err.message : String(err);
  const ambiguous = /^Option '([^']+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const option = ambiguous[1] ?? "";
    const value = argv[argv.indexOf(option) + 1] ?? "";
    if (/^-\d/.test(value)) return `${option} takes a positive number (got "${value}")`;
    const joined = option.startsWith("--") ? `${option}=${value}` : `${option}${value}`;
    return `${option} needs a value ("${value}" looks like an option; write ${joined} if it is the value)`;
  }
  const missing = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `${missing[1]} needs a value`;
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]} (synapse --help lists them)`;
  return (message.split("\n")[0] ?? "").replace(/\.$/, "");
}

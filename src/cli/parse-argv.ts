// node:util's parseArgs in its strict form with positionals allowed, the form args.ts uses, written
// out so a run does not load node:util: in the compiled binary that module (and the internals it
// pulls in) was about a tenth of the CPU time from exec to the first request. Same tokens, same
// values, same error messages (arg-errors.ts reads them); tests/cli/parse-argv.test.ts compares the
// two on a corpus of command lines.

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
}

type ValueOf<S extends OptionSpec> = S extends { type: "string" } ? string : boolean;
export type ParsedValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K] extends { multiple: true } ? ValueOf<O[K]>[] : ValueOf<O[K]>;
};

interface OptionToken {
  name: string;
  rawName: string;
  value: string | undefined;
  inlineValue: boolean;
}

/** An error whose message is parseArgs's own. */
class ArgvError extends Error {}

function longFor(short: string, options: Record<string, OptionSpec>): string {
  for (const [name, spec] of Object.entries(options)) if (spec.short === short) return name;
  return short;
}

const typeOf = (options: Record<string, OptionSpec>, name: string) =>
  Object.hasOwn(options, name) ? options[name]?.type : undefined;

/** Splits the command line into option tokens and positionals, as parseArgs's tokenizer does. */
function tokenize(args: readonly string[], options: Record<string, OptionSpec>) {
  const rest = [...args];
  const tokens: OptionToken[] = [];
  const positionals: string[] = [];
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === "--") {
      positionals.push(...rest);
      break;
    }
    const shortForm = arg.length >= 2 && arg[0] === "-" && arg[1] !== "-";
    if (shortForm && arg.length === 2) {
      const name = longFor(arg[1] as string, options);
      const takes = typeOf(options, name) === "string" && rest.length > 0;
      tokens.push({ name, rawName: arg, value: takes ? rest.shift() : undefined, inlineValue: false });
    } else if (shortForm) {
      const name = longFor(arg[1] as string, options);
      if (typeOf(options, name) === "string") {
        tokens.push({ name, rawName: `-${arg[1]}`, value: arg.slice(2), inlineValue: true });
        continue;
      }
      // A group (-yq): each letter its own option (named by the letter alone in messages, as Bun's
      // parseArgs does); a string option takes the rest of the group, or the next argument.
      for (let i = 1; i < arg.length; i++) {
        const letter = arg[i] as string;
        const name = longFor(letter, options);
        if (typeOf(options, name) !== "string") {
          tokens.push({ name, rawName: letter, value: undefined, inlineValue: false });
        } else if (i === arg.length - 1) {
          tokens.push({ name, rawName: letter, value: rest.shift(), inlineValue: false });
        } else {
          tokens.push({ name, rawName: letter, value: arg.slice(i + 1), inlineValue: true });
          break;
        }
      }
    } else if (arg.length > 2 && arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      if (eq === -1) {
        const name = arg.slice(2);
        const takes = typeOf(options, name) === "string" && rest.length > 0;
        tokens.push({ name, rawName: arg, value: takes ? rest.shift() : undefined, inlineValue: false });
      } else {
        const name = arg.slice(2, eq);
        tokens.push({ name, rawName: name ? `--${name}` : arg, value: arg.slice(eq + 1), inlineValue: true });
      }
    } else positionals.push(arg);
  }
  return { tokens, positionals };
}

/** parseArgsʼs strict checks of one option, with its messages. */
function check(token: OptionToken, options: Record<string, OptionSpec>): void {
  if (!Object.hasOwn(options, token.name)) {
    throw new ArgvError(
      `Unknown option '${token.rawName}'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${JSON.stringify(token.rawName)}`,
    );
  }
  const short = options[token.name]?.short;
  const shortAndLong = `${short ? `-${short}, ` : ""}--${token.name}`;
  const type = typeOf(options, token.name);
  if (type === "string" && typeof token.value !== "string") {
    throw new ArgvError(`Option '${shortAndLong} <value>' argument missing`);
  }
  if (type === "boolean" && token.value != null) {
    throw new ArgvError(`Option '${shortAndLong}' does not take an argument`);
  }
  const value = token.value;
  if (!token.inlineValue && value !== undefined && value.length > 1 && value[0] === "-") {
    const example = token.rawName.startsWith("--")
      ? `'${token.rawName}=-XYZ'`
      : `'--${token.name}=-XYZ' or '${token.rawName}-XYZ'`;
    throw new ArgvError(
      `Option '${token.rawName}' argument is ambiguous.\nDid you forget to specify the option argument for '${token.rawName}'?\nTo specify an option argument starting with a dash use ${example}.`,
    );
  }
}

/** `parseArgs({ args, options, allowPositionals: true, strict: true })`, without node:util. */
export function parseArgv<O extends Record<string, OptionSpec>>(
  args: readonly string[],
  options: O,
): { values: ParsedValues<O>; positionals: string[] } {
  const { tokens, positionals } = tokenize(args, options);
  const values: Record<string, unknown> = Object.create(null);
  for (const token of tokens) {
    check(token, options);
    if (token.name === "__proto__") continue;
    const value = token.value ?? true;
    if (options[token.name]?.multiple) {
      const list = (values[token.name] ??= []) as unknown[];
      list.push(value);
    } else values[token.name] = value;
  }
  return { values: values as ParsedValues<O>, positionals };
}

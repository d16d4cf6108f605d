// The programs a command line may run without asking when no OS sandbox holds it (`default` mode
// fails closed): each with the options known to only read, or to write only the files it names.
// Anything not listed here, or an option not listed for its program, makes the command ask.

export interface ProgramSpec {
  /** Short option letters allowed (clusters like `-la` are split); `*` allows any (echo, printf's format). */
  short: string;
  /** Short options whose value is the next word (or the rest of the cluster). */
  shortValue?: string;
  /** Long options allowed without a value (`--all`). */
  long?: readonly string[];
  /** Long options that take a value (`--max-count=3` or `--max-count 3`). */
  longValue?: readonly string[];
  /** What the operands are: files it reads, files it writes, or text (no files at all). */
  operands: "read" | "text" | "pattern-then-read" | "write" | "copy";
  /** At least this many operands (`cp a` alone is not a write this table can vouch for). */
  minOperands?: number;
  /** Options whose value names a file it writes: the same boundary as a write operand. */
  writeValue?: readonly string[];
}

const READER = { operands: "read" } as const;

/** Programs that only read the files they name (or standard input) and print. */
export const SAFE_PROGRAMS: Readonly<Record<string, ProgramSpec>> = {
  ls: { ...READER, short: "1aAbBcCdFghiklmnopqrRsStuUvxX", long: ["--all", "--almost-all", "--human-readable",
      "--long", "--recursive", "--reverse", "--size", "--classify", "--directory", "--inode", "--numeric-uid-gid",
      "--group-directories-first", "--full-time"], longValue: ["--color", "--sort", "--time-style", "--format",
      "--indicator-style", "--width", "--ignore", "--hide"] },
  cat: { ...READER, short: "AbeEnstTuv", long: ["--number", "--number-nonblank", "--show-all", "--show-ends",
      "--show-tabs", "--squeeze-blank"] },
  head: { ...READER, short: "qvz", shortValue: "nc", long: ["--quiet", "--silent", "--verbose", "--zero-terminated"],
      longValue: ["--lines", "--bytes"] },
  tail: { ...READER, short: "qvzr", shortValue: "nc", long: ["--quiet", "--silent", "--verbose", "--zero-terminated"],
      longValue: ["--lines", "--bytes"] },
  wc: { ...READER, short: "clmwL", long: ["--bytes", "--chars", "--lines", "--words", "--max-line-length"] },
  nl: { ...READER, short: "", shortValue: "bnsvwi" },
  tac: { ...READER, short: "" },
  rev: { ...READER, short: "" },
  cut: { ...READER, short: "sz", shortValue: "bcdf", long: ["--complement", "--only-delimited"],
      longValue: ["--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"] },
  sort: { ...READER, short: "bdfghiMnrRsuVz", shortValue: "ktS", long: ["--reverse", "--numeric-sort", "--unique",
      "--human-numeric-sort", "--version-sort", "--ignore-case", "--stable", "--zero-terminated",
      "--general-numeric-sort", "--month-sort", "--ignore-leading-blanks", "--dictionary-order"], longValue: ["--key",
      "--field-separator", "--buffer-size"] },
  uniq: { ...READER, short: "cdDiuz", shortValue: "fsw", long: ["--count", "--repeated", "--unique", "--ignore-case",
      "--zero-terminated"], longValue: ["--skip-fields", "--skip-chars", "--check-chars"], minOperands: 0 },
  diff: { ...READER, short: "abBdeEiNpqrstuwy", shortValue: "CUx", long: ["--brief", "--recursive", "--unified",
      "--side-by-side", "--ignore-all-space", "--ignore-space-change", "--ignore-blank-lines", "--ignore-case",
      "--new-file", "--text", "--report-identical-files", "--minimal"], longValue: ["--color", "--exclude",
      "--context"] },
  cmp: { ...READER, short: "bls", shortValue: "in", long: ["--print-bytes", "--verbose", "--silent", "--quiet"] },
  comm: { ...READER, short: "123z", long: ["--check-order", "--nocheck-order", "--total"],
      longValue: ["--output-delimiter"] },
  file: { ...READER, short: "bhiLkNpsz0", long: ["--brief", "--mime", "--mime-type", "--mime-encoding",
      "--no-dereference"] },
  stat: { ...READER, short: "Lft", shortValue: "c", long: ["--dereference", "--terse"], longValue: ["--format",
      "--printf"] },
  du: { ...READER, short: "abcDhHklLmPsSx0", shortValue: "dt", long: ["--all", "--human-readable", "--summarize",
      "--total", "--apparent-size", "--bytes"], longValue: ["--max-depth", "--threshold", "--exclude"] },
  df: { ...READER, short: "ahHiklPT", long: ["--human-readable", "--all", "--inodes", "--local", "--print-type"] },
  od: { ...READER, short: "bcdfiloasvx", shortValue: "AjNStw" },
  xxd: { ...READER, short: "bEeipu", shortValue: "cglos" },
  hexdump: { ...READER, short: "bcCdovx", shortValue: "nse" },
  strings: { ...READER, short: "afw", shortValue: "nte" },
  md5sum: { ...READER, short: "bctwz", long: ["--check", "--quiet", "--status"] },
  sha1sum: { ...READER, short: "bctwz", long: ["--check", "--quiet", "--status"] },
  sha256sum: { ...READER, short: "bctwz", long: ["--check", "--quiet", "--status"] },
  basename: { operands: "text", short: "az", shortValue: "s", long: ["--multiple", "--zero"], longValue: ["--suffix"] },
  dirname: { operands: "text", short: "z" },
  realpath: { ...READER, short: "eLmPqsz", long: ["--canonicalize-existing", "--canonicalize-missing",
      "--no-symlinks", "--quiet"], longValue: ["--relative-to", "--relative-base"] },
  readlink: { ...READER, short: "efmnqsvz", long: ["--canonicalize", "--canonicalize-existing",
      "--canonicalize-missing", "--no-newline"] },
  tree: { ...READER, short: "adfFilpsughrtDCnJ", shortValue: "LIP", long: ["--dirsfirst", "--noreport"] },
  grep: { operands: "pattern-then-read", short: "abcEFGhHiIlLnoqrsvwxzZ", shortValue: "ABCemf", long: ["--count",
      "--ignore-case", "--invert-match", "--word-regexp", "--line-regexp", "--files-with-matches",
      "--files-without-match", "--line-number", "--no-filename", "--with-filename", "--only-matching", "--quiet",
      "--silent", "--recursive", "--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp", "--text",
      "--null", "--no-messages"], longValue: ["--color", "--colour", "--include", "--exclude", "--exclude-dir",
      "--max-count", "--after-context", "--before-context", "--context", "--regexp", "--file"] },
  rg: { operands: "pattern-then-read", short: "0abcFhHiIlnNoqsSuUvwxz.", shortValue: "ABCegmMtTrEj", long: ["--count",
      "--count-matches", "--files", "--files-with-matches", "--files-without-match", "--fixed-strings", "--hidden",
      "--ignore-case", "--smart-case", "--case-sensitive", "--invert-match", "--line-number", "--no-line-number",
      "--no-heading", "--heading", "--no-filename", "--with-filename", "--only-matching", "--quiet", "--word-regexp",
      "--line-regexp", "--no-ignore", "--json", "--vimgrep", "--multiline", "--trim", "--stats", "--sort-files",
      "--null", "--no-messages", "--pcre2", "--text"], longValue: ["--glob", "--iglob", "--type", "--type-not",
      "--max-count", "--max-depth", "--context", "--after-context", "--before-context", "--color", "--colors",
      "--sort", "--sortr", "--regexp", "--replace", "--max-columns", "--type-add", "--encoding", "--threads",
      "--max-filesize"] },
  find: { operands: "read", short: "HP" }, // its expression is checked by find-expression rules in safe-command.ts
  echo: { operands: "text", short: "*" },
  printf: { operands: "text", short: "" },
  pwd: { operands: "text", short: "LP" },
  true: { operands: "text", short: "*" },
  false: { operands: "text", short: "*" },
  test: { operands: "text", short: "*" },
  "[": { operands: "text", short: "*" },
  "[[": { operands: "text", short: "*" },
  whoami: { operands: "text", short: "" },
  id: { operands: "text", short: "gGnruz" },
  uname: { operands: "text", short: "amnoprsv" },
  date: { operands: "text", short: "uIR", shortValue: "d", long: ["--utc", "--iso-8601", "--rfc-3339", "--rfc-email"],
      longValue: ["--date"] },
  which: { operands: "text", short: "a" },
  type: { operands: "text", short: "afptP" },
  seq: { operands: "text", short: "w", shortValue: "fs" },
  sleep: { operands: "text", short: "" },
  tr: { operands: "text", short: "cdsCt", long: ["--delete", "--squeeze-repeats", "--complement"] },
  jq: { operands: "pattern-then-read", short: "cnrsSjaeCM", long: ["--raw-output", "--compact-output", "--slurp",
      "--sort-keys", "--null-input", "--exit-status", "--tab", "--join-output"], longValue: ["--arg", "--argjson",
      "--indent"] },
  cd: { operands: "read", short: "LP" },
      // its target is judged like a path it reads (cd-target.ts says where it leaves for)
  // Writers: they change only the files they name, so the workspace boundary on those names holds.
  mkdir: { operands: "write", short: "pv", shortValue: "m", long: ["--parents", "--verbose"], longValue: ["--mode"],
      minOperands: 1 },
  touch: { operands: "write", short: "acm", shortValue: "dr", long: ["--no-create"], longValue: ["--date",
      "--reference"], minOperands: 1 },
  tee: { operands: "write", short: "ai", long: ["--append", "--ignore-interrupts"] },
  cp: { operands: "copy", short: "afinprRuvT", long: ["--force", "--interactive", "--no-clobber", "--recursive",
      "--update", "--verbose", "--preserve", "--archive"], minOperands: 2 },
  mv: { operands: "copy", short: "finuvT", long: ["--force", "--interactive", "--no-clobber", "--update",
      "--verbose"], minOperands: 2 },
  rm: { operands: "write", short: "fiv", long: ["--force", "--verbose"], minOperands: 1 },
  rmdir: { operands: "write", short: "pv", long: ["--parents", "--verbose", "--ignore-fail-on-non-empty"],
      minOperands: 1 },
  sed: { operands: "pattern-then-read", short: "nErsuz", shortValue: "e", long: ["--quiet", "--silent",
      "--regexp-extended", "--separate", "--null-data", "--posix", "--sandbox"], longValue: ["--expression"] },
};

/**
 * git's subcommands that only read, and the options that would make one of them write a file,
 * run a program, or read from a place the workspace does not hold.
 */
export const GIT_READ_ONLY = new Set(["status", "diff", "log", "show", "branch", "rev-parse", "ls-files", "blame",
    "shortlog", "describe", "tag", "remote", "rev-list", "ls-tree", "merge-base", "reflog", "grep", "show-ref",
    "name-rev", "count-objects", "whatchanged"]);
/** Options after the subcommand that write a file, run a configured program, or read outside the repository. */
export const GIT_UNSAFE_OPTION = new RegExp(`^(${[
  "--output", "--ext-diff", "--textconv", "--filters", "--open-files-in-pager", "-O", "--no-index", "--contents",
  "--exec", "--upload-pack", "--receive-pack", "--config-env", "--git-dir", "--work-tree",
].join("|")})`);
/** Options before the subcommand that change nothing but how git runs (`-C DIR` is judged as a path). */
export const GIT_GLOBAL_SAFE = new Set(["--no-pager", "-P", "--no-optional-locks", "--no-replace-objects"]);
/** git subcommands whose only read-only forms take no operand: `git branch` lists, `git branch x` creates. */
export const GIT_LIST_ONLY = new Set(["branch", "tag", "remote", "reflog"]);
export const GIT_LIST_OPTIONS = new RegExp(`^(${[
  "-a", "-r", "-v", "-vv", "-l", "--list", "--all", "--remotes", "--verbose", "--show-current", "--merged",
  "--no-merged", "--contains", "--no-contains", "--points-at", "--sort=.*", "--format=.*", "--color(=.*)?",
  "--no-color", "--column(=.*)?", "--no-column", "-n\\d*",
].join("|")})$`);

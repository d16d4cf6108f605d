// git without a sandbox: its subcommands that only read, and what would make one of them write, run
// a configured program or read outside the workspace (safe-command.ts judges a git command by these).

/**
 * git's subcommands that only read, and the options that would make one of them write a file,
 * run a program, or read from a place the workspace does not hold.
 */
export const GIT_READ_ONLY = new Set([
  "status",
  "diff",
  "log",
  "show",
  "branch",
  "rev-parse",
  "ls-files",
  "blame",
  "shortlog",
  "describe",
  "tag",
  "remote",
  "rev-list",
  "ls-tree",
  "merge-base",
  "reflog",
  "grep",
  "show-ref",
  "name-rev",
  "count-objects",
  "whatchanged",
]);
/** Options after the subcommand that write a file, run a configured program, or read outside the repository. */
export const GIT_UNSAFE_OPTION = new RegExp(
  `^(${[
    "--output",
    "--ext-diff",
    "--textconv",
    "--filters",
    "--open-files-in-pager",
    "-O",
    "--no-index",
    "--contents",
    "--exec",
    "--upload-pack",
    "--receive-pack",
    "--config-env",
    "--git-dir",
    "--work-tree",
  ].join("|")})`,
);
/** Options before the subcommand that change nothing but how git runs (`-C DIR` is judged as a path). */
export const GIT_GLOBAL_SAFE = new Set(["--no-pager", "-P", "--no-optional-locks", "--no-replace-objects"]);
/** git subcommands whose only read-only forms take no operand: `git branch` lists, `git branch x` creates. */
export const GIT_LIST_ONLY = new Set(["branch", "tag", "remote", "reflog"]);
export const GIT_LIST_OPTIONS = new RegExp(
  `^(${[
    "-a",
    "-r",
    "-v",
    "-vv",
    "-l",
    "--list",
    "--all",
    "--remotes",
    "--verbose",
    "--show-current",
    "--merged",
    "--no-merged",
    "--contains",
    "--no-contains",
    "--points-at",
    "--sort=.*",
    "--format=.*",
    "--color(=.*)?",
    "--no-color",
    "--column(=.*)?",
    "--no-column",
    "-n\\d*",
  ].join("|")})$`,
);

// Why a file named on the command line could not be used, in words: a user reads "no such file",
// not "ENOENT" or Node's "ENOENT: no such file or directory, stat '…'".

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory",
  ENOTDIR: "a part of the path is not a folder",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the path is too long",
};

/** The reason for a file-system error, without its code or path; another error's own message. */
export function fileReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code && REASONS[code]) return REASONS[code];
  return err instanceof Error ? err.message : String(err);
}

// A session resumed from another folder than the one it was started in (`synapse sessions --all`,
// then `-r <id>`): the run works here, as asked, but its conversation speaks of that folder's files,
// so one warning says where each is and how to work there instead. Pure.

/** The warning for session `id`, started in `startedIn`, resumed to work in `cwd`. */
export function movedSessionWarning(id: string, startedIn: string, cwd: string): string {
  return (
    `session ${id} was started in ${startedIn}; this run works in ${cwd} ` +
    `(resume it with -C ${shellWord(startedIn)} to work there)`
  );
}

/** The folder as one shell word: quoted when it holds anything but plain path characters. */
function shellWord(path: string): string {
  return /^[\w./~-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

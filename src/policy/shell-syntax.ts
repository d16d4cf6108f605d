// What the shell parser gives back: simple commands made of words and redirections, and the
// error it throws on a line it cannot read.

export interface Word {
  /** The value after quote removal; unknown parts (expansions) are kept as written. */
  text: string;
  /** The source text of the word, quotes included. */
  raw: string;
  /** Holds an expansion ($var, $(…), `…`), so its value is only known when it runs. */
  dynamic: boolean;
  /** Holds an unquoted brace expansion (`{rm,-rf,~}`): bash turns it into several words. */
  braces?: boolean;
}

export interface Redirect {
  op: string;
  target: Word;
  /** A here-document's text, once its lines have been read. */
  body?: string;
}

export interface SimpleCommand {
  /** Leading `NAME=value` words. */
  assignments: Word[];
  words: Word[];
  redirects: Redirect[];
  /** The command whose output is piped into this one (index into the parse result). */
  pipedFrom?: number;
  /** The command whose word holds the substitution this command runs in (index). */
  insideOf?: number;
}

export type ParseResult = { ok: true; commands: SimpleCommand[] } | { ok: false; error: string };

export class ParseError extends Error {}

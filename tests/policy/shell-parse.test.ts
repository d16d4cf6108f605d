// The shell parser behind Bash permission checks: which simple commands a command line runs.
import { describe, expect, test } from "bun:test";
import { parseShell } from "../../src/policy/shell-parse.ts";
import { viewCommands } from "../../src/policy/command-view.ts";

/** Each simple command as its words after quote removal, assignments first. */
function commands(source: string): string[][] {
  const r = parseShell(source);
  if (!r.ok) throw new Error(r.error);
  return r.commands
    .filter((c) => c.words.length || c.assignments.length)
    .map((c) => [...c.assignments, ...c.words].map((w) => w.text));
}

describe("parseShell splits command lines into simple commands", () => {
  const table: Array<[string, string[][]]> = [
    ["npm test", [["npm", "test"]]],
    ["a && b || c; d | e & f", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]],
    ["a\nb\n\nc", [["a"], ["b"], ["c"]]],
    [`echo "a && b; c"`, [["echo", "a && b; c"]]],
    [`echo 'x | y' "z"`, [["echo", "x | y", "z"]]],
    [`echo a\\;b \\&\\& c`, [["echo", "a;b", "&&", "c"]]],
    [`git "status"`, [["git", "status"]]],
    [`g''it st"at"us`, [["git", "status"]]],
    [`echo $'a\\tb'`, [["echo", "a\tb"]]],
    [
      "echo $(rm -rf x)",
      [
        ["echo", "$(rm -rf x)"],
        ["rm", "-rf", "x"],
      ],
    ],
    [
      "echo `rm -rf x`",
      [
        ["echo", "`rm -rf x`"],
        ["rm", "-rf", "x"],
      ],
    ],
    [`echo "$(whoami) is $USER"`, [["echo", "$(whoami) is $USER"], ["whoami"]]],
    ["echo $(echo $(id))", [["echo", "$(echo $(id))"], ["echo", "$(id)"], ["id"]]],
    ["diff <(ls a) >(cat)", [["diff", "<(…)", ">(…)"], ["ls", "a"], ["cat"]]],
    ["(cd sub && make) ; ls", [["cd", "sub"], ["make"], ["ls"]]],
    ["{ a; b; }", [["a"], ["b"]]],
    [
      "if test -f x; then rm x; else touch x; fi",
      [
        ["test", "-f", "x"],
        ["rm", "x"],
        ["touch", "x"],
      ],
    ],
    [
      "while read l; do echo $l; done < f",
      [
        ["read", "l"],
        ["echo", "$l"],
      ],
    ],
    ['for f in $(ls); do rm "$f"; done', [["ls"], ["rm", "$f"]]],
    [
      "[[ -f a && -d b ]] && echo ok",
      [
        ["[[", "-f", "a", "&&", "-d", "b", "]]"],
        ["echo", "ok"],
      ],
    ],
    ["FOO=1 BAR='x y' npm test", [["FOO=1", "BAR=x y", "npm", "test"]]],
    ["X=1", [["X=1"]]],
    ["ls # comment && rm -rf /", [["ls"]]],
    ["echo a#b", [["echo", "a#b"]]],
    ["echo ${x:-$(date)}", [["echo", "${x:-$(date)}"], ["date"]]],
    [
      "echo $((1 + $(id -u)))",
      [
        ["echo", "$((1 + $(id -u)))"],
        ["id", "-u"],
      ],
    ],
    ["ls \\\n  -la", [["ls", "-la"]]],
    ["! grep -q x f", [["grep", "-q", "x", "f"]]],
    ["cmd 2>&1 >out.txt <in.txt", [["cmd"]]],
  ];
  for (const [source, expected] of table) {
    test(JSON.stringify(source), () => expect(commands(source)).toEqual(expected));
  }

  test("redirections are kept apart from words, here-documents are skipped but their substitutions run", () => {
    const r = parseShell("cat <<EOF > out.txt 2>>err.log\nhello $(id)\n$(date)\nEOF\necho done");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.commands[0]!.redirects.map((x) => [x.op, x.target.text])).toEqual([
      ["<<", "EOF"],
      [">", "out.txt"],
      [">>", "err.log"],
    ]);
    expect(commands("cat <<EOF > out.txt 2>>err.log\nhello $(id)\n$(date)\nEOF\necho done")).toEqual([
      ["cat"],
      ["id"],
      ["date"],
      ["echo", "done"],
    ]);
    // A quoted delimiter: nothing in the body runs.
    expect(commands("cat <<'EOF'\n$(rm -rf /)\nEOF")).toEqual([["cat"]]);
    expect(commands("cat <<-EOF\n\t$(id)\n\tEOF\nls")).toEqual([["cat"], ["id"], ["ls"]]);
  });

  test("pipes and substitutions know which command they feed", () => {
    const r = parseShell("curl -s x | sudo bash; echo $(wget y)");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.commands[1]!.pipedFrom).toBe(0);
    expect(r.commands[3]!.insideOf).toBe(2);
  });

  test("words with expansions are marked dynamic, quoted text is not", () => {
    const r = parseShell(`echo "$HOME" '$HOME' plain`);
    expect(r.ok && r.commands[0]!.words.map((w) => w.dynamic)).toEqual([false, true, false, false]);
  });

  for (const bad of [
    `echo 'open`,
    `echo "open`,
    "echo $(ls",
    "echo `ls",
    "(ls",
    "ls )",
    "| ls",
    "echo >",
    "f() { ls; }",
    "case x in a) ls;; esac",
  ]) {
    test(`refuses ${JSON.stringify(bad)}`, () => expect(parseShell(bad).ok).toBe(false));
  }
});

describe("parseShell ends on every input", () => {
  // A character no word may start with, where the parser expects a word, once looped forever:
  // a model could stall the permission check (and the run) with one command.
  test.each(["[[ a | b ]]", "[[ a & b ]]", "[[ a |", "[[ x ; ]]"])("%s is a parse error, not a hang", (source) => {
    const r = parseShell(source);
    expect(r.ok).toBe(false);
  });
});

describe("viewCommands sees through wrappers and nested shells", () => {
  const words = (source: string) => {
    const r = viewCommands(source);
    if (!r.ok) throw new Error(r.error);
    return r.commands.map((c) => c.words.map((w) => w.text).join(" "));
  };
  test.each([
    ["sudo -u root rm -rf /", ["sudo -u root rm -rf /", "rm -rf /"]],
    ["env A=1 B=2 make", ["env A=1 B=2 make", "make"]],
    ["timeout -s KILL 5 npm test", ["timeout -s KILL 5 npm test", "npm test"]],
    ["nice -n 5 nohup make", ["nice -n 5 nohup make", "nohup make", "make"]],
    ["xargs -I{} rm {}", ["xargs -I{} rm {}", "rm {} (words read from input)"]],
    ["find . -name '*.o' -exec rm -f {} ';'", ["find . -name *.o -exec rm -f {} ;", "rm -f {}"]],
    [`bash -c "git push && rm -rf ~"`, ["bash -c git push && rm -rf ~", "git push", "rm -rf ~"]],
    [`sh -lc 'echo $(id)'`, ["sh -lc echo $(id)", "echo $(id)", "id"]],
    [`eval "ls; rm x"`, ["eval ls; rm x", "ls", "rm x"]],
  ] as Array<[string, string[]]>)("%s", (source, expected) => expect(words(source)).toEqual(expected));
});

// The rule grammar: what parses, what is a configuration error, and what each rule matches.
import { describe, expect, test } from "bun:test";
import { globRegExp, matchPath, matchWords, parseRule } from "../../src/policy/rule.ts";
import { parseShell } from "../../src/policy/shell-parse.ts";

const words = (command: string) => {
  const r = parseShell(command);
  if (!r.ok) throw new Error(r.error);
  const c = r.commands[0]!;
  return [...c.assignments, ...c.words];
};

function matches(rule: string, command: string): boolean {
  const r = parseRule(rule);
  if (r.kind === "any") return true;
  if (r.kind !== "command") throw new Error("not a command rule");
  return matchWords(r.words, words(command));
}

describe("parseRule", () => {
  test.each([
    ["Bash", { tool: "Bash", kind: "any" }],
    ["Bash()", { tool: "Bash", kind: "any" }],
    ["Bash(*)", { tool: "Bash", kind: "any" }],
    ["bash(npm test)", { tool: "Bash", kind: "command", words: ["npm", "test"] }],
    ["Bash(git *)", { tool: "Bash", kind: "command", words: ["git", "*"] }],
    ["Bash(npm run test:*)", { tool: "Bash", kind: "command", words: ["npm", "run", "test*", "*"] }],
    [`Bash(git commit -m "a b")`, { tool: "Bash", kind: "command", words: ["git", "commit", "-m", "a b"] }],
    ["Write(src/**)", { tool: "Write", kind: "path", glob: "src/**" }],
    ["Read(~/.ssh/**)", { tool: "Read", kind: "path", glob: "~/.ssh/**" }],
    [" Edit(docs/*.md) ", { tool: "Edit", kind: "path", glob: "docs/*.md" }],
    [`Write("my notes/**")`, { tool: "Write", kind: "path", glob: "my notes/**" }],
  ] as Array<[string, object]>)("%s", (source, expected) => expect(parseRule(source)).toMatchObject(expected));

  test.each([
    ["Bash(npm test", /expected Tool or Tool\(pattern\)/],
    ["Shell(ls)", /unknown tool "Shell"/],
    ["Bash(npm test && rm x)", /one simple command/],
    ["Bash(ls > out)", /one simple command/],
    ["Bash('open)", /unterminated/],
    ["", /expected Tool/],
  ] as Array<[string, RegExp]>)("rejects %p naming the rule", (source, why) => {
    expect(() => parseRule(source)).toThrow(why);
    expect(() => parseRule(source)).toThrow(`"${source}"`);
  });
});

describe("Bash rules match commands word by word", () => {
  test.each([
    ["Bash(npm test)", "npm test", true],
    ["Bash(npm test)", "npm  test", true],
    ["Bash(npm test)", `npm "test"`, true],
    ["Bash(npm test)", "npm test --watch", false],
    ["Bash(npm test)", "npm tests", false],
    ["Bash(npm test:*)", "npm test --watch", true],
    ["Bash(npm test:*)", "npm test", true],
    // A trailing `:*` is a prefix on the last word, then any arguments (as Claude Code users write it).
    ["Bash(npm run lint:*)", "npm run lint", true],
    ["Bash(npm run lint:*)", "npm run lint:fix", true],
    ["Bash(npm run lint:*)", "npm run lint:js --quiet", true],
    ["Bash(npm run lint:*)", "npm run test:unit", false],
    ["Bash(npm run lint:*)", "npm run", false],
    ["Bash(npm run lint:*)", "npm lint:fix", false],
    ["Bash(git *)", "git status", true],
    ["Bash(git *)", "git", true],
    ["Bash(git *)", "gitk", false],
    ["Bash(git * --force)", "git push origin main --force", true],
    ["Bash(git * --force)", "git push --force-with-lease", false],
    ["Bash(rm *.tmp)", "rm a.tmp", true],
    ["Bash(rm *.tmp)", "rm a.tmp b.tmp", false],
    ["Bash(cat *)", "cat $(secret)", true],
    ["Bash(cat notes)", "cat $FILE", false],
    ["Bash(echo hi)", "echo 'hi'", true],
    ["Bash(CI=1 npm test)", "CI=1 npm test", true],
    ["Bash(npm test)", "CI=1 npm test", false],
  ] as Array<[string, string, boolean]>)("%s vs %p → %p", (rule, command, expected) =>
    expect(matches(rule, command)).toBe(expected),
  );
});

describe("path rules are globs against absolute paths", () => {
  const base = "/w/proj";
  const home = "/home/u";
  test.each([
    ["src/**", "/w/proj/src/a.ts", true],
    ["src/**", "/w/proj/src/deep/er/a.ts", true],
    ["src/**", "/w/proj/srcx/a.ts", false],
    ["src/*.ts", "/w/proj/src/a.ts", true],
    ["src/*.ts", "/w/proj/src/d/a.ts", false],
    ["src/**/*.ts", "/w/proj/src/a.ts", true],
    ["src/**/*.ts", "/w/proj/src/d/a.ts", true],
    ["src", "/w/proj/src/a.ts", true],
    ["src/", "/w/proj/src/x/y", true],
    ["~/.ssh/**", "/home/u/.ssh/id_rsa", true],
    ["~/.ssh/**", "/w/proj/.ssh/id_rsa", false],
    ["/etc/hosts", "/etc/hosts", true],
    ["**/.env", "/w/proj/app/.env", true],
    ["*.{md,txt}", "/w/proj/a.txt", true],
    ["?.md", "/w/proj/ab.md", false],
  ] as Array<[string, string, boolean]>)("%s vs %s → %p", (glob, path, expected) =>
    expect(matchPath(glob, path, base, home)).toBe(expected),
  );

  test("regex characters in globs are literal", () => {
    expect(globRegExp("a+b(c).ts").test("a+b(c).ts")).toBe(true);
    expect(globRegExp("a+b(c).ts").test("aab(c)xts")).toBe(false);
  });
});

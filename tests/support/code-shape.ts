// Measures the shape of source files (issue 22 §3/§4): lines too long to read beside a diff, and
// functions long enough to be modules of their own. Pure functions over source text; the caller reads files.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** The limit both checks use: a line's characters, a function's lines. */
export const LIMIT = 120;

/** One-based numbers of the lines longer than `limit` characters (code points, as an editor counts them). */
export function longLines(text: string, limit = LIMIT): number[] {
  const found: number[] = [];
  text.split("\n").forEach((line, i) => {
    const visible = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (visible.length > limit && [...visible].length > limit) found.push(i + 1);
  });
  return found;
}

export interface LongFunction {
  /** One-based line of the function's first token (its leading comment not counted). */
  line: number;
  name: string;
  lines: number;
}

type Body = ts.FunctionLikeDeclaration;

/** A function with a body: what a reader has to hold in mind at once. Signatures and types are not. */
function functionWithBody(node: ts.Node): Body | undefined {
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  ) {
    return node.body ? node : undefined;
  }
  return undefined;
}

function propertyName(name: ts.PropertyName | ts.BindingName, source: ts.SourceFile): string {
  return ts.isIdentifier(name) || ts.isPrivateIdentifier(name) ? name.text : name.getText(source);
}

function className(node: ts.Node): string {
  const owner = node.parent;
  if ((ts.isClassDeclaration(owner) || ts.isClassExpression(owner)) && owner.name) return owner.name.text;
  return "<class>";
}

/** `api.send` for a property of `const api = {…}`; just `send` for an object built in a return or a call. */
function memberName(owner: ts.ObjectLiteralExpression, member: string, source: ts.SourceFile): string {
  const objectName = nameOf(owner, source);
  return objectName === "<anonymous>" || objectName.endsWith(" callback") ? member : `${objectName}.${member}`;
}

/**
 * What a reader would call the function: its declared name, `Class.method`, the variable or property an
 * arrow is assigned to, or the call it is handed to (`new Promise callback`).
 */
export function nameOf(node: ts.Node, source: ts.SourceFile): string {
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? "default";
  if (ts.isConstructorDeclaration(node)) return `${className(node)}.constructor`;
  if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) {
    const member = propertyName(node.name, source);
    if (ts.isObjectLiteralExpression(node.parent)) return memberName(node.parent, member, source);
    return `${className(node)}.${member}`;
  }
  if (ts.isFunctionExpression(node) && node.name) return node.name.text;
  const parent = node.parent;
  if (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent)) {
    return nameOf(parent, source);
  }
  if (ts.isPropertyAssignment(parent) && ts.isObjectLiteralExpression(parent.parent)) {
    return memberName(parent.parent, propertyName(parent.name, source), source);
  }
  if (ts.isPropertyDeclaration(parent)) return `${className(parent)}.${propertyName(parent.name, source)}`;
  if (ts.isVariableDeclaration(parent)) return propertyName(parent.name, source);
  if (ts.isBinaryExpression(parent)) return parent.left.getText(source);
  if (ts.isExportAssignment(parent)) return "default";
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    const callee = parent.expression.getText(source).split("\n")[0];
    return `${ts.isNewExpression(parent) ? "new " : ""}${callee} callback`;
  }
  return "<anonymous>";
}

/** Every function in `text` whose first and last lines are more than `limit` lines apart, outer ones first. */
export function longFunctions(fileName: string, text: string, limit = LIMIT): LongFunction[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    const fn = functionWithBody(node);
    if (fn) {
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line + 1;
      const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line + 1;
      const lines = last - first + 1;
      if (lines > limit) found.push({ line: first, name: nameOf(fn, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The TypeScript files under `dir`, recursively, sorted so reports read the same on every machine. */
export function typeScriptFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...typeScriptFiles(path));
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files.sort();
}

// Markdown to terminal rows (marked's lexer; the rendering is ours): headings, lists, quotes, code
// blocks with light colouring, tables as aligned text, inline bold/italic/code/links. Text from the
// model passes through `inert` first, so it cannot carry its own escape sequences.

import type { Lexer, Token, Tokens } from "marked";
import { colourCodeLine } from "./code-colour.ts";
import { inert } from "./inert.ts";
import { textWidth, wrapLine } from "./text-width.ts";
import type { Theme } from "./theme.ts";
import { itemAt } from "../text/checked-index.ts";

let lexer: typeof Lexer | undefined;

/**
 * marked builds its grammar's regular expressions as it loads (a few ms in the compiled binary),
 * so it is not loaded with this module: the interactive session loads it after its first frame,
 * beside the executor, before anything it draws can hold Markdown.
 */
export async function loadMarkdown(): Promise<void> {
  lexer ??= (await import("marked")).Lexer;
}

export function renderMarkdown(source: string, width: number, t: Theme): string[] {
  if (!lexer) throw new Error("renderMarkdown called before loadMarkdown()");
  const tokens = lexer.lex(source, { gfm: true });
  const out: string[] = [];
  renderBlocks(tokens, Math.max(10, width), t, out, "");
  while (out.length && out[out.length - 1] === "") out.pop();
  return out;
}

function renderBlocks(tokens: Token[], width: number, t: Theme, out: string[], indent: string): void {
  for (const token of tokens) {
    switch (token.type) {
      case "space":
        break;
      case "heading": {
        const h = token as Tokens.Heading;
        const text = inline(h.tokens, t);
        pushWrapped(out, h.depth <= 2 ? t.bold(t.underline(text)) : t.bold(text), width, indent);
        out.push("");
        break;
      }
      case "paragraph":
        pushWrapped(out, inline((token as Tokens.Paragraph).tokens, t), width, indent);
        out.push("");
        break;
      case "text": {
        const tx = token as Tokens.Text;
        pushWrapped(out, tx.tokens ? inline(tx.tokens, t) : inert(tx.text), width, indent);
        break;
      }
      case "code": {
        const c = token as Tokens.Code;
        const lang = (c.lang ?? "").split(/\s/)[0] ?? "";
        if (lang) out.push(indent + t.dim(`  ${lang}`));
        // No gutter or border: copying code from the terminal must copy the code alone.
        for (const line of inert(c.text.replace(/\t/g, "    ")).split("\n")) {
          for (const row of wrapLine(colourCodeLine(line, lang, t), width - indent.length)) out.push(`${indent}${row}`);
        }
        out.push("");
        break;
      }
      case "blockquote": {
        const inner: string[] = [];
        renderBlocks((token as Tokens.Blockquote).tokens, width - 2, t, inner, "");
        while (inner.length && inner[inner.length - 1] === "") inner.pop();
        for (const row of inner) out.push(`${indent}${t.dim("▌")} ${t.italic(row)}`);
        out.push("");
        break;
      }
      case "list": {
        const list = token as Tokens.List;
        let n = typeof list.start === "number" ? list.start : 1;
        for (const item of list.items) {
          const bullet = list.ordered ? `${n++}.` : "•";
          const mark = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
          const inner: string[] = [];
          renderBlocks(item.tokens, width - bullet.length - 1 - indent.length, t, inner, "");
          while (inner.length && inner[inner.length - 1] === "") inner.pop();
          inner.forEach((row, i) => {
            out.push(
              i === 0 ? `${indent}${t.cyan(bullet)} ${mark}${row}` : `${indent}${" ".repeat(bullet.length + 1)}${row}`,
            );
          });
        }
        out.push("");
        break;
      }
      case "hr":
        out.push(indent + t.dim("─".repeat(Math.min(width - indent.length, 40))));
        out.push("");
        break;
      case "table": {
        const table = token as Tokens.Table;
        const cells = [
          table.header.map((h) => inline(h.tokens, t)),
          ...table.rows.map((r) => r.map((c) => inline(c.tokens, t))),
        ];
        const natural = table.header.map((_, i) => Math.max(...cells.map((row) => textWidth(row[i] ?? ""))));
        const widths = fitColumns(natural, width - indent.length - 3 * (natural.length - 1));
        if (!widths) {
          // Too many columns for the terminal even narrowed: each row as "header: value" lines.
          const names = cells[0];
          for (const row of cells.slice(1)) {
            for (const [i, c] of row.entries()) pushWrapped(out, `${t.bold(names?.[i] ?? "")}: ${c}`, width, indent);
            out.push("");
          }
          break;
        }
        cells.forEach((row, r) => {
          // A cell wider than its column wraps inside it; the row is as tall as its tallest cell.
          const wrapped = widths.map((w, i) => wrapLine(row[i] ?? "", w));
          const height = Math.max(...wrapped.map((c) => c.length));
          for (let k = 0; k < height; k++) {
            const line = wrapped
              .map((c, i) => (c[k] ?? "") + " ".repeat(Math.max(0, (widths[i] ?? 0) - textWidth(c[k] ?? ""))))
              .join(t.dim(" │ "));
            out.push(indent + (r === 0 ? t.bold(line) : line).trimEnd());
          }
          if (r === 0) out.push(indent + t.dim(widths.map((w) => "─".repeat(w)).join("─┼─")));
        });
        out.push("");
        break;
      }
      case "html":
        pushWrapped(out, inert((token as Tokens.HTML).text.trimEnd()), width, indent);
        break;
      default:
        if ("text" in token && typeof token.text === "string") pushWrapped(out, inert(token.text), width, indent);
    }
  }
}

/** Narrowest a shrunk column gets; below it the table is listed row by row instead. */
const MIN_COLUMN = 4;

/**
 * Column widths that fit `budget` columns: a column narrower than its fair share keeps its width,
 * the rest share what is left equally. Undefined when even MIN_COLUMN each does not fit.
 */
function fitColumns(natural: number[], budget: number): number[] | undefined {
  const sum = natural.reduce((a, b) => a + b, 0);
  if (sum <= budget) return natural;
  if (budget < natural.length * MIN_COLUMN) return undefined;
  const widths = natural.map(() => 0);
  let open = natural.map((_, i) => i);
  let left = budget;
  for (;;) {
    const share = Math.floor(left / open.length);
    const fits = open.filter((i) => itemAt(natural, i) <= share);
    if (!fits.length) break;
    for (const i of fits) {
      widths[i] = itemAt(natural, i);
      left -= itemAt(natural, i);
    }
    open = open.filter((i) => itemAt(natural, i) > share);
    if (!open.length) return widths;
  }
  const share = Math.floor(left / open.length);
  for (const [k, i] of open.entries()) widths[i] = share + (k < left - share * open.length ? 1 : 0);
  return widths;
}

function pushWrapped(out: string[], text: string, width: number, indent: string): void {
  for (const line of text.split("\n")) for (const row of wrapLine(line, width - indent.length)) out.push(indent + row);
}

function inline(tokens: Token[] | undefined, t: Theme): string {
  if (!tokens) return "";
  return tokens
    .map((tok) => {
      switch (tok.type) {
        case "strong":
          return t.bold(inline((tok as Tokens.Strong).tokens, t));
        case "em":
          return t.italic(inline((tok as Tokens.Em).tokens, t));
        case "del":
          return t.dim(inline((tok as Tokens.Del).tokens, t));
        case "codespan":
          return t.cyan(inert(unescapeEntities((tok as Tokens.Codespan).text)));
        case "link": {
          const l = tok as Tokens.Link;
          const text = inline(l.tokens, t);
          return l.href && l.href !== l.text
            ? `${t.underline(t.blue(text))} ${t.dim(`(${inert(l.href)})`)}`
            : t.underline(t.blue(text));
        }
        case "image":
          return t.dim(`[image: ${inert((tok as Tokens.Image).text)}]`);
        case "br":
          return "\n";
        case "escape":
        case "text": {
          const x = tok as Tokens.Text;
          return x.tokens ? inline(x.tokens, t) : inert(unescapeEntities(x.text));
        }
        default:
          return "raw" in tok ? inert(String(tok.raw)) : "";
      }
    })
    .join("");
}

// marked keeps HTML entities escaped in text tokens.
function unescapeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (whole, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? whole,
  );
}

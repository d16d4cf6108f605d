// Lets TypeScript accept the tools' `.md` descriptions, which Bun imports as text.
declare module "*.md" {
  const text: string;
  export default text;
}

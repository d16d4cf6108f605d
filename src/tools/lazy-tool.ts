// A tool whose code loads on its first call. What a request needs of it (name, description, JSON
// Schema) is there at once; its input schema and `execute` come from the code `load` imports, which
// the tool-call path awaits (types.ts's loadedTool) before it checks a call's input.

import type { JsonSchema, Tool } from "./types.ts";

/** What is known of a tool before its code loads. */
export interface ToolHead {
  name: string;
  description: string;
  readOnly: boolean;
}

export function lazyTool(head: ToolHead, loadCode: () => Promise<Tool>, schema: () => JsonSchema): Tool {
  let code: Tool | undefined;
  let loading: Promise<Tool> | undefined;
  const load = async (): Promise<Tool> => {
    loading ??= loadCode().then((loaded) => {
      code = loaded;
      return loaded;
    });
    return await loading;
  };
  return {
    ...head,
    get inputSchema() {
      return schema();
    },
    // Reading it before `load` is a bug of the caller's, not a state a call can reach.
    get input() {
      if (!code) throw new Error(`${head.name}'s code is not loaded yet: await tool.load() first`);
      return code.input;
    },
    load,
    execute: async (input, ctx) => (await load()).execute(input, ctx),
  };
}

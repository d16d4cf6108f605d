// `/model` lists the provider's models with the current one marked; `/model <name>` switches to
// one of them for the rest of the session. A name the provider does not list is refused: a typo
// must not silently send every later request to a model that does not exist.

import { type CommandOutcome, type SlashCommand, fail, say } from "../slash-command.ts";

type ProviderName = "anthropic" | "openai";

function splitSpec(spec: string, current: ProviderName): { provider: ProviderName; model: string } {
  const slash = spec.indexOf("/");
  const prefix = slash > 0 ? spec.slice(0, slash).toLowerCase() : "";
  if (prefix === "anthropic" || prefix === "openai") return { provider: prefix, model: spec.slice(slash + 1) };
  return { provider: current, model: spec };
}

export const modelCommand: SlashCommand = {
  name: "model",
  usage: "/model [name]",
  summary: "list the models, or switch to one",
  async run(args, ctx): Promise<CommandOutcome> {
    const current = ctx.facts().model;
    const currentProvider = (current.slice(0, current.indexOf("/")) || "anthropic") as ProviderName;
    const currentModel = current.slice(current.indexOf("/") + 1);
    const wanted = args.trim();
    if (!wanted) {
      const list = await ctx.listModels(currentProvider, ctx.signal);
      const prefix = `${currentProvider}/`;
      const start = ctx.startModel?.startsWith(prefix) ? ctx.startModel.slice(prefix.length) : undefined;
      // The current model and the session's first are listed even when the provider does not name them.
      const names = [...new Set([currentModel, start, ...list.models].filter((m): m is string => m !== undefined))];
      names.sort((a, b) => Number(list.models.includes(a)) - Number(list.models.includes(b)));
      const lines = names.map((m) => `${m === currentModel ? "* " : "  "}${m}`);
      const note = list.source === "fallback" ? [`(built-in list: ${list.reason})`] : [];
      const items = names.map((m) => ({ value: `${currentProvider}/${m}`, label: m, current: m === currentModel }));
      const choices = { command: "model", title: `Models (${currentProvider})`, items };
      return { ...say(`Models (${currentProvider}):`, ...lines, ...note), choices };
    }
    const { provider, model } = splitSpec(wanted, currentProvider);
    if (!model) return fail(`/model needs a model name after ${provider}/`);
    if (provider === currentProvider && model === currentModel) return say(`already using ${current}`);
    const list = await ctx.listModels(provider, ctx.signal);
    if (!list.models.includes(model) && ctx.startModel !== `${provider}/${model}`) {
      const why = list.source === "fallback" ? ` (${list.reason}; built-in list)` : "";
      return fail(`unknown model ${model} for ${provider}${why}; known: ${list.models.join(", ")}`);
    }
    return {
      lines: [`model: ${provider}/${model}`],
      actions: [{ kind: "ChangeModel", model: `${provider}/${model}` }],
    };
  },
};

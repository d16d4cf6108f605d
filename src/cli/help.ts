// The --help text and version: kept free of imports (but the version constant) so both print without loading anything.

import { VERSION } from "../protocol/version.ts";

export { VERSION };

export const HELP_TEXT = `synapse ${VERSION} — a terminal AI coding agent

Usage:
  synapse [options] [prompt...]   run one request; the prompt is the arguments and/or piped stdin
  synapse [-c | -r <id>]          on a terminal, no prompt: the interactive session (/help inside)
  synapse sessions [--all]        list this directory's sessions (--all: every directory's);
                                  synapse --list-sessions is the same
  synapse doctor                  check this machine: worker threads, bash, the sandbox, session
                                  store, ripgrep, and the provider (one real request to its models
                                  endpoint)
  synapse compact [--session <id> | --all] [--older-than <days>] [--dry-run] [-o json]
                                  shrink the session store: gzip old archive segments, remove
                                  unreferenced images, delete sessions older than <days>; by
                                  default the ones "synapse sessions" lists
  synapse acp                     serve an editor (Zed, JetBrains, Neovim, Emacs) over the Agent
                                  Client Protocol on stdin/stdout; each session works in the
                                  folder the editor names
  synapse mcp list | get <name> | add <name> … -- <command> [args…] | remove <name>
                                  MCP servers of the user config and the project's .mcp.json
                                  (synapse mcp alone shows every option)
  synapse --help | --version

Piped stdin is read to its end once it starts (< /dev/null runs without it). With a prompt
argument too, stdin is appended inside <stdin>…</stdin>:
  git diff | synapse "review this"
  echo "fix the failing test" | synapse
Beside a prompt argument, a pipe that sends nothing for 3 s is given up on, with a warning
(SYNAPSE_STDIN_WAIT_MS).
Piped input starting with /command runs that slash command:
  echo /model | synapse           echo "/compact keep the API design" | synapse -c

Options:
  -m, --model <name>            model, optionally as provider/model (anthropic/…, openai/…)
  -o, --output-format <fmt>     text (default), json, or stream-json
  -c, --continue                continue the latest session for this directory
  -r, --resume <id>             resume the session with this id
  -C, --cwd <dir>               work in <dir> instead of the current directory
      --max-turns <n>           stop after n model turns (default: no limit)
      --max-budget-usd <n>      stop (exit 1, session saved) before a request would pass $n
      --json-schema <json>      the final answer must be a JSON value valid against this JSON
                                Schema (result's structured_output; -o text prints it alone)
      --output-schema <file>    the same, with the schema read from <file> (Codex's flag)
      --permission-mode <mode>  default | accept-edits | bypass | plan (plan: read-only tools)
  -y, --yes                     same as --permission-mode bypass
      --allow <rule>            allow without asking, e.g. 'Bash(npm test)' (repeatable)
      --deny <rule>             always refuse, e.g. 'Bash(git push *)' (repeatable; deny wins)
      --add-dir <dir>           another folder the agent may write in (repeatable)
      --sandbox <mode>          where commands run: workspace-write (default: an OS sandbox that
                                writes only the workspace, no network), read-only, full-access
      --sandbox-network         let sandboxed commands reach the network
      --mcp-config <file|json>  more MCP servers ({"mcpServers": {...}}; repeatable)
      --strict-mcp-config       only the --mcp-config servers (not the user's or .mcp.json's)
      --allow-project-mcp       start the project's .mcp.json servers without asking
      --allow-project-hooks     run the project's config hooks without asking (sandboxed only)
      --image <path>            attach an image to the prompt (repeatable)
  -q, --quiet                   no tool activity, progress or notices on stderr (errors,
                                warnings and refused tool calls still print)
      --no-color                no colours (also NO_COLOR=1)
  -h, --help                    show this help
  -v, --version                 show the version

Claude Agent SDK (programs that run synapse as their pathToClaudeCodeExecutable; README
"Claude Agent SDK" has the whole table):
      --input-format stream-json  user messages and control requests as JSON lines on stdin
      --verbose --include-partial-messages --permission-prompt-tool stdio
      --allow-dangerously-skip-permissions --allowedTools <rules> --disallowedTools <rules>
      --tools <names> --system-prompt <text> --append-system-prompt <text> --await-initialize
      --session-id <uuid> --fork-session (with -r/-c: go on in a copy of the session)
                                  honoured (permission modes also by Claude Code's names)
      --fallback-model --setting-sources --thinking --max-thinking-tokens --thinking-display
      --effort --betas --task-budget --debug --debug-file --include-hook-events
      --session-mirror --channels --plugin-dir --plugin-dir-no-mcp
                                  accepted, one note on stderr, no effect
      --agent --permission-prompts --resume-session-at --resume-drops-turn
      --no-session-persistence --project-config-root --initialize-fields --managed-settings
      --managed-settings-in-initialize --settings
                                  refused (exit 2): ignoring them could widen the run

Providers: set ANTHROPIC_API_KEY (and optionally ANTHROPIC_BASE_URL) or OPENAI_API_KEY (and
optionally OPENAI_BASE_URL, ending in /v1, for any OpenAI-compatible server: Ollama, llama.cpp).
See README.md for how the provider is chosen and for every variable.

Exit codes: 0 success, 1 run failed, 2 usage or configuration error, 130 interrupted,
129 hung up, 143 terminated (SIGHUP / SIGTERM, after saving the session).
`;

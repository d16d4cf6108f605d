// The --help text and version: kept free of imports so both print without loading anything.

export const VERSION = "0.1.0";

export const HELP_TEXT = `synapse ${VERSION} — a terminal AI coding agent

Usage:
  synapse [options] [prompt...]   run one request; the prompt is the arguments and/or piped stdin
  synapse sessions                list saved sessions (also: --list-sessions)
  synapse doctor                  check this machine: worker threads, bash, session store, provider
  synapse --help | --version

With a prompt argument and piped stdin, stdin is appended inside <stdin>…</stdin>:
  git diff | synapse "review this"
  echo "fix the failing test" | synapse

Options:
  -m, --model <name>            model, optionally as provider/model (anthropic/…, openai/…)
  -o, --output-format <fmt>     text (default), json, or stream-json
  -c, --continue                continue the latest session for this directory
  -r, --resume <id>             resume the session with this id
  -C, --cwd <dir>               work in <dir> instead of the current directory
      --max-turns <n>           stop after n model turns (default 50)
      --permission-mode <mode>  default | accept-edits | bypass | plan (plan: read-only tools)
  -y, --yes                     same as --permission-mode bypass
      --image <path>            attach an image to the prompt (repeatable)
  -q, --quiet                   no tool activity or progress on stderr
      --no-color                no colours (also NO_COLOR=1)
  -h, --help                    show this help
  -v, --version                 show the version

Providers: set ANTHROPIC_API_KEY (and optionally ANTHROPIC_BASE_URL) or OPENAI_API_KEY (and
optionally OPENAI_BASE_URL for any OpenAI-compatible server). See README.md for every variable.

Exit codes: 0 success, 1 run failed, 2 usage or configuration error, 130 interrupted,
129 hung up, 143 terminated (SIGHUP / SIGTERM, after saving the session).
`;

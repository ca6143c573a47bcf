#!/usr/bin/env bash
# The real-host suite: installs the pinned host programs (Claude Code, Codex, Copilot CLI, Gemini CLI,
# Qwen Code, OpenCode, Factory Droid, Pi, Kilo CLI, Cline CLI) into a cache folder when missing (the only step that needs the npm registry),
# and the Windows programs under Wine (scripts/windows-programs.sh: Wine and a compiler from apt when
# missing, Windows Node and Codex and Claude Code for Windows from npm), then runs
# tests/host_e2e inside a private
# network namespace that has nothing but loopback, so the hosts run fully offline against the mock
# model server. Prints one line per check and a closing "N passed, N failed" line.
#
#   scripts/host-e2e.sh [FILTER]
#
# AGENT_BUNDLE_HOSTS_DIR overrides the cache folder (default ~/.cache/agent-bundle-hosts).
set -euo pipefail
cd "$(dirname "$0")/.."

CLAUDE_CODE_VERSION=2.1.332
CODEX_VERSION=0.171.0
COPILOT_VERSION=1.0.102
GEMINI_VERSION=0.61.0
QWEN_VERSION=0.24.4
OPENCODE_VERSION=1.18.33
# @factory/cli 0.225.1 names a platform package 0.225.1 that was never published: install the
# platform binary itself.
DROID_VERSION=0.225.2
PI_VERSION=0.73.1
# @kilocode/cli 7.8.1's Linux x64 platform packages were never published: install the newest platform
# binary that was, 7.7.9, itself.
KILO_VERSION=7.7.9
# Cline CLI's native binary (the `cline` package's platform package for Linux x64).
CLINE_VERSION=3.0.65
# Amp's native binary (the `@ampcode/cli` package's platform package for Linux x64; the newest
# published for Linux x64): only its plugin runtime runs offline.
AMP_VERSION=0.0.1790142911-g7618fb
HOSTS_DIR="${AGENT_BUNDLE_HOSTS_DIR:-$HOME/.cache/agent-bundle-hosts}"
export AGENT_BUNDLE_HOSTS_DIR="$HOSTS_DIR"

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "host-e2e: \`$1\` is needed: $2" >&2; exit 1; }
}
need node "the emitted wrappers run under Node.js 18+"
need npm "it installs the pinned host programs"
need unshare "it gives the suite a private network namespace (util-linux)"
need ip "it brings loopback up inside that namespace (iproute2)"

installed_version() {
  node -e "try { console.log(require('$HOSTS_DIR/node_modules/$1/package.json').version) } catch { console.log('none') }"
}
if [ "$(installed_version @anthropic-ai/claude-code)" != "$CLAUDE_CODE_VERSION" ] \
  || [ "$(installed_version @openai/codex)" != "$CODEX_VERSION" ] \
  || [ "$(installed_version @github/copilot)" != "$COPILOT_VERSION" ] \
  || [ "$(installed_version @google/gemini-cli)" != "$GEMINI_VERSION" ] \
  || [ "$(installed_version @qwen-code/qwen-code)" != "$QWEN_VERSION" ] \
  || [ "$(installed_version opencode-ai)" != "$OPENCODE_VERSION" ] \
  || [ "$(installed_version @factory/cli-linux-x64)" != "$DROID_VERSION" ] \
  || [ "$(installed_version @mariozechner/pi-coding-agent)" != "$PI_VERSION" ] \
  || [ "$(installed_version @kilocode/cli-linux-x64)" != "$KILO_VERSION" ] \
  || [ "$(installed_version @cline/cli-linux-x64)" != "$CLINE_VERSION" ] \
  || [ "$(installed_version @ampcode/cli-linux-x64)" != "$AMP_VERSION" ]; then
  echo "== installing @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION, @openai/codex@$CODEX_VERSION, @github/copilot@$COPILOT_VERSION, @google/gemini-cli@$GEMINI_VERSION, @qwen-code/qwen-code@$QWEN_VERSION , opencode-ai@$OPENCODE_VERSION, @factory/cli-linux-x64@$DROID_VERSION, @mariozechner/pi-coding-agent@$PI_VERSION, @kilocode/cli-linux-x64@$KILO_VERSION, @cline/cli-linux-x64@$CLINE_VERSION and @ampcode/cli-linux-x64@$AMP_VERSION into $HOSTS_DIR"
  mkdir -p "$HOSTS_DIR"
  printf '{ "name": "agent-bundle-hosts", "private": true }\n' > "$HOSTS_DIR/package.json"
  printf 'omit-lockfile-registry-resolved=true\n' > "$HOSTS_DIR/.npmrc"
  (cd "$HOSTS_DIR" && npm install --ignore-scripts --no-audit --no-fund --save-exact \
    "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION" "@github/copilot@$COPILOT_VERSION" "@google/gemini-cli@$GEMINI_VERSION" \
    "@qwen-code/qwen-code@$QWEN_VERSION" "opencode-ai@$OPENCODE_VERSION" "@factory/cli-linux-x64@$DROID_VERSION" \
    "@mariozechner/pi-coding-agent@$PI_VERSION" "@kilocode/cli-linux-x64@$KILO_VERSION" "@cline/cli-linux-x64@$CLINE_VERSION" \
    "@ampcode/cli-linux-x64@$AMP_VERSION")
fi

echo "== the Windows programs under Wine (Windows Node, Codex and Claude Code for Windows): scripts/windows-programs.sh"
windows_env="$(scripts/windows-programs.sh)"
while IFS="=" read -r key value; do
  [ -n "$key" ] && export "$key=$value"
done <<< "$windows_env"
# A Windows program's sockets are the wineserver's: let any wineserver of the prefix left from outside
# end, so that the suite's starts inside its network namespace, beside the mock.
"$(dirname "$WINE")/wineserver" -w

echo "== building the suite"
cargo build --locked --features host-e2e --tests
suite=$(cargo test --locked --features host-e2e --test host_e2e --no-run 2>&1 \
  | sed -n 's/.*Executable tests\/host_e2e\/main.rs (\(.*\))$/\1/p' | tail -n 1)
[ -x "$suite" ] || { echo "host-e2e: could not find the built suite" >&2; exit 1; }

echo "== installing the npm fixtures some bundles import (testdata/npm, testdata/pnpm)"
"$suite" --install-fixtures

echo "== running offline against the mock model server"
if [ "$(id -u)" = 0 ]; then
  exec unshare --net sh -c 'ip link set lo up && exec "$0" "$@"' "$suite" "$@"
else
  exec unshare --map-root-user --net sh -c 'ip link set lo up && exec "$0" "$@"' "$suite" "$@"
fi

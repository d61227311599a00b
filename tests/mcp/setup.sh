#!/usr/bin/env bash
# Installs what the end-to-end tests need beyond Rust: headless Chromium (when missing), and
# the third-party MCP clients the end-to-end MCP tests drive the real binary with:
# the official MCP Python SDK into target/mcp-venv (crates/server/tests/mcp_python.rs, stdio
# and HTTP) and the MCP Inspector into target/mcp-inspector (crates/server/tests/
# mcp_inspector.rs: its CLI mode calls every tool with numeric and boolean arguments).
# Idempotent: does nothing for a client whose pinned version is already there.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The web view's end-to-end test loads its pages in headless Chromium (or the binary named by
# CODEGRAPH_TEST_CHROMIUM): installed here when missing and this machine lets us.
if [ -z "${CODEGRAPH_TEST_CHROMIUM:-}" ] && ! command -v chromium >/dev/null; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) &&
            echo "chromium installed" || echo "could not install chromium: the web view test will fail" >&2
    else
        echo "chromium is missing: install it (apt-get install chromium) or set CODEGRAPH_TEST_CHROMIUM" >&2
    fi
fi

INSPECTOR_VERSION=0.21.2
inspector=target/mcp-inspector
if [ -f "$inspector/node_modules/@modelcontextprotocol/inspector/package.json" ] &&
    grep -q "\"version\": \"$INSPECTOR_VERSION\"" "$inspector/node_modules/@modelcontextprotocol/inspector/package.json"; then
    echo "MCP Inspector $INSPECTOR_VERSION already in $inspector"
else
    command -v npm >/dev/null || { echo "npm is needed for the MCP Inspector test (install Node.js)" >&2; exit 1; }
    rm -rf "$inspector" && mkdir -p "$inspector"
    (cd "$inspector" && npm init -y >/dev/null &&
        npm install --no-audit --no-fund --loglevel=error --save-exact "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >/dev/null)
    echo "MCP Inspector $INSPECTOR_VERSION installed in $inspector"
fi

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

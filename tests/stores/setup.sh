#!/usr/bin/env bash
# Installs the real store servers that crates/server/tests/shared_store.rs starts on loopback:
# Debian's redis-server, and from the Python package registry in target/store-venv moto (an
# S3-compatible server) and WsgiDAV (a WebDAV server). Idempotent; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v redis-server >/dev/null || { apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; }
redis-server --version
venv=target/store-venv
if [ ! -x "$venv/bin/moto_server" ] || [ ! -x "$venv/bin/wsgidav" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check 'moto[server]==5.2.1' 'wsgidav==4.4.0' 'cheroot==11.1.2'
fi
"$venv/bin/moto_server" --help >/dev/null && echo "moto_server: $venv/bin/moto_server"
"$venv/bin/wsgidav" --version && echo "wsgidav: $venv/bin/wsgidav"

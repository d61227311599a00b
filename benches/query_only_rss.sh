#!/usr/bin/env bash
# Query-only load on an idle root: does the MCP server's RSS creep per answer? Starts
# `codegraph mcp ROOT --http 127.0.0.1:0` (private cache), asks `impact_analysis` of TARGET
# four at a time over streamable HTTP (curl) for SECS seconds, and prints VmRSS every 2,000
# answers. Usage: benches/query_only_rss.sh ROOT TARGET SECS [CODEGRAPH_BIN]
# (docs/PERFORMANCE.md, "Many agents, one server": gin, Context.Next, 90 s).
set -u
ROOT=$1; TARGET=$2; SECS=$3; BIN=${4:-./target/release/codegraph}
CACHE=$(mktemp -d)
CODEGRAPH_CACHE_DIR=$CACHE "$BIN" mcp "$ROOT" --http 127.0.0.1:0 2> "$CACHE/log" &
PID=$!
trap 'kill $PID 2>/dev/null; rm -rf "$CACHE"' EXIT
URL=
for _ in $(seq 100); do URL=$(grep -o 'http://[^ ]*' "$CACHE/log" | head -1); [ -n "$URL" ] && break; sleep 0.2; done
[ -n "$URL" ] || { echo "the server did not listen" >&2; exit 1; }
H=(-H Content-Type:application/json -H Accept:application/json,text/event-stream)
SID=$(curl -s -D - -o /dev/null "${H[@]}" -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"rss","version":"1"}}}' "$URL" | grep -i mcp-session-id | awk '{print $2}' | tr -d '\r')
curl -s -o /dev/null "${H[@]}" -H "mcp-session-id: $SID" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$URL"
call() {
  curl -s -o /dev/null "${H[@]}" -H "mcp-session-id: $SID" \
    -d "{\"jsonrpc\":\"2.0\",\"id\":$1,\"method\":\"tools/call\",\"params\":{\"name\":\"impact_analysis\",\"arguments\":{\"target\":\"$TARGET\"}}}" "$URL"
}
rss() { awk '/VmRSS/ {printf "%.1f MiB", $2 / 1024}' /proc/$PID/status; }
call 2; sleep 3
echo "start: $(rss)"
END=$((SECONDS + SECS)); n=0
while [ $SECONDS -lt $END ]; do
  P=""; for k in 1 2 3 4; do call $((n * 4 + k + 10)) & P="$P $!"; done; wait $P; n=$((n + 1))
  [ $((n % 500)) -eq 0 ] && echo "answers $((n * 4)): $(rss)"
done
echo "end, answers $((n * 4)): $(rss)"

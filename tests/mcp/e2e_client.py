#!/usr/bin/env python3
"""End-to-end check of `codegraph mcp` with the official MCP Python SDK.

Why it exists: the Rust tests talk to the server with the same library (rmcp) that the
server is built on, so they cannot catch a wire format that only rmcp accepts. This script
drives the real binary the way a third-party client does, over stdio or streamable HTTP,
on the fixture repository written by crates/server/tests/mcp_python.rs.

Usage: python e2e_client.py --codegraph BIN --root DIR --transport stdio|http
The caller sets CODEGRAPH_CACHE_DIR (an isolated index directory). The fixture must hold
src/greet.ts (`greet`) and src/main.ts (`main` calling `greet`), committed to git; the
script appends a function to src/main.ts to check that the served index follows edits.
Exits 0 and prints a summary on success; prints what failed and exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

try:  # The SDK renamed the HTTP client in 2.0; accept either spelling.
    from mcp.client.streamable_http import streamable_http_client as _http_client
except ImportError:  # pragma: no cover - older SDKs
    from mcp.client.streamable_http import streamablehttp_client as _http_client

try:
    from mcp import MCPError as _ProtocolError
except ImportError:  # pragma: no cover - older SDKs
    from mcp.shared.exceptions import McpError as _ProtocolError

EXPECTED_TOOLS = {
    "code_search",
    "code_grep",
    "rename_plan",
    "symbol_context",
    "impact_analysis",
    "changed_code_impact",
    "route_impact",
    "tool_context",
    "dag_grep",
    "expand",
    "open_node",
    "trace",
    "index_status",
}
TOOLS_LIST_BUDGET = 20_000  # characters of the serialized tools/list result (~5k tokens)
GREET = "sym:ts:src/greet.ts:greet"
MAIN = "sym:ts:src/main.ts:main"
FRESH = "sym:ts:src/main.ts:freshlyAdded"
FRESH_SOURCE = '\nexport function freshlyAdded() { return greet("x"); }\n'
CALL_TIMEOUT_S = 30.0
FRESH_TIMEOUT_S = 20.0
POLL_S = 0.1
STARTUP_TIMEOUT_S = 60.0
SCENARIO_TIMEOUT_S = 180.0


class Failure(Exception):
    """A check that did not hold; its message says which and what was seen."""


def check(cond: bool, what: str) -> None:
    if not cond:
        raise Failure(what)


def short(value: Any, limit: int = 600) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


class Result:
    """One tools/call answer: the isError flag, the first text block and its JSON (if any)."""

    def __init__(self, name: str, args: dict[str, Any], raw: Any):
        self.name = name
        self.args = args
        self.is_error = bool(getattr(raw, "is_error", getattr(raw, "isError", False)))
        blocks = list(raw.content or [])
        first = blocks[0] if blocks else None
        self.text = getattr(first, "text", None) if first is not None else None
        self.data: Any = None
        if self.text is not None:
            try:
                self.data = json.loads(self.text)
            except ValueError:
                self.data = None

    def where(self) -> str:
        return f"{self.name}({json.dumps(self.args)})"


class Client:
    """Wraps the SDK session: every call is bounded in time and protocol errors are reported."""

    def __init__(self, session: ClientSession, root: str):
        self.session = session
        self.root = root
        self.calls = 0

    async def call(self, name: str, args: dict[str, Any]) -> Result:
        self.calls += 1
        try:
            with anyio.fail_after(CALL_TIMEOUT_S):
                raw = await self.session.call_tool(name, args)
        except TimeoutError as e:
            raise Failure(f"{name}({json.dumps(args)}): no answer in {CALL_TIMEOUT_S:.0f} s") from e
        except _ProtocolError as e:
            err = getattr(e, "error", None)
            code = getattr(err, "code", "?")
            msg = getattr(err, "message", str(e))
            raise Failure(
                f"{name}({json.dumps(args)}): JSON-RPC error {code} {msg!r} "
                "where a tool result was expected"
            ) from e
        return Result(name, args, raw)

    async def ok(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Calls a tool that must succeed; checks the common envelope and returns the JSON."""
        r = await self.call(name, args)
        check(not r.is_error, f"{r.where()}: isError, text: {short(r.text or '')}")
        check(r.text is not None, f"{r.where()}: first content block is not text")
        check(isinstance(r.data, dict), f"{r.where()}: text is not a JSON object: {short(r.text or '')}")
        data = r.data
        rev = data.get("revision")
        check(
            isinstance(rev, int) and not isinstance(rev, bool) and rev >= 1,
            f"{r.where()}: revision {rev!r} is not an int >= 1",
        )
        check(isinstance(data.get("stale"), bool), f"{r.where()}: stale {data.get('stale')!r} is not a bool")
        check(isinstance(data.get("root"), str), f"{r.where()}: root {data.get('root')!r} is not a string")
        check(
            os.path.realpath(data["root"]) == os.path.realpath(self.root),
            f"{r.where()}: root {data['root']!r} is not the served root {self.root!r}",
        )
        return data

    async def error(self, name: str, args: dict[str, Any], *needles: str) -> str:
        """Calls a tool that must answer isError with a message containing each needle."""
        r = await self.call(name, args)
        check(r.is_error, f"{r.where()}: expected isError, got: {short(r.text or '')}")
        msg = (r.text or "").strip()
        check(msg != "", f"{r.where()}: isError with an empty message")
        for needle in needles:
            check(needle.lower() in msg.lower(), f"{r.where()}: error {short(msg)!r} does not mention {needle!r}")
        return msg


def ids(nodes: list[Any]) -> list[str]:
    out = []
    for n in nodes:
        if isinstance(n, dict):
            inner = n.get("node") if isinstance(n.get("node"), dict) else n
            if isinstance(inner.get("id"), str):
                out.append(inner["id"])
    return out


async def check_tools_list(session: ClientSession) -> int:
    listing = await session.list_tools()
    names = {t.name for t in listing.tools}
    check(
        names == EXPECTED_TOOLS,
        f"tools/list: missing {sorted(EXPECTED_TOOLS - names)}, unexpected {sorted(names - EXPECTED_TOOLS)}",
    )
    for t in listing.tools:
        check(bool(t.description), f"tools/list: {t.name} has no description")
        schema = getattr(t, "input_schema", None) or getattr(t, "inputSchema", None)
        check(isinstance(schema, dict) and schema.get("type") == "object", f"tools/list: {t.name} schema {schema!r}")
    dumped = listing.model_dump(by_alias=True, mode="json", exclude_none=True)
    size = len(json.dumps(dumped, separators=(",", ":")))
    check(size < TOOLS_LIST_BUDGET, f"tools/list is {size} chars, budget {TOOLS_LIST_BUDGET}")
    return size


async def check_tools(c: Client) -> None:
    # code_search: the exact symbol ID, with and without the explicit root.
    d = await c.ok("code_search", {"query": "greet"})
    hits = d.get("hits")
    check(isinstance(hits, list) and GREET in ids(hits), f"code_search greet: {GREET} not in {short(hits)}")
    d = await c.ok("code_search", {"query": "greet", "kind": "function", "limit": 5, "root": c.root})
    check(GREET in ids(d.get("hits") or []), f"code_search greet (root, kind): {short(d)}")
    # code_grep: the line that declares greet, under the greet symbol.
    d = await c.ok("code_grep", {"pattern": "function greet"})
    groups = d.get("groups") or []
    check(d.get("total") == 1 and groups and groups[0].get("symbol") == GREET, f"code_grep: {short(d)}")

    d = await c.ok("open_node", {"id": GREET})
    src = d.get("source")
    check(isinstance(src, dict), f"open_node: no source object: {short(d)}")
    check(src.get("first_line") == 1, f"open_node: first_line {src.get('first_line')!r}")
    lines = src.get("lines")
    check(
        isinstance(lines, list) and any("export function greet" in line for line in lines),
        f"open_node: source lines {short(lines)}",
    )

    d = await c.ok("symbol_context", {"target": "greet"})
    callers = ids(d.get("callers") or [])
    check(MAIN in callers, f"symbol_context greet: caller {MAIN} not in {callers}")
    d = await c.ok("symbol_context", {"target": "greet", "file": "src/greet.ts", "kind": "function"})
    check(MAIN in ids(d.get("callers") or []), f"symbol_context greet (file, kind): {short(d)}")

    d = await c.ok("impact_analysis", {"target": "greet", "direction": "upstream", "depth": 3})
    reached = ids(d.get("nodes") or [])
    check(MAIN in reached, f"impact_analysis greet upstream: {MAIN} not in {reached}")
    first = (d.get("nodes") or [{}])[0]
    check(first.get("depth") == 1, f"impact_analysis: first node depth {first.get('depth')!r}")
    d = await c.ok("impact_analysis", {"target": MAIN, "direction": "downstream", "include_tests": True})
    reached = ids(d.get("nodes") or [])
    check(GREET in reached, f"impact_analysis main downstream: {GREET} not in {reached}")

    d = await c.ok("changed_code_impact", {})
    check("freshlyAdded" not in json.dumps(d), f"changed_code_impact before the edit: {short(d)}")
    await c.ok("changed_code_impact", {"base": "HEAD", "staged": False})

    d = await c.ok("trace", {"from": "main", "to": "greet"})
    paths = d.get("paths")
    check(isinstance(paths, list) and len(paths) >= 1, f"trace main->greet: no path: {short(d)}")
    check(GREET in json.dumps(paths[0]), f"trace main->greet: path does not reach {GREET}: {short(paths)}")

    d = await c.ok("expand", {"target": MAIN, "direction": "out", "depth": 1, "budget": 20})
    check(GREET in json.dumps(d), f"expand main out: {GREET} not in {short(d)}")

    d = await c.ok("dag_grep", {"query": "greet", "k": 5, "depth": 2, "budget": 20})
    check(GREET in json.dumps(d), f"dag_grep greet: {GREET} not in {short(d)}")

    # The fixture declares no routes or tools: the answers say so instead of looking complete.
    d = await c.ok("route_impact", {"route": "GET /users"})
    check(d.get("matches") == [], f"route_impact: matches {short(d)}, want []")
    check(any("no routes are detected" in n for n in d.get("notes", [])), f"route_impact notes: {short(d)}")
    d = await c.ok("tool_context", {"tool": "search"})
    check(d.get("matches") == [], f"tool_context: matches {short(d)}, want []")
    check(any("no MCP/RPC tools are detected" in n for n in d.get("notes", [])), f"tool_context notes: {short(d)}")

    d = await c.ok("index_status", {})
    check(d.get("phase") == "ready", f"index_status: phase {d.get('phase')!r}, want 'ready'")


async def check_bad_arguments(c: Client) -> None:
    await c.error("code_search", {})
    await c.error("code_search", {"query": 5})
    await c.error("open_node", {"id": "sym:ts:src/nope.ts:nothing"}, "unknown")
    await c.error("code_search", {"query": "greet", "root": "/nonexistent-root"}, "not a served root")
    await c.error("symbol_context", {"target": "greet", "file": "/etc/passwd"}, "outside")
    # The session must still work after the errors.
    await c.ok("index_status", {})


async def check_freshness(c: Client) -> tuple[int, int, float]:
    before = await c.ok("index_status", {})
    rev0 = before["revision"]
    with open(os.path.join(c.root, "src", "main.ts"), "a", encoding="utf-8") as f:
        f.write(FRESH_SOURCE)
    start = time.monotonic()
    last: dict[str, Any] = before
    while True:
        last = await c.ok("index_status", {})
        if last["revision"] > rev0 and last["stale"] is False:
            break
        if time.monotonic() - start > FRESH_TIMEOUT_S:
            raise Failure(
                f"index_status did not pass revision {rev0} with stale=false within "
                f"{FRESH_TIMEOUT_S:.0f} s of the edit; last: {short(last)}"
            )
        await anyio.sleep(POLL_S)
    waited = time.monotonic() - start
    rev1 = last["revision"]
    d = await c.ok("code_search", {"query": "freshlyAdded"})
    check(FRESH in ids(d.get("hits") or []), f"code_search freshlyAdded at revision {rev1}: {short(d)}")
    check(d["revision"] >= rev1, f"code_search freshlyAdded: revision {d['revision']} older than {rev1}")
    check(d["stale"] is False, f"code_search freshlyAdded: stale after the index caught up: {short(d)}")
    d = await c.ok("symbol_context", {"target": "greet"})
    check(FRESH in ids(d.get("callers") or []), f"symbol_context greet after the edit: no {FRESH}: {short(d)}")
    d = await c.ok("changed_code_impact", {})
    check("freshlyAdded" in json.dumps(d), f"changed_code_impact after the edit: no freshlyAdded: {short(d)}")
    return rev0, rev1, waited


async def scenario(session: ClientSession, root: str, transport: str) -> str:
    with anyio.fail_after(CALL_TIMEOUT_S):
        init = await session.initialize()
    server = getattr(init, "server_info", None) or getattr(init, "serverInfo", None)
    version = getattr(init, "protocol_version", None) or getattr(init, "protocolVersion", None)
    size = await check_tools_list(session)
    c = Client(session, root)
    await check_tools(c)
    await check_bad_arguments(c)
    rev0, rev1, waited = await check_freshness(c)
    name = f"{getattr(server, 'name', '?')} {getattr(server, 'version', '?')}"
    return (
        f"{transport}: server {name}, protocol {version}; {len(EXPECTED_TOOLS)} tools, "
        f"tools/list {size} chars; {c.calls} calls ok; edit seen: revision {rev0} -> {rev1} "
        f"in {waited:.2f} s"
    )


def child_env() -> dict[str, str]:
    """What the server inherits beyond the SDK's minimal default environment."""
    keep = ("CODEGRAPH_", "RUST_LOG", "RUST_BACKTRACE", "GIT_", "HOME", "PATH", "TMPDIR")
    return {k: v for k, v in os.environ.items() if k.startswith(keep)}


@asynccontextmanager
async def stdio_session(bin_path: str, root: str, log: Any) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=bin_path, args=["mcp", root], env=child_env(), cwd=root)
    async with stdio_client(params, errlog=log) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            yield session


class HttpServer:
    """`codegraph mcp ROOT --http 127.0.0.1:0`, its stderr drained by a thread."""

    LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+/mcp)")

    def __init__(self, bin_path: str, root: str, log: Any):
        self.log = log
        self.url: str | None = None
        self.ready = threading.Event()
        env = dict(os.environ)
        self.proc = subprocess.Popen(
            [bin_path, "mcp", root, "--http", "127.0.0.1:0"],
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.write(line)
            self.log.flush()
            if self.url is None:
                m = self.LISTENING.search(line)
                if m:
                    self.url = m.group(1)
                    self.ready.set()
        self.ready.set()  # EOF: the process is gone; wait_url reports it

    def wait_url(self) -> str:
        self.ready.wait(STARTUP_TIMEOUT_S)
        if self.url is None:
            code = self.proc.poll()
            state = f"exited with {code}" if code is not None else f"still running after {STARTUP_TIMEOUT_S:.0f} s"
            raise Failure(f"http: no 'listening on http://127.0.0.1:PORT/mcp' line on stderr; server {state}")
        return self.url

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.thread.join(timeout=5)


@asynccontextmanager
async def http_session(url: str) -> AsyncIterator[ClientSession]:
    async with _http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            yield session


async def run(args: argparse.Namespace, log: Any) -> str:
    root = os.path.realpath(args.root)
    with anyio.fail_after(SCENARIO_TIMEOUT_S):
        if args.transport == "stdio":
            async with stdio_session(args.codegraph, root, log) as session:
                return await scenario(session, root, "stdio")
        # Loopback only: a proxy from the environment must not see these requests.
        for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            os.environ.pop(var, None)
        os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost"
        server = HttpServer(args.codegraph, root, log)
        try:
            url = await anyio.to_thread.run_sync(server.wait_url)
            async with http_session(url) as session:
                summary = await scenario(session, root, "http")
            return f"{summary}; {url}"
        finally:
            server.stop()


def flatten(e: BaseException) -> list[BaseException]:
    if isinstance(e, BaseExceptionGroup):
        return [leaf for sub in e.exceptions for leaf in flatten(sub)]
    return [e]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--codegraph", required=True, help="path to the codegraph binary")
    p.add_argument("--root", required=True, help="the fixture repository to serve")
    p.add_argument("--transport", required=True, choices=["stdio", "http"])
    args = p.parse_args()
    if not os.environ.get("CODEGRAPH_CACHE_DIR"):
        print("FAIL: CODEGRAPH_CACHE_DIR is not set (the index must go to an isolated dir)", file=sys.stderr)
        return 1
    with tempfile.TemporaryFile("w+", encoding="utf-8") as log:
        try:
            summary = anyio.run(run, args, log)
        except BaseException as e:  # noqa: BLE001 - report every failure the same way
            if isinstance(e, KeyboardInterrupt):
                raise
            leaves = flatten(e)
            failures = [x for x in leaves if isinstance(x, Failure)]
            shown = failures or leaves
            for x in shown:
                kind = "" if isinstance(x, Failure) else f"{type(x).__name__}: "
                print(f"FAIL ({args.transport}): {kind}{x}", file=sys.stderr)
            if not failures:
                import traceback

                traceback.print_exception(e, file=sys.stderr)
            log.seek(0)
            tail = log.read()[-4000:]
            print(f"--- server stderr (last 4000 chars) ---\n{tail}", file=sys.stderr)
            return 1
    print(f"ok: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

//! Fuzz target: MCP tool calls with arbitrary arguments against a live in-process server on a
//! small Go + TypeScript fixture (routes, a tool, calls across files). The first byte picks the
//! tool; the rest is the arguments: a JSON object when it parses as one, else the bytes as the
//! tool's main text argument. Every call must come back as an answer or a tool error (an
//! argument the schema refuses is a protocol error, also fine); a panic while answering
//! ("internal error while answering") is a finding, and so is a server that stops answering.
//! Run it with `ASAN_OPTIONS=detect_leaks=0` and `-detect_leaks=0`: the server lives for the
//! whole run and keeps its memos across calls by design, which LeakSanitizer would report
//! after every input and at exit.
#![no_main]

use codegraph_server::mcp::roots::{RootHandle, RootOptions, RootSet};
use codegraph_server::mcp::tools::CodegraphMcp;
use libfuzzer_sys::fuzz_target;
use rmcp::model::{CallToolRequestParams, ClientConfig as ClientInfo};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

const FIXTURE: &str = r#"
//- /go.mod
module example.com/m

go 1.21
//- /api/api.go
package api

import "net/http"

// Serve registers the routes.
func Serve(mux *http.ServeMux) {
	mux.HandleFunc("/users/{id}", getUser)
}

func getUser(w http.ResponseWriter, r *http.Request) { helper(r.URL.Path) }

func helper(p string) int { return len(p) }
//- /src/server.ts
import express from "express";
import { greet } from "./greet";
const app = express();
app.get("/hello/:name", (req, res) => res.json({ msg: greet(req.params.name) }));
export class Server {
  start() { return greet("x"); }
}
//- /src/greet.ts
/** Says hello. */
export function greet(name: string): string { return "hi " + name; }
//- /src/tools.ts
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "x", version: "1" });
server.tool("find_user", "Finds a user", { id: z.string() }, async ({ id }) => greet(id));
//- /README.md
# Fixture

Call `greet` or `Server.start`.
"#;

/// The main text argument of each tool, for inputs that are not a JSON object.
fn text_arg(tool: &str) -> &'static str {
    match tool {
        "code_search" | "dag_grep" | "route_impact" | "tool_context" => "query",
        "open_node" => "id",
        "trace" => "from",
        "changed_code_impact" => "base",
        _ => "target",
    }
}

struct Harness {
    /// Every tool the server offers (`CodegraphMcp::tool_names`): a new tool is fuzzed too.
    tools: Vec<String>,
    runtime: tokio::runtime::Runtime,
    client: RunningService<RoleClient, ClientInfo>,
    _dir: tempfile::TempDir,
}

fn harness() -> &'static Harness {
    static H: OnceLock<Harness> = OnceLock::new();
    H.get_or_init(|| {
        let (dir, base, root) = codegraph_tests::cli::git_fixture(FIXTURE);
        let opts = RootOptions { build_wait: Duration::from_secs(60), ..RootOptions::default() };
        let handle = RootHandle::new(root, base.join("repo.db"), opts);
        let roots = Arc::new(RootSet::new(vec![handle], None));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let client = runtime.block_on(async move {
            let (server_io, client_io) = tokio::io::duplex(1 << 20);
            tokio::spawn(async move {
                if let Ok(server) = CodegraphMcp::new(roots, true).serve(server_io).await {
                    let _ = server.waiting().await;
                }
            });
            ClientInfo::default().serve(client_io).await.expect("client handshake")
        });
        let h = Harness { tools: CodegraphMcp::tool_names(), runtime, client, _dir: dir };
        // The first answer waits for the first index.
        let first = call(&h, "index_status", Map::new()).expect("index_status answers");
        assert!(!first.0, "index_status failed: {}", first.1);
        h
    })
}

/// (is_error, text) of one call; `None` for a protocol-level refusal.
fn call(h: &Harness, tool: &str, args: Map<String, Value>) -> Option<(bool, String)> {
    let params = CallToolRequestParams::new(tool.to_string()).with_arguments(args);
    let result = h
        .runtime
        .block_on(async {
            tokio::time::timeout(Duration::from_secs(30), h.client.call_tool(params)).await
        })
        .unwrap_or_else(|_| panic!("{tool}: no answer within 30 s"))
        .ok()?;
    let text = result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone());
    Some((result.is_error == Some(true), text.unwrap_or_default()))
}

fuzz_target!(|data: &[u8]| {
    let h = harness();
    let Some((&pick, rest)) = data.split_first() else { return };
    let tool = h.tools[pick as usize % h.tools.len()].as_str();
    let args = match serde_json::from_slice::<Value>(rest) {
        Ok(Value::Object(map)) => map,
        _ => {
            let mut map = Map::new();
            map.insert(text_arg(tool).to_string(), json!(String::from_utf8_lossy(rest)));
            map
        }
    };
    if let Some((is_error, text)) = call(h, tool, args.clone()) {
        assert!(
            !(is_error && text.starts_with("internal error while answering")),
            "{tool} {}: {text}",
            Value::Object(args)
        );
    }
});

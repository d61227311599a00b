//! Drives the real `codegraph mcp` binary with the MCP Inspector's CLI mode
//! (`mcp-inspector --cli ... --method tools/call --tool-name T --tool-arg k=v`), a generic
//! client that fills arguments from each tool's input schema: every tool is called with the
//! numeric and boolean arguments it takes, which a schema typed `["integer", "null"]` made
//! impossible. The Inspector is installed by `bash tests/mcp/setup.sh` (into
//! target/mcp-inspector; CI runs it) or found through `CODEGRAPH_TEST_INSPECTOR`. Without it
//! this test fails rather than skips, so a missing install step cannot pass unnoticed.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = r#"
//- /src/greet.ts
export function greet(name: string): string { return "hi " + name; }
//- /src/main.ts
import { greet } from "./greet";
export function main() { return greet("a"); }
"#;

const INSTALL_HINT: &str = "install the MCP Inspector with `bash tests/mcp/setup.sh` (it creates \
     target/mcp-inspector), or set CODEGRAPH_TEST_INSPECTOR to its `mcp-inspector` script";

fn inspector() -> PathBuf {
    let p = match std::env::var_os("CODEGRAPH_TEST_INSPECTOR") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/mcp-inspector/node_modules/.bin/mcp-inspector"),
    };
    assert!(p.exists(), "no MCP Inspector at {}: {INSTALL_HINT}", p.display());
    p
}

/// Calls `tool` with `args` (`key=value`, typed by the Inspector from the tool's schema);
/// returns the structured answer, failing on an error result.
fn call(bin: &Path, root: &Path, cache: &Path, tool: &str, args: &[&str]) -> Value {
    let mut cmd = Command::new(bin);
    cmd.arg("--cli").arg(env!("CARGO_BIN_EXE_codegraph")).arg("mcp").arg(root).args([
        "--method",
        "tools/call",
        "--tool-name",
        tool,
    ]);
    for a in args {
        cmd.args(["--tool-arg", a]);
    }
    let out = cmd
        .env("CODEGRAPH_CACHE_DIR", cache)
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}; {INSTALL_HINT}", bin.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{tool} {args:?}: inspector failed\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{tool}: not JSON ({e}):\n{stdout}"));
    assert_ne!(v["isError"], true, "{tool} {args:?}: {v}");
    v["structuredContent"].clone()
}

#[test]
fn the_inspector_cli_calls_every_tool_with_numbers_and_booleans() {
    let bin = inspector();
    let (_dir, base, root) = codegraph_tests::cli::git_fixture(FIXTURE);
    let cache = base.join("cache");
    // Build the index once, so every call below answers at once.
    let out = Command::new(env!("CARGO_BIN_EXE_codegraph"))
        .arg("index")
        .arg(&root)
        .env("CODEGRAPH_CACHE_DIR", &cache)
        .output()
        .expect("index");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let greet = "sym:ts:src/greet.ts:greet";
    let main = "sym:ts:src/main.ts:main";
    let c = |tool: &str, args: &[&str]| call(&bin, &root, &cache, tool, args);

    let v = c("code_search", &["query=greet", "limit=3"]);
    assert_eq!(v["hits"][0]["id"], greet, "{v}");
    assert_eq!(v["limit"], 3);
    let v = c("open_node", &[&format!("id={greet}"), "limit=5"]);
    assert_eq!(v["id"], greet, "{v}");
    let v = c("symbol_context", &["target=greet", "limit=2", "offset=0", "list=callers"]);
    assert_eq!(v["callers"][0]["id"], main, "{v}");
    let v = c(
        "impact_analysis",
        &["target=greet", "depth=2", "min_confidence=0.5", "include_tests=true", "limit=10"],
    );
    assert_eq!(v["nodes"][0]["id"], main, "{v}");
    let v = c("changed_code_impact", &["depth=2", "include_tests=false", "staged=false"]);
    assert_eq!(v["changed_files"], serde_json::json!([]), "{v}");
    let v = c("trace", &["from=main", "to=greet", "depth=3"]);
    assert_eq!(v["paths"][0]["hops"][0]["dst"], greet, "{v}");
    let v = c("expand", &[&format!("target={main}"), "depth=1", "budget=5", "limit=5"]);
    assert_eq!(v["seed"], main, "{v}");
    let v = c(
        "dag_grep",
        &["query=greet", "k=2", "depth=1", "budget=6", "per_node_cap=3", "anchors=false"],
    );
    assert!(v["nodes"].as_array().is_some_and(|n| !n.is_empty() && n.len() <= 6), "{v}");
    let v = c("route_impact", &["route=GET /x", "limit=2"]);
    assert_eq!(v["matches"], serde_json::json!([]), "{v}");
    let v = c("tool_context", &["tool=x", "limit=2"]);
    assert_eq!(v["matches"], serde_json::json!([]), "{v}");
    // A fresh server re-checks the existing index first: index_status says so at once.
    let v = c("index_status", &[]);
    assert!(v["phase"] == "ready" || v["phase"] == "syncing", "{v}");
    assert_eq!(v["revision"], 1, "{v}");

    // Every call was logged as a query event of the MCP surface, with its arguments.
    let log = std::fs::read_to_string(cache.join("events.jsonl")).expect("events log");
    let events: Vec<Value> =
        log.lines().map(|l| serde_json::from_str(l).expect("a JSON event")).collect();
    let mcp: Vec<&Value> = events.iter().filter(|e| e["surface"] == "mcp").collect();
    let ops: Vec<&str> = mcp.iter().filter_map(|e| e["operation"].as_str()).collect();
    assert_eq!(
        ops,
        [
            "code_search",
            "open_node",
            "symbol_context",
            "impact_analysis",
            "changed_code_impact",
            "trace",
            "expand",
            "dag_grep",
            "route_impact",
            "tool_context",
            "index_status"
        ],
        "{log}"
    );
    assert_eq!(mcp[3]["arguments"]["depth"], 2, "{}", mcp[3]);
    assert_eq!(mcp[3]["arguments"]["include_tests"], true, "{}", mcp[3]);
    assert!(mcp.iter().all(|e| e["chars"].as_u64().is_some_and(|c| c > 0)), "{log}");
    assert_eq!(mcp[0]["root"], root.display().to_string(), "{}", mcp[0]);
}

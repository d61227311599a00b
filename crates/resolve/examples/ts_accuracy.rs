//! Scores TS/JS CALLS edges against a `ts_oracle.js` JSONL file (see shared/eval/README.md).
//!
//! `cargo run --release -p codegraph-resolve --example ts_accuracy -- ROOT ORACLE.jsonl [--misses N]`
//!
//! Also checks the call accounting: in every file without syntax errors, the call expressions
//! equal CALLS edges + unresolved sites + calls outside the workspace.
//!
//! Reads every file under ROOT (skipping `node_modules` and `.git`), builds the salsa inputs as
//! the fixture tests do, runs `resolve_file` on each file and compares site keys
//! `(caller_file, caller_line, callee_file, callee_symbol)` and pairs
//! `(caller_file, caller_symbol, callee_file, callee_symbol)` with the oracle's internal records.

use codegraph_parse::Language;
use codegraph_resolve::resolve_file;
use codegraph_schema::EdgeKind;
use std::path::Path;

mod common;
use common::field;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(root), Some(oracle)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: ts_accuracy ROOT ORACLE.jsonl [--misses N]");
        std::process::exit(2);
    };
    let misses = common::misses_arg(&args);
    let root = Path::new(root);
    let corpus = common::load(root, &|p| Language::from_path(p).is_some() || p.ends_with(".json"));
    let common::Corpus { db, files, workspace, .. } = &corpus;
    let (db, workspace) = (db, *workspace);
    let accesses: usize = files
        .iter()
        .map(|&f| {
            resolve_file(db, workspace, f)
                .edges
                .iter()
                .filter(|e| e.kind == EdgeKind::Accesses)
                .count()
        })
        .sum();
    corpus.print_call_accounting();

    // symbol ID -> (file, qualified name, kind)
    let syms = corpus.symbols();

    let label = |v: &serde_json::Value| field(v, "callee_kind").to_string();
    let oracle = common::Oracle::read(oracle, &label);
    let scored = corpus.score(&oracle, &syms, misses);
    corpus.print_scores(&oracle, scored);
    println!("ACCESSES edges (all files): {accesses}");
}

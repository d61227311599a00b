//! Scores Java CALLS edges against a javac oracle JSONL file (shared/eval/java_oracle).
//!
//! `cargo run --release -p codegraph-resolve --example java_accuracy -- ROOT ORACLE.jsonl [--misses N]`
//!
//! Also checks the call accounting: in every file without syntax errors, the call expressions
//! equal CALLS edges + unresolved sites + calls outside the workspace.
//!
//! Reads every file under ROOT, builds the salsa inputs as the fixture tests do, runs
//! `resolve_file` on each file and compares site keys `(caller_file, caller_line,
//! callee_file, callee_symbol)` and pairs `(caller_file, caller_symbol, callee_file,
//! callee_symbol)` with the oracle's internal records.

use codegraph_parse::Language;
use std::path::Path;

mod common;
use common::field;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(root), Some(oracle)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: java_accuracy ROOT ORACLE.jsonl [--misses N]");
        std::process::exit(2);
    };
    let misses = common::misses_arg(&args);
    let corpus = common::load(Path::new(root), &|p| Language::from_path(p).is_some());
    corpus.print_call_accounting();
    let syms = corpus.symbols();
    let label = |v: &serde_json::Value| format!("{} {}", field(v, "kind"), field(v, "via"));
    let oracle = common::Oracle::read(oracle, &label);
    let scored = corpus.score(&oracle, &syms, misses);
    corpus.print_scores(&oracle, scored);
}

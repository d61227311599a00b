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
use codegraph_resolve::resolve_file;
use codegraph_schema::EdgeKind;
use std::collections::{HashMap, HashSet};
use std::path::Path;

mod common;
use common::field;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(root), Some(oracle)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: java_accuracy ROOT ORACLE.jsonl [--misses N]");
        std::process::exit(2);
    };
    let misses: usize = args
        .iter()
        .position(|a| a == "--misses")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let root = Path::new(root);
    let corpus = common::load(root, &|p| Language::from_path(p).is_some());
    let common::Corpus { db, files, workspace, parse, resolve } = &corpus;
    let (db, workspace) = (db, *workspace);
    corpus.print_call_accounting();
    let syms = corpus.symbols();
    let caller_name =
        |id: &str| -> String { syms.get(id).map(|s| s.1.clone()).unwrap_or_default() };

    let text = std::fs::read_to_string(oracle).unwrap_or_default();
    let mut o_sites: HashSet<common::SiteKey> = HashSet::new();
    let mut o_pairs: HashSet<common::PairKey> = HashSet::new();
    let mut o_files: HashSet<String> = HashSet::new();
    let mut o_records = Vec::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        o_files.insert(field(&v, "caller_file").to_string());
        if v.get("callee_external").and_then(|x| x.as_bool()) != Some(false)
            || field(&v, "callee_file").is_empty()
        {
            continue;
        }
        let (key, pair) = common::record_keys(&v);
        o_pairs.insert(pair);
        o_records.push((key.clone(), field(&v, "kind").to_string(), field(&v, "via").to_string()));
        o_sites.insert(key);
    }

    let mut i_sites: HashSet<common::SiteKey> = HashSet::new();
    let mut i_pairs: HashSet<common::PairKey> = HashSet::new();
    let mut unresolved = 0usize;
    let mut by_reason: HashMap<String, (usize, usize)> = HashMap::new();
    for &f in files {
        let path = f.path(db).clone();
        if !o_files.contains(&path) {
            continue;
        }
        let r = resolve_file(db, workspace, f);
        unresolved += r.unresolved.len();
        for e in &r.edges {
            if e.kind != EdgeKind::Calls {
                continue;
            }
            let Some((cf, cq, _)) = syms.get(&*e.dst) else { continue };
            let key = (path.clone(), e.line, cf.clone(), cq.clone());
            if i_sites.insert(key.clone()) {
                let ent = by_reason.entry(e.reason.to_string()).or_default();
                ent.0 += 1;
                if o_sites.contains(&key) {
                    ent.1 += 1;
                } else if misses > 0 {
                    println!("WRONG {} {} {}:{}", e.reason, key.0, key.1, key.3);
                }
            }
            i_pairs.insert((path.clone(), caller_name(&e.src), cf.clone(), cq.clone()));
        }
    }
    if misses > 0 {
        let mut shown = 0;
        for (k, kind, via) in &o_records {
            if !i_sites.contains(k) && shown < misses {
                println!("MISS {kind} {via} {}:{} -> {}:{}", k.0, k.1, k.2, k.3);
                shown += 1;
            }
        }
    }
    println!("files {} (oracle covers {})", files.len(), o_files.len());
    println!(
        "parse {:.0} ms, resolve {:.0} ms",
        parse.as_secs_f64() * 1e3,
        resolve.as_secs_f64() * 1e3
    );
    common::print_match("sites", &o_sites, &i_sites);
    common::print_match("pairs", &o_pairs, &i_pairs);
    common::print_reasons(by_reason);
    println!("unresolved sites (admitted): {unresolved}");
}

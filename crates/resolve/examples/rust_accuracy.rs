//! Scores Rust CALLS edges against a rust-analyzer oracle JSONL file (shared/eval/rust_oracle).
//!
//! `cargo run --release -p codegraph-resolve --example rust_accuracy -- ROOT ORACLE.jsonl [--misses N]`
//!
//! As the oracle's README says: sites in cfg-disabled code (`dispatch == "inactive"`) are left
//! out on both sides (by caller file and line), and so are callees that exist only in a macro
//! expansion (`callee_generated`): such records are dropped, and so are our sites on lines
//! where the oracle has no other record. Also checks the call accounting: in every file without
//! syntax errors, the call expressions equal CALLS edges + unresolved sites + calls outside the
//! workspace. Reads every `.rs` file and `Cargo.toml` under ROOT (not `target/`).

use codegraph_parse::Language;
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

mod common;
use common::field;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(root), Some(oracle_path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: rust_accuracy ROOT ORACLE.jsonl [--misses N]");
        std::process::exit(2);
    };
    let misses = common::misses_arg(&args);
    // The oracle without generated callees; the inactive lines kept apart.
    let text = std::fs::read_to_string(oracle_path).unwrap_or_default();
    let mut inactive: HashSet<(String, u32)> = HashSet::new();
    // Lines whose calls the oracle resolves only to generated declarations (a forwarding impl
    // written by a macro): no source reader can name that target, so whatever we say there
    // is left out too, unless the oracle also has a source-visible record on the line.
    let mut generated: HashSet<(String, u32)> = HashSet::new();
    let mut visible: HashSet<(String, u32)> = HashSet::new();
    let mut kept = String::new();
    let mut by_dispatch: std::collections::BTreeMap<String, usize> = Default::default();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let at = v.get("caller_line").and_then(|x| x.as_u64()).unwrap_or(0) as u32;
        if field(&v, "dispatch") == "inactive" {
            inactive.insert((field(&v, "caller_file").to_string(), at));
            continue;
        }
        let key = (field(&v, "caller_file").to_string(), at);
        if v.get("callee_generated").and_then(|x| x.as_bool()) == Some(true) {
            generated.insert(key);
            continue;
        }
        visible.insert(key);
        if v.get("callee_external").and_then(|x| x.as_bool()) == Some(false) {
            *by_dispatch.entry(field(&v, "dispatch").to_string()).or_default() += 1;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    let tmp = std::env::temp_dir().join(format!("rust_accuracy_{}.jsonl", std::process::id()));
    if let Ok(mut f) = std::fs::File::create(&tmp) {
        let _ = f.write_all(kept.as_bytes());
    }
    let keep = |p: &str| {
        !p.starts_with("target/")
            && !p.contains("/target/")
            && (Language::from_path(p) == Some(Language::Rust) || p.ends_with("Cargo.toml"))
    };
    let corpus = common::load(Path::new(root), &keep);
    // `--at FILE:LINE`: what the index says about one line (edges, unresolved sites, hints).
    if let Some(at) = args.iter().position(|a| a == "--at").and_then(|i| args.get(i + 1))
        && let Some((path, line)) = at.rsplit_once(':')
        && let Ok(line) = line.parse::<u32>()
    {
        for &f in &corpus.files {
            if f.path(&corpus.db) != path {
                continue;
            }
            let r = codegraph_resolve::resolve_file(&corpus.db, corpus.workspace, f);
            for e in r.edges.iter().filter(|e| e.line == line) {
                println!("EDGE {} {} -> {} ({})", e.kind, e.src, e.dst, e.reason);
            }
            for u in r.unresolved.iter().filter(|u| u.line == line) {
                println!("UNRESOLVED {} in {}", u.callee, u.caller);
            }
            let facts = codegraph_db::file_facts(&corpus.db, f);
            for c in facts.calls.iter().filter(|c| c.line == line) {
                println!("CALL {:?}", c.callee);
            }
            for h in facts.type_hints.iter().filter(|h| h.line + 40 >= line && h.line <= line) {
                println!("HINT L{} {:?} {} = {:?}", h.line, h.scope, h.name, h.source);
            }
        }
        return;
    }
    corpus.print_call_accounting();
    let syms = corpus.symbols();
    let label = |v: &serde_json::Value| format!("{} {}", field(v, "dispatch"), field(v, "via"));
    let oracle = common::Oracle::read(&tmp.to_string_lossy(), &label);
    let _ = std::fs::remove_file(&tmp);
    let mut scored = corpus.score(&oracle, &syms, misses);
    generated.retain(|k| !visible.contains(k));
    scored.sites.retain(|k| {
        let key = (k.0.clone(), k.1);
        !inactive.contains(&key) && !generated.contains(&key)
    });
    println!(
        "oracle internal records by dispatch: {by_dispatch:?}; inactive lines {}; lines with \
         generated callees only {}",
        inactive.len(),
        generated.len()
    );
    corpus.print_scores(&oracle, scored);
}

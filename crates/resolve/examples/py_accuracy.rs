//! Scores Python CALLS edges against a `py_oracle.py` (jedi) JSONL file (see
//! shared/eval/README.md).
//!
//! `cargo run --release -p codegraph-resolve --example py_accuracy -- ROOT ORACLE.jsonl [--misses N]`
//!
//! A class called is one CALLS edge to the class (the oracle's `new`) and one to its
//! `__init__`: the `__init__` edges of such sites are counted apart ("constructor edges"),
//! not as sites.
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
use std::collections::{HashMap, HashSet};
use std::path::Path;

mod common;
use common::field;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(root), Some(oracle)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: py_accuracy ROOT ORACLE.jsonl [--misses N]");
        std::process::exit(2);
    };
    let misses = common::misses_arg(&args);
    let root = Path::new(root);
    let corpus = common::load(root, &|p| Language::from_path(p).is_some());
    let common::Corpus { db, files, workspace, parse, resolve } = &corpus;
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
    let classes: HashSet<String> = syms
        .iter()
        .filter(|(_, s)| {
            matches!(s.2, codegraph_schema::NodeKind::Class | codegraph_schema::NodeKind::Enum)
        })
        .map(|(id, _)| id.clone())
        .collect();
    let caller_name = |id: &str| -> String {
        if id.starts_with("file:") {
            "<module>".to_string()
        } else {
            syms.get(id).map(|s| s.1.clone()).unwrap_or_default()
        }
    };

    // Oracle.
    let text = std::fs::read_to_string(oracle).unwrap_or_default();
    let mut o_sites: HashSet<common::SiteKey> = HashSet::new();
    let mut o_pairs: HashSet<common::PairKey> = HashSet::new();
    let mut o_files: HashSet<String> = HashSet::new();
    let mut o_records = Vec::new();
    // Lines where the oracle resolved some call (inside or outside the root): jedi leaves a
    // package's imports of itself by its full name unresolved (`from rich.color import
    // Color` inside rich: no `sys.path` entry for the root), so edges on its other lines
    // cannot be judged.
    let mut o_resolved_lines: HashSet<(String, u32)> = HashSet::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        o_files.insert(field(&v, "caller_file").to_string());
        if !field(&v, "callee_file").is_empty() {
            let l = v.get("caller_line").and_then(|x| x.as_u64()).unwrap_or(0) as u32;
            o_resolved_lines.insert((field(&v, "caller_file").to_string(), l));
        }
        // Internal records only: resolved (a callee file) and inside the root.
        if v.get("callee_external").and_then(|x| x.as_bool()) != Some(false)
            || field(&v, "callee_file").is_empty()
        {
            continue;
        }
        let (key, pair) = common::record_keys(&v);
        o_pairs.insert(pair);
        o_records.push((key.clone(), field(&v, "callee_kind").to_string()));
        o_sites.insert(key);
    }

    let mut i_sites: HashSet<common::SiteKey> = HashSet::new();
    let mut i_pairs: HashSet<common::PairKey> = HashSet::new();
    let mut unresolved = 0usize;
    let mut constructor_edges = 0usize;
    let mut by_reason: HashMap<String, (usize, usize)> = HashMap::new();
    for &f in files {
        let path = f.path(db).clone();
        if !o_files.contains(&path) {
            continue;
        }
        let r = resolve_file(db, workspace, f);
        unresolved += r.unresolved.len();
        // (caller, line) of the sites that call a class.
        let class_sites: HashSet<(String, u32)> = r
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Calls && classes.contains(&*e.dst))
            .map(|e| (e.src.to_string(), e.line))
            .collect();
        for e in &r.edges {
            if e.kind != EdgeKind::Calls {
                continue;
            }
            if e.dst.ends_with(".__init__") && class_sites.contains(&(e.src.to_string(), e.line)) {
                constructor_edges += 1;
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
        for (k, kind) in &o_records {
            if !i_sites.contains(k) && shown < misses {
                println!("MISS {kind} {}:{} -> {}:{}", k.0, k.1, k.2, k.3);
                shown += 1;
            }
        }
    }
    let judged: Vec<_> =
        i_sites.iter().filter(|k| o_resolved_lines.contains(&(k.0.clone(), k.1))).collect();
    let judged_hit = judged.iter().filter(|k| o_sites.contains(**k)).count();
    println!("files {} (oracle covers {})", files.len(), o_files.len());
    println!(
        "parse {:.0} ms, resolve {:.0} ms",
        parse.as_secs_f64() * 1e3,
        resolve.as_secs_f64() * 1e3
    );
    common::print_match("sites", &o_sites, &i_sites);
    println!(
        "sites on lines the oracle resolves: index {} match {} precision {:.1}%",
        judged.len(),
        judged_hit,
        common::pct(judged_hit, judged.len())
    );
    common::print_match("pairs", &o_pairs, &i_pairs);
    common::print_reasons(by_reason);
    println!("unresolved sites (admitted): {unresolved}");
    println!("constructor edges (__init__ beside the class, not scored): {constructor_edges}");
    println!("ACCESSES edges (all files): {accesses}");
}

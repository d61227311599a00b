//! Scores Go CALLS edges against the compiler-backed oracle (shared/eval/go_oracle).
//!
//! Why it exists: resolution rules are only as good as their measured precision and recall;
//! this harness runs the resolver on a whole root without the rest of the index pipeline and
//! scores it per shared/eval/README.md ("How to score").
//!
//! Usage: `cargo run --release -p codegraph-resolve --example go_accuracy -- ROOT ORACLE.jsonl
//! [--show N]`. Everything under ROOT is indexed (`.go` files and `go.mod`); only caller files
//! the oracle covers are scored. Two figures are printed: "internal" (records whose callee is
//! in a loaded package, `callee_external == false`, the README's definition; our edges are
//! restricted to callees in those packages too) and "in-root" (every record whose callee file
//! lies under ROOT, a wider check of cross-package resolution).

use codegraph_db::{Content, Database, FileMeta, SourceFile, Workspace, file_facts};
use codegraph_parse::Language;
use codegraph_resolve::{resolve_file, symbol_ids};
use codegraph_schema::EdgeKind;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

type Site = (String, u32, String, String);

fn walk(root: &Path, rel: &str, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().to_string();
        let path = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            if name != ".git" {
                walk(root, &path, out);
            }
        } else if ft.is_file()
            && (name.ends_with(".go") || name == "go.mod")
            && let Ok(bytes) = std::fs::read(e.path())
        {
            out.push((path, String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
}

struct Oracle {
    covered: HashSet<String>,
    /// Site -> dispatch ("static" / "interface"), internal records.
    internal: HashMap<Site, String>,
    /// Site -> dispatch, records whose callee file is under the root.
    in_root: HashMap<Site, String>,
    internal_dirs: HashSet<String>,
    /// (caller file, caller symbol, callee file, callee symbol) pairs.
    pairs_internal: HashSet<(String, String, String, String)>,
    pairs_in_root: HashSet<(String, String, String, String)>,
}

fn dir_of(p: &str) -> &str {
    p.rsplit_once('/').map_or("", |(d, _)| d)
}

fn load_oracle(path: &str) -> Oracle {
    let text = std::fs::read_to_string(path).expect("read oracle");
    let mut o = Oracle {
        covered: HashSet::new(),
        internal: HashMap::new(),
        in_root: HashMap::new(),
        internal_dirs: HashSet::new(),
        pairs_internal: HashSet::new(),
        pairs_in_root: HashSet::new(),
    };
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let s = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
        let caller_file = s("caller_file");
        if caller_file.is_empty() {
            continue;
        }
        o.covered.insert(caller_file.clone());
        o.internal_dirs.insert(dir_of(&caller_file).to_string());
        let callee_file = s("callee_file");
        if callee_file.is_empty() || callee_file.starts_with('$') || callee_file.starts_with('/') {
            continue;
        }
        let line_no = v.get("caller_line").and_then(|x| x.as_u64()).unwrap_or(0) as u32;
        let site = (caller_file.clone(), line_no, callee_file.clone(), s("callee_symbol"));
        let pair = (caller_file, s("caller_symbol"), callee_file, s("callee_symbol"));
        let dispatch = s("dispatch");
        if v.get("callee_external").and_then(|x| x.as_bool()) == Some(false) {
            o.internal.insert(site.clone(), dispatch.clone());
            o.pairs_internal.insert(pair.clone());
        }
        o.in_root.insert(site, dispatch);
        o.pairs_in_root.insert(pair);
    }
    o
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 { 100.0 } else { 100.0 * a as f64 / b as f64 }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(root), Some(oracle_path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: go_accuracy ROOT ORACLE.jsonl [--show N]");
        std::process::exit(2);
    };
    let show: usize = args
        .iter()
        .position(|a| a == "--show")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let t0 = Instant::now();
    let mut texts = Vec::new();
    walk(Path::new(root), "", &mut texts);
    let read_s = t0.elapsed().as_secs_f64();
    let mut db = Database::default();
    let files: Vec<SourceFile> = texts
        .into_iter()
        .map(|(path, text)| {
            let meta = FileMeta::for_text(&text);
            SourceFile::new(
                &db,
                path.clone(),
                Language::from_path(&path),
                Content::Text(Arc::from(text)),
                meta,
            )
        })
        .collect();
    let workspace = Workspace::new(&db, files.clone());
    let t1 = Instant::now();
    db.prefetch(
        &files,
        |db, f| {
            file_facts(db, f);
        },
        |_, _| {},
    );
    let parse_s = t1.elapsed().as_secs_f64();
    let t2 = Instant::now();
    db.prefetch(
        &files,
        |db, f| {
            resolve_file(db, workspace, f);
        },
        |_, _| {},
    );
    let resolve_s = t2.elapsed().as_secs_f64();
    eprintln!(
        "{} files: read {read_s:.2}s, parse+facts {parse_s:.2}s, resolve {resolve_s:.2}s",
        files.len()
    );

    let oracle = load_oracle(oracle_path);
    // Symbol ID -> (file, qualified name).
    let mut sym: HashMap<&str, (&str, &str)> = HashMap::new();
    let held: Vec<_> = files.iter().map(|&f| file_facts(&db, f)).collect();
    for (&f, facts) in files.iter().zip(&held) {
        for (id, s) in symbol_ids(&db, f).iter().zip(&facts.symbols) {
            sym.insert(&**id, (f.path(&db).as_str(), s.qualified_name.as_str()));
        }
    }
    let mut ours: HashMap<Site, String> = HashMap::new();
    let mut our_pairs: HashSet<(String, String, String, String)> = HashSet::new();
    let mut unresolved = 0usize;
    let mut edges_total = 0usize;
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    for &f in &files {
        let r = resolve_file(&db, workspace, f);
        for e in &r.edges {
            *by_kind.entry(e.kind.to_string()).or_default() += 1;
        }
        edges_total += r.edges.len();
        let path = f.path(&db);
        if !oracle.covered.contains(path) {
            continue;
        }
        unresolved += r.unresolved.len();
        for e in r.edges.iter().filter(|e| e.kind == EdgeKind::Calls) {
            let Some(&(cf, cq)) = sym.get(&*e.dst) else { continue };
            let caller = sym.get(&*e.src).map_or("<module>", |&(_, q)| q);
            ours.insert(
                (path.clone(), e.line, cf.to_string(), cq.to_string()),
                e.reason.to_string(),
            );
            our_pairs.insert((path.clone(), caller.to_string(), cf.to_string(), cq.to_string()));
        }
    }
    println!("edges by kind (whole root): {by_kind:?}, total {edges_total}");
    println!(
        "covered files {}, our CALLS sites {}, unresolved sites admitted {unresolved}",
        oracle.covered.len(),
        ours.len()
    );
    for (label, truth, pairs, internal_only) in [
        ("internal", &oracle.internal, &oracle.pairs_internal, true),
        ("in-root", &oracle.in_root, &oracle.pairs_in_root, false),
    ] {
        let keep = |callee_file: &str| {
            !internal_only || oracle.internal_dirs.contains(dir_of(callee_file))
        };
        let mine: HashMap<&Site, &String> = ours.iter().filter(|(k, _)| keep(&k.2)).collect();
        let hit = mine.keys().filter(|k| truth.contains_key(**k)).count();
        let mut by_reason: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for (k, r) in &mine {
            let e = by_reason.entry(r.as_str()).or_default();
            e.0 += 1;
            if truth.contains_key(*k) {
                e.1 += 1;
            }
        }
        let static_total = truth.values().filter(|d| *d == "static").count();
        let iface_total = truth.len() - static_total;
        let static_hit =
            truth.iter().filter(|(k, d)| *d == "static" && mine.contains_key(k)).count();
        let iface_hit =
            truth.iter().filter(|(k, d)| *d != "static" && mine.contains_key(k)).count();
        let mine_pairs: HashSet<_> = our_pairs.iter().filter(|p| keep(&p.2)).collect();
        let pair_hit = mine_pairs.iter().filter(|p| pairs.contains(**p)).count();
        println!("== {label}");
        println!(
            "site precision {:.2}% ({hit}/{}), recall {:.2}% ({}/{})",
            pct(hit, mine.len()),
            mine.len(),
            pct(static_hit + iface_hit, truth.len()),
            static_hit + iface_hit,
            truth.len()
        );
        println!(
            "  static recall {:.2}% ({static_hit}/{static_total}); interface dispatch recall {:.2}% ({iface_hit}/{iface_total})",
            pct(static_hit, static_total),
            pct(iface_hit, iface_total)
        );
        for (r, (n, h)) in &by_reason {
            println!("  reason {r}: {n} edges, {h} in oracle ({:.2}%)", pct(*h, *n));
        }
        println!(
            "pair precision {:.2}% ({pair_hit}/{}), recall {:.2}% ({}/{})",
            pct(pair_hit, mine_pairs.len()),
            mine_pairs.len(),
            pct(pairs.iter().filter(|p| mine_pairs.contains(p)).count(), pairs.len()),
            pairs.iter().filter(|p| mine_pairs.contains(p)).count(),
            pairs.len()
        );
        if show > 0 {
            let mut fps: Vec<_> = mine.iter().filter(|(k, _)| !truth.contains_key(**k)).collect();
            fps.sort();
            for (k, r) in fps.iter().take(show) {
                println!("  FP {}:{} -> {}:{} ({r})", k.0, k.1, k.2, k.3);
            }
            let mut misses: Vec<_> = truth.iter().filter(|(k, _)| !mine.contains_key(k)).collect();
            misses.sort();
            for (k, d) in misses.iter().take(show) {
                println!("  MISS {}:{} -> {}:{} ({d})", k.0, k.1, k.2, k.3);
            }
        }
    }
}

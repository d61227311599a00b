//! What the TS/JS, Python and Java accuracy harnesses share: reading a corpus into a salsa
//! workspace, extracting and resolving it with timings, the call accounting, the symbol
//! table edges are scored by, and (TS/JS and Java) reading an oracle and scoring CALLS
//! against it.

// Each harness includes this module and uses its part of it.
#![allow(dead_code)]

use codegraph_db::{Content, Database, FileMeta, SourceFile, Workspace, file_facts};
use codegraph_parse::Language;
use codegraph_resolve::{Node, file_graph, resolve_file};
use codegraph_schema::NodeKind;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Every file under `dir` that `keep` accepts (root-relative path, text), skipping
/// `node_modules`, `.git` and `__pycache__`.
pub fn walk(root: &Path, dir: &Path, keep: &dyn Fn(&str) -> bool, out: &mut Vec<(String, String)>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name == "node_modules" || name == ".git" || name == "__pycache__" {
            continue;
        }
        if p.is_dir() {
            walk(root, &p, keep, out);
        } else if let Ok(text) = std::fs::read_to_string(&p)
            && let Ok(rel) = p.strip_prefix(root)
        {
            let rel = rel.to_string_lossy().replace('\\', "/");
            if keep(&rel) {
                out.push((rel, text));
            }
        }
    }
}

/// A string field of an oracle record (`""` when absent).
pub fn field<'a>(v: &'a serde_json::Value, k: &str) -> &'a str {
    v.get(k).and_then(|x| x.as_str()).unwrap_or("")
}

/// A corpus as salsa inputs, extracted on all cores and resolved.
pub struct Corpus {
    pub db: Database,
    pub files: Vec<SourceFile>,
    pub workspace: Workspace,
    pub parse: Duration,
    pub resolve: Duration,
}

pub fn load(root: &Path, keep: &dyn Fn(&str) -> bool) -> Corpus {
    let mut texts = Vec::new();
    walk(root, root, keep, &mut texts);
    texts.sort();
    let mut db = Database::default();
    let files: Vec<SourceFile> = texts
        .into_iter()
        .map(|(path, text)| {
            let meta = FileMeta::for_text(&text);
            let lang = Language::from_path(&path);
            SourceFile::new(&db, path, lang, Content::Text(Arc::from(text)), meta)
        })
        .collect();
    let workspace = Workspace::new(&db, files.clone());
    let t0 = Instant::now();
    db.prefetch(
        &files,
        |db, f| {
            file_facts(db, f);
        },
        |_, _| {},
    );
    let parse = t0.elapsed();
    let t1 = Instant::now();
    for &f in &files {
        let _ = resolve_file(&db, workspace, f);
    }
    let resolve = t1.elapsed();
    Corpus { db, files, workspace, parse, resolve }
}

impl Corpus {
    /// Prints the call accounting of the files without syntax errors whose language keeps it:
    /// every call expression is a CALLS edge, an unresolved site or a call outside the
    /// workspace (the first ten files where it does not add up are named).
    pub fn print_call_accounting(&self) {
        let (mut sites, mut edges, mut unres, mut external, mut off) = (0, 0, 0, 0, 0);
        for &f in &self.files {
            let Some(lang) = f.language(&self.db) else { continue };
            let Some(count) = lang.spec().call_expressions else { continue };
            let text = codegraph_db::text(&self.db, f);
            let Some(tree) = codegraph_parse::parse_tree(lang, text, None) else { continue };
            if tree.root_node().has_error() {
                continue;
            }
            let n = count(&tree, text);
            let r = resolve_file(&self.db, self.workspace, f);
            let (e, x) = (r.resolved_calls as usize, r.external_calls as usize);
            if n != e + r.unresolved.len() + x {
                off += 1;
                if off <= 10 {
                    println!(
                        "ACCOUNTING {}: {n} calls != {e} CALLS + {} unresolved + {x} external",
                        f.path(&self.db),
                        r.unresolved.len()
                    );
                }
            }
            (sites, edges, unres, external) =
                (sites + n, edges + e, unres + r.unresolved.len(), external + x);
        }
        println!(
            "call accounting (files without syntax errors): {sites} calls = {edges} CALLS + {unres} unresolved + {external} external; {off} files off"
        );
    }

    /// Symbol ID -> (file, qualified name, kind), for every symbol of the corpus.
    ///
    /// Qualified names follow the eval convention, where anonymous functions are transparent:
    /// a symbol declared inside a test block (`$test title`, a callback in the source) is named
    /// as if that block were not there (`$test title.doStuff` -> `doStuff`).
    pub fn symbols(&self) -> HashMap<String, (String, String, NodeKind)> {
        let mut out = HashMap::new();
        for &f in &self.files {
            let graph = file_graph(&self.db, f);
            let blocks: Vec<&str> = graph
                .nodes
                .iter()
                .filter(|n| n.kind == NodeKind::Test)
                .map(|n| n.qualified_name.as_str())
                .collect();
            for n in graph.nodes.iter() {
                let Node { id, file, qualified_name, kind, .. } = n;
                out.insert(
                    id.to_string(),
                    (
                        file.clone().unwrap_or_default(),
                        convention_name(qualified_name, &blocks),
                        *kind,
                    ),
                );
            }
        }
        out
    }
}

/// `qualified_name` under the eval convention: the innermost of `blocks` (qualified names of
/// test blocks, whose titles may hold dots) that encloses it is dropped, with every block
/// above it.
pub fn convention_name(qualified_name: &str, blocks: &[&str]) -> String {
    let inner = blocks
        .iter()
        .filter(|b| {
            qualified_name.len() > b.len()
                && qualified_name.starts_with(**b)
                && qualified_name.as_bytes()[b.len()] == b'.'
        })
        .max_by_key(|b| b.len());
    let Some(block) = inner else { return qualified_name.to_string() };
    let rest = &qualified_name[block.len() + 1..];
    // What encloses the outermost block: the name up to its first `$` segment.
    match block.find('$') {
        Some(i) if i > 0 && block[..i].ends_with('.') => format!("{}.{rest}", &block[..i - 1]),
        _ => rest.to_string(),
    }
}

/// `(caller_file, caller_line, callee_file, callee_symbol)`: a call site as the oracles key it.
pub type SiteKey = (String, u32, String, String);
/// `(caller_file, caller_symbol, callee_file, callee_symbol)`.
pub type PairKey = (String, String, String, String);

/// The site and pair keys of an oracle record.
pub fn record_keys(v: &serde_json::Value) -> (SiteKey, PairKey) {
    let line = v.get("caller_line").and_then(|x| x.as_u64()).unwrap_or(0) as u32;
    let site = (
        field(v, "caller_file").to_string(),
        line,
        field(v, "callee_file").to_string(),
        field(v, "callee_symbol").to_string(),
    );
    let pair =
        (site.0.clone(), field(v, "caller_symbol").to_string(), site.2.clone(), site.3.clone());
    (site, pair)
}

/// `a` of `b` in percent (0 when `b` is 0).
pub fn pct(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 }
}

/// Prints `LABEL: oracle N index M match K precision P% recall R%`.
pub fn print_match<K: std::hash::Hash + Eq>(
    label: &str,
    oracle: &std::collections::HashSet<K>,
    index: &std::collections::HashSet<K>,
) {
    let hit = index.intersection(oracle).count();
    println!(
        "{label}: oracle {} index {} match {hit} precision {:.1}% recall {:.1}%",
        oracle.len(),
        index.len(),
        pct(hit, index.len()),
        pct(hit, oracle.len())
    );
}

/// Prints, per reason, the edges and how many the oracle has.
pub fn print_reasons(by_reason: HashMap<String, (usize, usize)>) {
    let mut reasons: Vec<_> = by_reason.into_iter().collect();
    reasons.sort();
    for (r, (n, ok)) in reasons {
        println!("  reason {r}: {n} edges, {ok} in oracle ({:.1}%)", pct(ok, n));
    }
}

/// An oracle's internal records (resolved to a declaration under the root), keyed as sites
/// and pairs, with the files it covers.
pub struct Oracle {
    pub sites: std::collections::HashSet<SiteKey>,
    pub pairs: std::collections::HashSet<PairKey>,
    pub files: std::collections::HashSet<String>,
    /// Each internal record's site key and a label for the misses list (`kind via`).
    pub records: Vec<(SiteKey, String)>,
}

impl Oracle {
    /// Reads a JSONL oracle; `label` names a record in the misses list.
    pub fn read(path: &str, label: &dyn Fn(&serde_json::Value) -> String) -> Oracle {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut o = Oracle {
            sites: Default::default(),
            pairs: Default::default(),
            files: Default::default(),
            records: Vec::new(),
        };
        for line in text.lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
            o.files.insert(field(&v, "caller_file").to_string());
            if v.get("callee_external").and_then(|x| x.as_bool()) != Some(false)
                || field(&v, "callee_file").is_empty()
            {
                continue;
            }
            let (key, pair) = record_keys(&v);
            o.pairs.insert(pair);
            o.records.push((key.clone(), label(&v)));
            o.sites.insert(key);
        }
        o
    }
}

/// The CALLS edges of the files the oracle covers, keyed as it keys its records.
pub struct Scored {
    pub sites: std::collections::HashSet<SiteKey>,
    pub pairs: std::collections::HashSet<PairKey>,
    pub unresolved: usize,
    /// Per reason: edges, and how many the oracle has.
    pub by_reason: HashMap<String, (usize, usize)>,
}

impl Corpus {
    /// Scores the corpus's CALLS edges against `oracle`; with `misses`, prints each edge the
    /// oracle lacks (`WRONG`) and up to `misses` records we lack (`MISS`).
    pub fn score(
        &self,
        oracle: &Oracle,
        syms: &HashMap<String, (String, String, NodeKind)>,
        misses: usize,
    ) -> Scored {
        let caller_name = |id: &str| -> String {
            if id.starts_with("file:") {
                "<module>".to_string()
            } else {
                syms.get(id).map(|s| s.1.clone()).unwrap_or_default()
            }
        };
        let mut out = Scored {
            sites: Default::default(),
            pairs: Default::default(),
            unresolved: 0,
            by_reason: HashMap::new(),
        };
        for &f in &self.files {
            let path = f.path(&self.db).clone();
            if !oracle.files.contains(&path) {
                continue;
            }
            let r = resolve_file(&self.db, self.workspace, f);
            out.unresolved += r.unresolved.len();
            for e in &r.edges {
                if e.kind != codegraph_schema::EdgeKind::Calls {
                    continue;
                }
                let Some((cf, cq, _)) = syms.get(&*e.dst) else { continue };
                let key = (path.clone(), e.line, cf.clone(), cq.clone());
                if out.sites.insert(key.clone()) {
                    let ent = out.by_reason.entry(e.reason.to_string()).or_default();
                    ent.0 += 1;
                    if oracle.sites.contains(&key) {
                        ent.1 += 1;
                    } else if misses > 0 {
                        println!("WRONG {} {} {}:{}", e.reason, key.0, key.1, key.3);
                    }
                }
                out.pairs.insert((path.clone(), caller_name(&e.src), cf.clone(), cq.clone()));
            }
        }
        let missed = oracle.records.iter().filter(|(k, _)| !out.sites.contains(k));
        for (k, label) in missed.take(misses) {
            println!("MISS {label} {}:{} -> {}:{}", k.0, k.1, k.2, k.3);
        }
        out
    }

    /// Prints the files, timings and the site and pair scores.
    pub fn print_scores(&self, oracle: &Oracle, scored: Scored) {
        println!("files {} (oracle covers {})", self.files.len(), oracle.files.len());
        println!(
            "parse {:.0} ms, resolve {:.0} ms",
            self.parse.as_secs_f64() * 1e3,
            self.resolve.as_secs_f64() * 1e3
        );
        print_match("sites", &oracle.sites, &scored.sites);
        print_match("pairs", &oracle.pairs, &scored.pairs);
        print_reasons(scored.by_reason);
        println!("unresolved sites (admitted): {}", scored.unresolved);
    }
}

/// `--misses N` of the command line (0 when absent).
pub fn misses_arg(args: &[String]) -> usize {
    args.iter()
        .position(|a| a == "--misses")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

//! `codegraph-bench impact-accuracy`: how well upstream impact follows real dependents.
//!
//! For each corpus, 50 functions and methods that the compiler oracle of shared/eval says are
//! called are sampled (a fixed hash order of their keys, so every run samples the same ones);
//! the truth for each is its callers and their callers (depth 2) in the oracle's call graph,
//! test code and files the oracle did not look at left out. Ours is `impact --depth 2`
//! (upstream, default rules) through the query library on an index built by the release
//! binary, restricted the same way. A reached node counts when it is one of the truth's
//! callers (a file node stands for its module-level code, the oracle's `<module>`). Nodes
//! reached only through dispatch (a caller of a method the target overrides or implements)
//! and route / tool nodes cannot be oracle callers: they are counted in their own columns, not
//! in precision. The same walk with the edge kinds impact followed before per-kind rules
//! (containment and every importer climbed) is scored beside it for comparison.
//!
//! Precision and recall are pooled over the sample (micro) and averaged per function (macro,
//! over functions with a non-empty truth, resp. a non-empty answer).

use crate::accuracy::{convention_symbol, index_scratch, remove_scratch};
use anyhow::{Context, Result, bail};
use codegraph_query::Store;
use codegraph_query::ops::impact::{ImpactDirection, ImpactRequest};
use codegraph_schema::EdgeKind;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::io::BufRead;
use std::path::Path;
use std::process::Command;

/// (file, symbol); the symbol is `<module>` for code outside any declaration.
type Key = (String, String);

struct Corpus {
    name: &'static str,
    root: &'static str,
    oracle: &'static str,
}

const CORPORA: &[Corpus] = &[
    Corpus { name: "openai", root: "npm/node_modules/openai/src", oracle: "openai" },
    Corpus { name: "rxjs", root: "npm/node_modules/rxjs/src", oracle: "rxjs" },
    Corpus { name: "go_nethttp", root: "/usr/lib/go-1.19/src", oracle: "go_nethttp" },
    Corpus {
        name: "go_gin",
        root: "/usr/share/gocode/src/github.com/gin-gonic/gin",
        oracle: "go_gin",
    },
    Corpus { name: "go_etcd", root: "/usr/share/gocode/src/go.etcd.io/etcd", oracle: "go_etcd" },
];

/// Functions sampled per corpus.
const SAMPLE: usize = 50;

/// The edge kinds impact followed from every node before it had per-kind rules.
const CLIMBING_KINDS: &[EdgeKind] = &[
    EdgeKind::Calls,
    EdgeKind::Imports,
    EdgeKind::Extends,
    EdgeKind::Embeds,
    EdgeKind::Implements,
    EdgeKind::HasMethod,
    EdgeKind::HasProperty,
    EdgeKind::Accesses,
    EdgeKind::HandlesRoute,
    EdgeKind::HandlesTool,
    EdgeKind::Fetches,
];

/// The oracle's call graph, reversed: callee -> callers.
struct CallGraph {
    callers: HashMap<Key, HashSet<Key>>,
    /// Every caller file the oracle looked at.
    files: HashSet<String>,
}

fn load_calls(path: &Path) -> Result<CallGraph> {
    let file = std::fs::File::open(path).with_context(|| {
        format!("no oracle at {}: run `bash ../shared/eval/run_oracles.sh` first", path.display())
    })?;
    let mut g = CallGraph { callers: HashMap::new(), files: HashSet::new() };
    for line in std::io::BufReader::new(file).lines() {
        let line = line?;
        let Ok(r) = serde_json::from_str::<Value>(&line) else { continue };
        let s = |k: &str| r[k].as_str().map(str::to_string);
        let Some(caller_file) = s("caller_file") else { continue };
        g.files.insert(caller_file.clone());
        if r["callee_external"].as_bool() != Some(false) {
            continue;
        }
        let (Some(callee_file), Some(callee_symbol)) = (s("callee_file"), s("callee_symbol"))
        else {
            continue;
        };
        let caller_symbol = s("caller_symbol").unwrap_or_else(|| "<module>".into());
        g.callers
            .entry((callee_file, callee_symbol))
            .or_default()
            .insert((caller_file, caller_symbol));
    }
    Ok(g)
}

impl CallGraph {
    /// Whether a node in `file` is one the oracle could name as a caller.
    fn in_scope(&self, file: &str) -> bool {
        self.files.contains(file)
            && !codegraph_parse::is_test_file(codegraph_parse::Language::from_path(file), file)
    }

    /// Callers of `target` up to depth 2, in scope, the target itself left out.
    fn truth(&self, target: &Key) -> HashSet<Key> {
        let mut out: HashSet<Key> = HashSet::new();
        let mut frontier = vec![target.clone()];
        for _ in 0..2 {
            let mut next = Vec::new();
            for k in &frontier {
                for c in self.callers.get(k).into_iter().flatten() {
                    if c != target && self.in_scope(&c.0) && out.insert(c.clone()) {
                        next.push(c.clone());
                    }
                }
            }
            frontier = next;
        }
        out
    }
}

/// FNV-1a: a fixed order for sampling that does not depend on the platform's hasher.
fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// Our nodes: (file, qualified name) of functions and methods -> ID, and ID -> key.
struct Nodes {
    by_key: HashMap<Key, String>,
    key_of: HashMap<String, Key>,
}

fn load_nodes(bin: &Path, root: &Path, db: &Path) -> Result<Nodes> {
    let out = Command::new(bin)
        .args(["export", &root.to_string_lossy(), "--db", &db.to_string_lossy()])
        .output()?;
    if !out.status.success() {
        bail!("export failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let mut n = Nodes { by_key: HashMap::new(), key_of: HashMap::new() };
    for line in out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_slice(line)?;
        if v["type"] != "node" {
            continue;
        }
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        let (id, kind, file) = (s("id"), s("kind"), s("file"));
        let key = if kind == "file" {
            (file, "<module>".to_string())
        } else {
            (file, convention_symbol(&s("qualified_name")))
        };
        // A handler written in place stands for its enclosing declaration (the convention),
        // which is what a sampled key names.
        if matches!(kind.as_str(), "function" | "method") && !s("qualified_name").contains('$') {
            n.by_key.entry(key.clone()).or_insert_with(|| id.clone());
        }
        n.key_of.insert(id, key);
    }
    Ok(n)
}

/// Figures of one walk over the sample.
#[derive(Default)]
struct Tally {
    hit: usize,
    ours: usize,
    truth: usize,
    /// Per function: precision where we reached something, recall where the truth is not empty.
    precisions: Vec<f64>,
    recalls: Vec<f64>,
    dispatch: usize,
    /// Reached as a value user (REFERS_TO: passes, stores or returns the function): a
    /// dependent a call graph cannot judge.
    values: usize,
    endpoints: usize,
    /// Reached nodes outside the oracle's files (not scored).
    out_of_scope: usize,
}

impl Tally {
    fn add(&mut self, ours: &HashSet<Key>, truth: &HashSet<Key>) {
        let hit = ours.intersection(truth).count();
        self.hit += hit;
        self.ours += ours.len();
        self.truth += truth.len();
        if !ours.is_empty() {
            self.precisions.push(hit as f64 / ours.len() as f64);
        }
        if !truth.is_empty() {
            self.recalls.push(hit as f64 / truth.len() as f64);
        }
    }
}

fn ratio(n: usize, d: usize) -> String {
    if d == 0 { "-".into() } else { format!("{:.3}", n as f64 / d as f64) }
}

fn mean(v: &[f64]) -> String {
    if v.is_empty() { "-".into() } else { format!("{:.3}", v.iter().sum::<f64>() / v.len() as f64) }
}

fn score(
    store: &mut Store,
    nodes: &Nodes,
    calls: &CallGraph,
    sample: &[(Key, String)],
    kinds: &[EdgeKind],
) -> Result<Tally> {
    let reader = store.reader()?;
    let mut t = Tally::default();
    let req = ImpactRequest {
        direction: ImpactDirection::Upstream,
        kinds: kinds.to_vec(),
        max_depth: 2,
        max_nodes: usize::MAX,
        ..ImpactRequest::default()
    };
    for (key, id) in sample {
        let impact = reader.impact(std::slice::from_ref(id), &req)?;
        let mut ours: HashSet<Key> = HashSet::new();
        for n in impact.levels.iter().flatten() {
            if n.dispatch.is_some() {
                t.dispatch += 1;
                continue;
            }
            if n.via.kind == EdgeKind::RefersTo {
                t.values += 1;
                continue;
            }
            if matches!(n.node.kind.as_str(), "route" | "tool") {
                t.endpoints += 1;
                continue;
            }
            let Some(k) = nodes.key_of.get(&n.node.id) else { continue };
            if calls.in_scope(&k.0) {
                ours.insert(k.clone());
            } else {
                t.out_of_scope += 1;
            }
        }
        t.add(&ours, &calls.truth(key));
    }
    Ok(t)
}

pub fn run(args: impl Iterator<Item = String>) -> Result<()> {
    let (corpora, only) = crate::report::corpus_args(args)?;
    let bin = crate::sibling_binary()?;
    println!(
        "| corpus | functions | truth callers | reached (scored) | precision (micro / macro) | recall (micro / macro) | dispatch-only | value users | routes/tools | before: reached | before: precision | before: recall |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for c in CORPORA.iter().filter(|c| only.as_deref().is_none_or(|o| c.name.contains(o))) {
        let root = corpora.join(c.root);
        let calls = load_calls(&corpora.join(format!("oracle_out/{}.jsonl", c.oracle)))?;
        let (db, _) = index_scratch(&bin, c.name, &root)?;
        let result = (|| -> Result<(usize, Tally, Tally)> {
            let nodes = load_nodes(&bin, &root, &db)?;
            let mut candidates: Vec<(Key, String)> = calls
                .callers
                .iter()
                .filter(|(k, callers)| {
                    calls.in_scope(&k.0) && callers.iter().any(|c| calls.in_scope(&c.0))
                })
                .filter_map(|(k, _)| nodes.by_key.get(k).map(|id| (k.clone(), id.clone())))
                .collect();
            candidates.sort_by_key(|(k, _)| (fnv(&format!("{}\0{}", k.0, k.1)), k.clone()));
            candidates.truncate(SAMPLE);
            let mut store = Store::open_read_only(&db)?;
            let now = score(&mut store, &nodes, &calls, &candidates, &[])?;
            let before = score(&mut store, &nodes, &calls, &candidates, CLIMBING_KINDS)?;
            Ok((candidates.len(), now, before))
        })();
        remove_scratch(&db);
        let (n, now, before) = result?;
        println!(
            "| {} | {n} | {} | {} | {} / {} | {} / {} | {} | {} | {} | {} | {} | {} |",
            c.name,
            now.truth,
            now.ours,
            ratio(now.hit, now.ours),
            mean(&now.precisions),
            ratio(now.hit, now.truth),
            mean(&now.recalls),
            now.dispatch,
            now.values,
            now.endpoints,
            before.ours,
            ratio(before.hit, before.ours),
            ratio(before.hit, before.truth),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(f: &str, s: &str) -> Key {
        (f.to_string(), s.to_string())
    }

    /// The truth is callers and their callers, in scope, never the target, tests left out.
    #[test]
    fn truth_is_two_levels_of_callers_in_scope() {
        let mut g = CallGraph {
            callers: HashMap::new(),
            files: ["a.go", "b.go", "a_test.go"].into_iter().map(String::from).collect(),
        };
        let mut add = |callee: Key, caller: Key| {
            g.callers.entry(callee).or_default().insert(caller);
        };
        add(key("a.go", "f"), key("a.go", "g"));
        add(key("a.go", "f"), key("a_test.go", "TestF"));
        add(key("a.go", "g"), key("b.go", "h"));
        add(key("a.go", "g"), key("a.go", "f"));
        add(key("b.go", "h"), key("b.go", "<module>"));
        add(key("a.go", "g"), key("other.go", "x"));
        let truth = g.truth(&key("a.go", "f"));
        let mut got: Vec<Key> = truth.into_iter().collect();
        got.sort();
        assert_eq!(got, vec![key("a.go", "g"), key("b.go", "h")]);
    }

    #[test]
    fn tally_pools_and_averages() {
        let mut t = Tally::default();
        let set = |v: &[&str]| -> HashSet<Key> { v.iter().map(|s| key("a.go", s)).collect() };
        t.add(&set(&["x", "y"]), &set(&["x"]));
        t.add(&set(&[]), &set(&["z"]));
        assert_eq!((t.hit, t.ours, t.truth), (1, 2, 2));
        assert_eq!(t.precisions, vec![0.5]);
        assert_eq!(t.recalls, vec![1.0, 0.0]);
        assert_eq!((ratio(t.hit, t.ours), mean(&t.recalls)), ("0.500".into(), "0.500".into()));
    }
}

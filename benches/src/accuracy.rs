//! `codegraph-bench accuracy`: scores our CALLS edges against the compiler-backed oracles of
//! shared/eval (TypeScript compiler, go/types), per corpus, as shared/eval/README.md says:
//! internal oracle records only; a site key is (caller_file, caller_line, callee_file,
//! callee_symbol); precision over our CALLS sites in the files the oracle covers, into files
//! the oracle counts as internal; edges that dispatch an interface call to an implementation
//! are reported apart, not counted. `--peers` scores GitNexus the same way at pair level
//! (see `peer_accuracy`), sharing [`Oracle`] and [`score_ours`].

use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A corpus: the root to index and the oracle file (both relative to the corpora directory
/// unless absolute).
pub(crate) struct Corpus {
    pub(crate) name: &'static str,
    pub(crate) root: &'static str,
    pub(crate) oracle: &'static str,
    /// The REFERS_TO oracle (`benches/go_refs`, go/types' Uses map): made by
    /// `benches/go_refs/run.sh CORPORA` for the Go corpora; scored when present.
    pub(crate) refs: Option<&'static str>,
}

pub(crate) const CORPORA: &[Corpus] = &[
    Corpus {
        name: "go_nethttp",
        root: "/usr/lib/go-1.19/src",
        oracle: "oracle_out/go_nethttp.jsonl",
        refs: Some("oracle_out/go_nethttp_refs.jsonl"),
    },
    Corpus {
        name: "go_etcd",
        root: "/usr/share/gocode/src/go.etcd.io/etcd",
        oracle: "oracle_out/go_etcd.jsonl",
        refs: Some("oracle_out/go_etcd_refs.jsonl"),
    },
    Corpus {
        name: "rxjs",
        root: "npm/node_modules/rxjs/src",
        oracle: "oracle_out/rxjs.jsonl",
        refs: None,
    },
    Corpus {
        name: "openai",
        root: "npm/node_modules/openai/src",
        oracle: "oracle_out/openai.jsonl",
        refs: None,
    },
    // Its oracle covers the test files too: the corpus that scores TESTS edges.
    Corpus {
        name: "go_gin",
        root: "/usr/share/gocode/src/github.com/gin-gonic/gin",
        oracle: "oracle_out/go_gin.jsonl",
        refs: Some("oracle_out/go_gin_refs.jsonl"),
    },
];

type SiteKey = (String, u32, String, String);
/// (caller_file, caller_symbol, callee_file, callee_symbol).
pub(crate) type PairKey = (String, String, String, String);

#[derive(Default)]
pub(crate) struct Oracle {
    sites: HashSet<SiteKey>,
    pairs: HashSet<PairKey>,
    /// Sites (file, line) whose oracle record is an interface dispatch.
    interface_sites: HashSet<(String, u32)>,
    interface_records: usize,
    /// Every caller file the oracle looked at.
    files: HashSet<String>,
    /// Files the oracle counts as internal callees: its caller files and every internal
    /// callee file. A call of ours into any other file (e.g. from net/http into net/url when
    /// only net/http was loaded) is one the oracle calls external, so it is not scored.
    internal_files: HashSet<String>,
}

impl Oracle {
    /// Whether a call from `caller_file` into `callee_file` is one the oracle scores: the
    /// oracle looked at the caller file and counts the callee file as internal.
    pub(crate) fn in_scope(&self, caller_file: &str, callee_file: &str) -> bool {
        self.files.contains(caller_file) && self.internal_files.contains(callee_file)
    }

    /// Scores a set of in-scope pairs: (pairs in the oracle, pairs given, oracle pairs).
    pub(crate) fn score_pairs(&self, pairs: &HashSet<PairKey>) -> PairScore {
        PairScore {
            hit: pairs.intersection(&self.pairs).count(),
            ours: pairs.len(),
            oracle: self.pairs.len(),
        }
    }
}

/// Pair-level agreement of one tool with the oracle.
#[derive(Clone, Copy, Default)]
pub(crate) struct PairScore {
    pub(crate) hit: usize,
    pub(crate) ours: usize,
    pub(crate) oracle: usize,
}

impl PairScore {
    pub(crate) fn precision(&self) -> String {
        pct(self.hit, self.ours)
    }
    pub(crate) fn recall(&self) -> String {
        pct(self.hit, self.oracle)
    }
}

pub(crate) fn load_oracle(path: &Path) -> Result<Oracle> {
    let file = std::fs::File::open(path).with_context(|| {
        format!("no oracle at {}: run `bash ../shared/eval/run_oracles.sh` first", path.display())
    })?;
    let mut o = Oracle::default();
    for line in std::io::BufReader::new(file).lines() {
        let line = line?;
        let Ok(r) = serde_json::from_str::<Value>(&line) else { continue };
        let s = |k: &str| r[k].as_str().map(str::to_string);
        let Some(caller_file) = s("caller_file") else { continue };
        o.files.insert(caller_file.clone());
        if r["callee_external"].as_bool() != Some(false) {
            continue;
        }
        let (Some(callee_file), Some(callee_symbol)) = (s("callee_file"), s("callee_symbol"))
        else {
            continue;
        };
        let caller_line = r["caller_line"].as_u64().unwrap_or(0) as u32;
        let caller_symbol = s("caller_symbol").unwrap_or_else(|| "<module>".into());
        if r["dispatch"].as_str() == Some("interface") {
            o.interface_records += 1;
            o.interface_sites.insert((caller_file.clone(), caller_line));
        }
        o.internal_files.insert(callee_file.clone());
        o.pairs.insert((
            caller_file.clone(),
            caller_symbol,
            callee_file.clone(),
            callee_symbol.clone(),
        ));
        o.sites.insert((caller_file, caller_line, callee_file, callee_symbol));
    }
    o.internal_files.extend(o.files.iter().cloned());
    Ok(o)
}

#[derive(Default)]
struct Index {
    /// (key, reason) of every CALLS edge.
    calls: Vec<(SiteKey, String, String)>,
    /// file -> unresolved call sites.
    unresolved: HashMap<String, usize>,
    /// Symbol-level TESTS edges as pairs (test file, test function, callee file, callee).
    tests: Vec<PairKey>,
    /// REFERS_TO edges as pairs (file, symbol, target file, target).
    refers: Vec<PairKey>,
    /// EMBEDS edges as pairs (file, type, target file, embedded type).
    embeds: Vec<PairKey>,
}

fn load_index(export: &[u8]) -> Result<Index> {
    // id -> (file, qualified name, is file node)
    let mut nodes: HashMap<String, (String, String, bool)> = HashMap::new();
    let mut edges = Vec::new();
    let mut idx = Index::default();
    // file -> qualified names of its test blocks (`test("title", () => ...)`).
    let mut blocks: HashMap<String, Vec<String>> = HashMap::new();
    for line in export.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_slice(line)?;
        match v["type"].as_str() {
            Some("node") => {
                let id = v["id"].as_str().unwrap_or_default().to_string();
                let file = v["file"].as_str().unwrap_or_default().to_string();
                let qn = v["qualified_name"].as_str().unwrap_or_default().to_string();
                if v["kind"] == "test" {
                    blocks.entry(file.clone()).or_default().push(qn.clone());
                }
                nodes.insert(id, (file, qn, v["kind"] == "file"));
            }
            Some("edge")
                if ["CALLS", "TESTS", "REFERS_TO", "EMBEDS"].iter().any(|k| v["kind"] == *k) =>
            {
                edges.push(v)
            }
            Some("unresolved") => {
                *idx.unresolved
                    .entry(v["file"].as_str().unwrap_or_default().to_string())
                    .or_default() += 1;
            }
            _ => {}
        }
    }
    // Symbols declared inside those blocks are named as the eval convention names them.
    for (file, qn, _) in nodes.values_mut() {
        if let Some(b) = blocks.get(file.as_str()) {
            *qn = convention_name(qn, b);
        }
    }
    for e in edges {
        let (Some(src), Some(dst)) = (
            nodes.get(e["src"].as_str().unwrap_or_default()),
            nodes.get(e["dst"].as_str().unwrap_or_default()),
        ) else {
            continue;
        };
        let caller_symbol = if src.2 { "<module>".to_string() } else { convention_symbol(&src.1) };
        if e["kind"] == "REFERS_TO" || e["kind"] == "EMBEDS" {
            let list = if e["kind"] == "EMBEDS" { &mut idx.embeds } else { &mut idx.refers };
            if !dst.2 {
                list.push((src.0.clone(), caller_symbol, dst.0.clone(), dst.1.clone()));
            }
            continue;
        }
        if e["kind"] == "TESTS" {
            // File-level TESTS (test file -> file) have no pair to score.
            if !src.2 && !dst.2 {
                idx.tests.push((src.0.clone(), caller_symbol, dst.0.clone(), dst.1.clone()));
            }
            continue;
        }
        let line = e["line"].as_u64().unwrap_or(0) as u32;
        idx.calls.push((
            (src.0.clone(), line, dst.0.clone(), dst.1.clone()),
            caller_symbol,
            e["reason"].as_str().unwrap_or_default().to_string(),
        ));
    }
    Ok(idx)
}

/// A caller's qualified name under the eval convention, where anonymous functions are
/// transparent: a handler written in place (`setup.$GET /ping`, `$tool add`) is its enclosing
/// declaration (`setup`, `<module>`).
pub(crate) fn convention_symbol(qualified_name: &str) -> String {
    match qualified_name.find('$') {
        Some(0) => "<module>".to_string(),
        Some(i) if qualified_name[..i].ends_with('.') => qualified_name[..i - 1].to_string(),
        _ => qualified_name.to_string(),
    }
}

/// A declaration's qualified name under the eval convention, where anonymous functions are
/// transparent: the innermost of `blocks` (qualified names of test blocks, callbacks in the
/// source, whose titles may hold dots) that encloses it is dropped with every block above it
/// (`$test branded types.doStuff` -> `doStuff`, `Suite.$test x.helper` -> `Suite.helper`).
pub(crate) fn convention_name(qualified_name: &str, blocks: &[String]) -> String {
    let inner = blocks
        .iter()
        .filter(|b| {
            qualified_name.len() > b.len()
                && qualified_name.starts_with(b.as_str())
                && qualified_name.as_bytes()[b.len()] == b'.'
        })
        .max_by_key(|b| b.len());
    let Some(block) = inner else { return qualified_name.to_string() };
    let rest = &qualified_name[block.len() + 1..];
    match convention_symbol(block).as_str() {
        "<module>" => rest.to_string(),
        outer => format!("{outer}.{rest}"),
    }
}

fn pct(n: usize, d: usize) -> String {
    if d == 0 { "-".into() } else { format!("{:.1}%", 100.0 * n as f64 / d as f64) }
}

/// Our figures on one corpus.
pub(crate) struct OurScore {
    sites: usize,
    site_hit: usize,
    pub(crate) pairs: PairScore,
    to_impl: usize,
    unresolved: usize,
    pub(crate) index_secs: f64,
    /// TESTS pairs the oracle could judge (its caller file is a test file it looked at) and
    /// how many of them are among its call pairs.
    tests_scored: usize,
    tests_hit: usize,
    /// Our REFERS_TO and EMBEDS pairs in the oracle's scope.
    refers: HashSet<PairKey>,
    embeds: HashSet<PairKey>,
}

/// The REFERS_TO oracle: (file, symbol, target file, target) pairs and the kind of each.
pub(crate) fn load_refs(path: &Path) -> Result<HashMap<PairKey, String>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = HashMap::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_str(line)?;
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        out.insert((s("file"), s("symbol"), s("target_file"), s("target")), s("kind"));
    }
    Ok(out)
}

/// Indexes `root` into a scratch database with the release `codegraph` binary `bin` and
/// returns `codegraph export` of it (JSONL) and the index wall time; the database is removed.
pub(crate) fn index_and_export(bin: &Path, name: &str, root: &Path) -> Result<(Vec<u8>, f64)> {
    let (db, secs) = index_scratch(bin, name, root)?;
    let export = Command::new(bin)
        .args(["export", &root.to_string_lossy(), "--db", &db.to_string_lossy()])
        .output();
    remove_scratch(&db);
    Ok((export?.stdout, secs))
}

/// Indexes `root` into a scratch database (remove it with [`remove_scratch`]); returns its path
/// and the index wall time.
pub(crate) fn index_scratch(bin: &Path, name: &str, root: &Path) -> Result<(PathBuf, f64)> {
    let db = std::env::temp_dir().join(format!("codegraph-acc-{name}-{}.db", std::process::id()));
    remove_scratch(&db);
    let t = Instant::now();
    let out = Command::new(bin)
        .args(["index", &root.to_string_lossy(), "--db", &db.to_string_lossy(), "--json"])
        .output()
        .with_context(|| format!("running {}", bin.display()))?;
    let secs = t.elapsed().as_secs_f64();
    if !out.status.success() {
        remove_scratch(&db);
        bail!("index of {name} failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok((db, secs))
}

/// Removes a scratch database and SQLite's files beside it.
pub(crate) fn remove_scratch(db: &Path) {
    // The database, SQLite's files, and the write lock and suspect mark the index leaves
    // beside it (`codegraph_engine::guard`), which used to pile up in the temporary directory.
    for suffix in ["", "-wal", "-shm", ".lock", ".suspect"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// Indexes `root` with the release `codegraph` binary `bin`, exports the graph and scores its
/// CALLS edges against `oracle`.
pub(crate) fn score_ours(bin: &Path, name: &str, root: &Path, oracle: &Oracle) -> Result<OurScore> {
    let (export, index_secs) = index_and_export(bin, name, root)?;
    let index = load_index(&export)?;
    let mut ours: HashSet<SiteKey> = HashSet::new();
    let mut our_pairs: HashSet<PairKey> = HashSet::new();
    let mut to_impl = 0usize;
    for (key, caller_symbol, reason) in &index.calls {
        if !oracle.in_scope(&key.0, &key.2) {
            continue;
        }
        let dispatch_site = oracle.interface_sites.contains(&(key.0.clone(), key.1));
        if !oracle.sites.contains(key) && dispatch_site && reason != "interface-method" {
            to_impl += 1;
            continue;
        }
        our_pairs.insert((key.0.clone(), caller_symbol.clone(), key.2.clone(), key.3.clone()));
        ours.insert(key.clone());
    }
    let unresolved: usize =
        index.unresolved.iter().filter(|(f, _)| oracle.files.contains(*f)).map(|(_, n)| n).sum();
    let scored: Vec<&PairKey> =
        index.tests.iter().filter(|k| oracle.in_scope(&k.0, &k.2)).collect();
    Ok(OurScore {
        sites: ours.len(),
        site_hit: ours.intersection(&oracle.sites).count(),
        pairs: oracle.score_pairs(&our_pairs),
        to_impl,
        unresolved,
        index_secs,
        tests_scored: scored.len(),
        tests_hit: scored.iter().filter(|k| oracle.pairs.contains(**k)).count(),
        refers: index.refers.into_iter().filter(|k| oracle.in_scope(&k.0, &k.2)).collect(),
        embeds: index.embeds.into_iter().filter(|k| oracle.in_scope(&k.0, &k.2)).collect(),
    })
}

pub fn run(mut args: impl Iterator<Item = String>) -> Result<()> {
    let mut corpora = std::env::var_os("CORPORA").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/codegraph-corpora")
    });
    let mut only: Option<String> = None;
    let mut peers = false;
    // A corpus kept out of the repository (held-out code), scored the same way.
    let (mut extra_root, mut extra_oracle): (Option<PathBuf>, Option<PathBuf>) = (None, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--corpora" => corpora = PathBuf::from(args.next().context("--corpora DIR")?),
            "--only" => only = Some(args.next().context("--only NAME")?),
            "--peers" => peers = true,
            "--root" => extra_root = Some(PathBuf::from(args.next().context("--root DIR")?)),
            "--oracle" => extra_oracle = Some(PathBuf::from(args.next().context("--oracle FILE")?)),
            other => bail!("unknown argument {other}"),
        }
    }
    if let (Some(root), Some(oracle)) = (&extra_root, &extra_oracle) {
        let bin = crate::sibling_binary()?;
        let o = load_oracle(oracle)?;
        let s = score_ours(&bin, "held-out", root, &o)?;
        println!(
            "{}: oracle sites {}, our sites {}, site precision {}, site recall {}, unresolved (ours) {}, index {:.1} s",
            root.display(),
            o.sites.len(),
            s.sites,
            pct(s.site_hit, s.sites),
            pct(s.site_hit, o.sites.len()),
            s.unresolved,
            s.index_secs
        );
        return Ok(());
    }
    if peers {
        return crate::peer_accuracy::run(&corpora, only.as_deref());
    }
    let bin = crate::sibling_binary()?;
    let mut tests_rows = Vec::new();
    let mut refs_rows = Vec::new();
    let mut embeds_rows = Vec::new();
    println!(
        "| corpus | oracle sites | our sites | site precision | site recall | pair precision | pair recall | iface-dispatch records | our edges to implementations | unresolved (ours) | index time |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for c in CORPORA.iter().filter(|c| only.as_deref().is_none_or(|o| o == c.name)) {
        let root = corpora.join(c.root);
        let oracle = load_oracle(&corpora.join(c.oracle))?;
        let s = score_ours(&bin, c.name, &root, &oracle)?;
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} s |",
            c.name,
            oracle.sites.len(),
            s.sites,
            pct(s.site_hit, s.sites),
            pct(s.site_hit, oracle.sites.len()),
            s.pairs.precision(),
            s.pairs.recall(),
            oracle.interface_records,
            s.to_impl,
            s.unresolved,
            s.index_secs
        );
        if let Some(refs) = c.refs {
            let path = corpora.join(refs);
            match load_refs(&path) {
                Ok(all) => {
                    let (embeds, refs): (HashMap<PairKey, String>, HashMap<PairKey, String>) =
                        all.into_iter().partition(|(_, kind)| kind == "embeds");
                    let kinds: &[&[&str]] = &[&["type"], &["const"], &["var"], &["func", "method"]];
                    refs_rows.push(pairs_row(c.name, &s.refers, &refs, &oracle, kinds));
                    embeds_rows.push(pairs_row(c.name, &s.embeds, &embeds, &oracle, &[]));
                }
                Err(_) => refs_rows.push(format!(
                    "| {} | no oracle at {} (make it with benches/go_refs/run.sh) | | | | |",
                    c.name,
                    path.display()
                )),
            }
        }
        if s.tests_scored > 0 {
            tests_rows.push(format!(
                "| {} | {} | {} | {} |",
                c.name,
                s.tests_scored,
                s.tests_hit,
                pct(s.tests_hit, s.tests_scored)
            ));
        }
    }
    if !refs_rows.is_empty() {
        // Pairs (user, target): the user is the enclosing declaration, as for CALLS pairs.
        println!();
        println!(
            "| corpus | oracle REFERS_TO pairs | our pairs | precision | recall | recall by kind (type / const / var / func+method) |"
        );
        println!("| --- | --- | --- | --- | --- | --- |");
        for r in refs_rows {
            println!("{r}");
        }
    }
    if !embeds_rows.is_empty() {
        println!();
        println!("| corpus | oracle EMBEDS pairs | our pairs | precision | recall |");
        println!("| --- | --- | --- | --- | --- |");
        for r in embeds_rows {
            println!("{r}");
        }
    }
    if !tests_rows.is_empty() {
        // A TESTS edge is a test function's direct call into code outside test files: right
        // when the oracle has that (test, callee) call pair.
        println!();
        println!("| corpus | TESTS edges the oracle judges | in its call pairs | precision |");
        println!("| --- | --- | --- | --- |");
        for r in tests_rows {
            println!("{r}");
        }
    }
    Ok(())
}

/// One row of a pairs table (REFERS_TO, EMBEDS): oracle pairs in the CALLS oracle's scope,
/// ours, precision, recall, then recall over the oracle pairs of each group of kinds.
fn pairs_row(
    name: &str,
    ours: &HashSet<PairKey>,
    oracle_pairs: &HashMap<PairKey, String>,
    oracle: &Oracle,
    groups: &[&[&str]],
) -> String {
    let scoped: HashMap<&PairKey, &String> =
        oracle_pairs.iter().filter(|(k, _)| oracle.in_scope(&k.0, &k.2)).collect();
    let hit = ours.iter().filter(|k| scoped.contains_key(k)).count();
    let mut row = format!(
        "| {name} | {} | {} | {} | {} |",
        scoped.len(),
        ours.len(),
        pct(hit, ours.len()),
        pct(hit, scoped.len())
    );
    if !groups.is_empty() {
        let recall = |kinds: &[&str]| {
            let all: Vec<&PairKey> = scoped
                .iter()
                .filter(|(_, v)| kinds.contains(&v.as_str()))
                .map(|(k, _)| *k)
                .collect();
            pct(all.iter().filter(|k| ours.contains(**k)).count(), all.len())
        };
        let cells: Vec<String> = groups.iter().map(|g| recall(g)).collect();
        row.push_str(&format!(" {} |", cells.join(" / ")));
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handlers_written_in_place_are_transparent() {
        assert_eq!(convention_symbol("setup.$GET /ping"), "setup");
        assert_eq!(convention_symbol("a.b.$tool x"), "a.b");
        assert_eq!(convention_symbol("$POST /users"), "<module>");
        assert_eq!(convention_symbol("Server.start"), "Server.start");
        let blocks = ["$test a.b".to_string(), "$test a.b.$test c".to_string(), "S.$test x".into()];
        assert_eq!(convention_name("$test a.b.doStuff", &blocks), "doStuff");
        assert_eq!(convention_name("$test a.b.$test c.f.g", &blocks), "f.g");
        assert_eq!(convention_name("S.$test x.helper", &blocks), "S.helper");
        assert_eq!(convention_name("$ZodType.init", &blocks), "$ZodType.init");
        assert_eq!(convention_name("$test a.bc", &blocks), "$test a.bc");
        assert_eq!(convention_name("Server.start", &blocks), "Server.start");
    }

    /// Regression: a callee file that never calls anything itself (a file of types) is still
    /// internal, so our calls into it are scored.
    #[test]
    fn callee_only_files_count_as_internal() {
        let path = std::env::temp_dir().join(format!("cg-oracle-{}.jsonl", std::process::id()));
        std::fs::write(
            &path,
            concat!(
                r#"{"caller_file":"a.ts","caller_symbol":"f","caller_line":3,"callee_file":"types.ts","callee_symbol":"T.m","callee_external":false}"#,
                "\n",
                r#"{"caller_file":"a.ts","caller_symbol":"f","caller_line":4,"callee_file":null,"callee_symbol":null,"callee_external":true}"#,
                "\n"
            ),
        )
        .unwrap();
        let o = load_oracle(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(o.internal_files.contains("types.ts"));
        assert!(o.files.contains("a.ts"));
        assert_eq!(o.sites.len(), 1);
        assert!(o.sites.contains(&(
            "a.ts".to_string(),
            3,
            "types.ts".to_string(),
            "T.m".to_string()
        )));
    }
}

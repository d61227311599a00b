//! CO_CHANGED (opt-in): which files usually change together, mined from git history with gix.
//!
//! Why it exists: "what else usually changes with this file" is a question the code graph
//! cannot answer (a test and its fixture, a handler and its schema, a Go file and its
//! platform twin). It is empirical, not structural, so it is opt-in (`codegraph index
//! --cochange`), kept off the edit path, and answers say which commits it came from.
//!
//! The rule, over the last `commits` commits reachable from HEAD (default 1,000, newest
//! first): a merge is skipped (its changes are its parents'), and so is a commit that touches
//! more than [`MAX_FILES_PER_COMMIT`] files under the root (a vendoring, a reformat, a rename
//! sweep: they say nothing about coupling). For the remaining commits, `n(f)` counts those
//! that changed file `f` and `n(f, g)` those that changed both; only files indexed now count.
//! A pair gives the edge `f -> g` when `n(f, g) >= MIN_SUPPORT` and its confidence
//! `n(f, g) / n(f) >= MIN_CONFIDENCE`; each file keeps its `MAX_PER_FILE` most confident
//! edges. The edge's weight is that confidence and its `line` column holds the support.
//!
//! Recomputed by [`ensure`] when HEAD moved, the indexed files changed, or the settings
//! changed; otherwise it is a no-op (the stamp in the index's meta says so), cheap enough for
//! a server to call every few seconds (a commit moves HEAD without publishing a revision).

use anyhow::{Context, Result};
use codegraph_query::Store;
use codegraph_query::cochange::{COCHANGE_SETTINGS, COCHANGE_STAMP, CoChangeRow};
use gix::ObjectId;
use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Commits read by default.
pub const DEFAULT_COMMITS: usize = 1000;
/// A commit that touches more files than this (under the root) is skipped.
pub const MAX_FILES_PER_COMMIT: usize = 50;
/// Fewest commits a pair must share.
pub const MIN_SUPPORT: u32 = 3;
/// Lowest confidence `n(f, g) / n(f)` kept.
pub const MIN_CONFIDENCE: f64 = 0.3;
/// Most co-change edges kept per file.
pub const MAX_PER_FILE: usize = 10;

/// What was mined, and from which commits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mined {
    pub rows: Vec<CoChangeRow>,
    /// HEAD and the oldest commit read (full IDs), `None` on an unborn HEAD.
    pub head: Option<String>,
    pub oldest: Option<String>,
    /// Commits read, and of those the merges and the big ones skipped.
    pub commits: usize,
    pub merges: usize,
    pub too_big: usize,
}

/// Mines the co-change pairs of `root` (a git worktree or a directory inside one) over the
/// last `commits` commits, counting only `files` (root-relative paths).
pub fn mine(root: &Path, files: &HashSet<String>, commits: usize) -> Result<Mined> {
    let repo = gix::discover(root).context("no git repository holds the root")?;
    let workdir = repo.workdir().context("the repository has no worktree")?;
    let workdir = std::fs::canonicalize(workdir).context("cannot resolve the worktree")?;
    let root = std::fs::canonicalize(root).context("cannot resolve the root")?;
    let prefix = root.strip_prefix(&workdir).unwrap_or(Path::new(""));
    let prefix = prefix.to_string_lossy().replace('\\', "/");
    let prefix = if prefix.is_empty() { String::new() } else { format!("{prefix}/") };
    let mut out = Mined::default();
    let Ok(head) = repo.head_commit() else { return Ok(out) };
    out.head = Some(head.id.to_string());
    let mut n_file: HashMap<&str, u32> = HashMap::new();
    let mut n_pair: HashMap<(&str, &str), u32> = HashMap::new();
    let walk = head.ancestors().all().context("walking the history")?;
    for info in walk.take(commits) {
        let info = info.context("reading a commit")?;
        out.commits += 1;
        out.oldest = Some(info.id.to_string());
        let commit = info.object().context("reading a commit")?;
        let parents: Vec<ObjectId> = commit.parent_ids().map(|p| p.detach()).collect();
        if parents.len() > 1 {
            out.merges += 1;
            continue;
        }
        let new_tree = commit.tree_id().context("reading a commit's tree")?.detach();
        let old_tree = match parents.first() {
            Some(p) => Some(repo.find_commit(*p)?.tree_id()?.detach()),
            None => None,
        };
        let mut changed = Vec::new();
        let big = !diff_trees(&repo, old_tree, Some(new_tree), "", &prefix, &mut changed)?;
        if big {
            out.too_big += 1;
            continue;
        }
        let mut touched: Vec<&str> =
            changed.iter().filter_map(|p| files.get(p.as_str()).map(String::as_str)).collect();
        touched.sort_unstable();
        touched.dedup();
        for (i, &f) in touched.iter().enumerate() {
            *n_file.entry(f).or_default() += 1;
            for &g in &touched[i + 1..] {
                *n_pair.entry((f, g)).or_default() += 1;
            }
        }
    }
    let mut by_src: HashMap<&str, Vec<CoChangeRow>> = HashMap::new();
    for (&(f, g), &n) in &n_pair {
        if n < MIN_SUPPORT {
            continue;
        }
        for (a, b) in [(f, g), (g, f)] {
            let confidence = f64::from(n) / f64::from(n_file.get(a).copied().unwrap_or(n).max(1));
            if confidence >= MIN_CONFIDENCE {
                by_src.entry(a).or_default().push(CoChangeRow {
                    src: a.to_string(),
                    dst: b.to_string(),
                    support: n,
                    confidence: (confidence * 1000.0).round() / 1000.0,
                });
            }
        }
    }
    for (_, mut rows) in by_src {
        rows.sort_by(|x, y| {
            y.confidence
                .total_cmp(&x.confidence)
                .then(y.support.cmp(&x.support))
                .then_with(|| x.dst.cmp(&y.dst))
        });
        rows.truncate(MAX_PER_FILE);
        out.rows.extend(rows);
    }
    out.rows.sort_by(|x, y| (&x.src, &x.dst).cmp(&(&y.src, &y.dst)));
    Ok(out)
}

/// Adds to `out` the root-relative paths of files that differ between two trees, only under
/// `prefix` (the root inside the repository); equal subtrees are never read. Returns `false`
/// as soon as more than [`MAX_FILES_PER_COMMIT`] differ.
fn diff_trees(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
    at: &str,
    prefix: &str,
    out: &mut Vec<String>,
) -> Result<bool> {
    if old == new {
        return Ok(true);
    }
    let entries = |id: Option<ObjectId>| -> Result<HashMap<String, (bool, ObjectId)>> {
        let Some(id) = id else { return Ok(HashMap::new()) };
        let tree = repo.find_tree(id).context("reading a tree")?;
        let decoded = tree.decode().context("decoding a tree")?;
        Ok(decoded
            .entries
            .iter()
            .map(|e| (e.filename.to_string(), (e.mode.is_tree(), e.oid.to_owned())))
            .collect())
    };
    let (a, b) = (entries(old)?, entries(new)?);
    let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let (x, y) = (a.get(name), b.get(name));
        if x.map(|e| e.1) == y.map(|e| e.1) && x.map(|e| e.0) == y.map(|e| e.0) {
            continue;
        }
        let path = format!("{at}{name}");
        // Only the root's part of the repository: descend towards and below the prefix.
        let dir = format!("{path}/");
        if !(prefix.starts_with(&dir) || dir.starts_with(prefix) || prefix.is_empty()) {
            continue;
        }
        let tree = |e: Option<&(bool, ObjectId)>| e.filter(|e| e.0).map(|e| e.1);
        let (tx, ty) = (tree(x), tree(y));
        if (tx.is_some() || ty.is_some()) && !diff_trees(repo, tx, ty, &dir, prefix, out)? {
            return Ok(false);
        }
        // A blob on either side (a file added, removed or changed; or a file that became a
        // directory) is a changed file.
        if (x.is_some_and(|e| !e.0) || y.is_some_and(|e| !e.0)) && path.starts_with(prefix) {
            out.push(path[prefix.len()..].to_string());
            if out.len() > MAX_FILES_PER_COMMIT {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The co-change settings stored in the index (`None`: not enabled).
pub fn settings(db: &Path) -> Result<Option<usize>> {
    let mut store = Store::open_read_only(db)?;
    settings_of(&store.reader()?)
}

fn settings_of(reader: &codegraph_query::Reader<'_>) -> Result<Option<usize>> {
    Ok(reader
        .meta(COCHANGE_SETTINGS)?
        .and_then(|v| serde_json::from_str::<serde_json::Value>(&v).ok())
        .and_then(|v| v["commits"].as_u64())
        .map(|n| n as usize))
}

/// Enables co-change in the index at `db` over `commits` commits, or turns it off (`None`:
/// drops the edges).
pub fn configure(db: &Path, commits: Option<usize>) -> Result<()> {
    let mut store = Store::open(db)?;
    match commits {
        Some(n) => {
            store.set_meta(COCHANGE_SETTINGS, &serde_json::json!({"commits": n}).to_string())?
        }
        None => store.clear_cochange()?,
    }
    Ok(())
}

/// What [`ensure`] did.
#[derive(Debug, PartialEq)]
pub enum Ensured {
    /// Not enabled for this index.
    Off,
    /// The stored edges are current.
    Current,
    /// Mined and stored now: edges stored, and the stamp.
    Computed(usize, serde_json::Value),
}

/// Brings the stored co-change edges of the index at `db` (root `root`) up to date when they
/// are enabled: recomputed when HEAD, the indexed files or the settings changed since the
/// stamp. A root outside any git repository stores no edges and says so in the stamp.
pub fn ensure(db: &Path, root: &Path) -> Result<Ensured> {
    ensure_at(db, Some(root))
}

/// [`ensure`] for the root the index at `db` describes (what a deriver that knows only the
/// database runs).
pub fn ensure_db(db: &Path) -> Result<Ensured> {
    ensure_at(db, None)
}

fn ensure_at(db: &Path, root: Option<&Path>) -> Result<Ensured> {
    let Some(Due { commits, files, revision, key, current, root }) = due(db, root)? else {
        return Ok(Ensured::Off);
    };
    if current {
        return Ok(Ensured::Current);
    }
    let start = Instant::now();
    let (mined, note) = match mine(&root, &files, commits) {
        Ok(m) => (m, None),
        Err(e) => (Mined::default(), Some(format!("{e:#}"))),
    };
    let stamp = serde_json::json!({
        "key": key,
        "revision": revision,
        "head": mined.head,
        "oldest": mined.oldest,
        "commits": mined.commits,
        "merges_skipped": mined.merges,
        "big_commits_skipped": mined.too_big,
        "setting_commits": commits,
        "compute_ms": start.elapsed().as_millis() as u64,
        "note": note,
    });
    let mut store = Store::open(db)?;
    let stored = store.write_cochange(&mined.rows, &stamp.to_string())?;
    Ok(Ensured::Computed(stored, stamp))
}

/// What [`ensure`] works from, read in one transaction: the settings, the root (given, or
/// the one the index describes), the indexed files, the revision, the key of what the edges
/// would depend on now, and whether the stored stamp has that key.
struct Due {
    commits: usize,
    root: PathBuf,
    files: HashSet<String>,
    revision: i64,
    key: String,
    current: bool,
}

/// `None` when co-change is off for the index.
fn due(db: &Path, root: Option<&Path>) -> Result<Option<Due>> {
    let (commits, root, files, revision, stamp) = {
        let mut store = Store::open_read_only(db)?;
        let reader = store.reader()?;
        let Some(commits) = settings_of(&reader)? else { return Ok(None) };
        let root = match root {
            Some(r) => r.to_path_buf(),
            None => PathBuf::from(reader.snapshot()?.root),
        };
        let files: HashSet<String> = reader.source_stats()?.into_iter().map(|s| s.path).collect();
        (commits, root, files, reader.revision(), stamp(&reader)?)
    };
    let head = crate::git::head_commit(&root);
    let key = fingerprint(&files, head.as_deref(), commits);
    let current = stamp.as_ref().is_some_and(|s| s["key"] == key);
    Ok(Some(Due { commits, root, files, revision, key, current }))
}

/// What the stored edges depend on: the file set, HEAD and the settings.
fn fingerprint(files: &HashSet<String>, head: Option<&str>, commits: usize) -> String {
    let mut sorted: Vec<&String> = files.iter().collect();
    sorted.sort_unstable();
    let mut h = DefaultHasher::new();
    sorted.hash(&mut h);
    head.hash(&mut h);
    commits.hash(&mut h);
    format!("{:016x}", h.finish())
}

/// The stamp of the stored co-change edges, when there are any.
pub fn stamp(reader: &codegraph_query::Reader<'_>) -> Result<Option<serde_json::Value>> {
    Ok(reader.meta(COCHANGE_STAMP)?.and_then(|v| serde_json::from_str(&v).ok()))
}

#[cfg(test)]
mod tests_support {
    use std::path::Path;

    pub(crate) use codegraph_tests::cli::git;

    /// Writes `files` (a new line each time, so each is a change) and commits them.
    pub fn commit(root: &Path, files: &[&str], n: usize) {
        for f in files {
            let p = root.join(f);
            if let Some(d) = p.parent() {
                std::fs::create_dir_all(d).expect("mkdir");
            }
            let old = std::fs::read_to_string(&p).unwrap_or_default();
            std::fs::write(&p, format!("{old}{n}\n")).expect("write");
        }
        git(root, &["add", "-A"]);
        git(root, &["commit", "-q", "-m", &format!("c{n}")]);
    }
}

#[cfg(test)]
mod tests {
    use super::tests_support::*;
    use super::*;

    /// A history with known counts, mined from the `app/` subdirectory of the repository:
    /// `a` and `b` change together in 4 commits, `a` alone in 2 more, `c` with `a` twice
    /// (below the support floor); a merge and a 51-file commit are skipped; files outside
    /// the root and files not indexed do not count.
    #[test]
    fn pairs_follow_support_and_confidence_and_skip_merges_and_big_commits() {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = std::fs::canonicalize(dir.path()).expect("canonical");
        git(&repo, &["init", "-q", "-b", "main"]);
        let mut n = 0;
        let mut next = || {
            n += 1;
            n
        };
        for _ in 0..4 {
            commit(&repo, &["app/a.go", "app/b.go", "other/x.go"], next());
        }
        commit(&repo, &["app/a.go"], next());
        commit(&repo, &["app/a.go", "app/c.go", "app/unindexed.txt"], next());
        commit(&repo, &["app/a.go", "app/c.go", "app/unindexed.txt"], next());
        let big: Vec<String> = (0..51).map(|i| format!("app/gen/g{i}.go")).collect();
        let big: Vec<&str> = big.iter().map(String::as_str).collect();
        commit(&repo, &big, next());
        git(&repo, &["checkout", "-q", "-b", "side"]);
        commit(&repo, &["app/b.go"], next());
        git(&repo, &["checkout", "-q", "main"]);
        commit(&repo, &["app/c.go"], next());
        git(&repo, &["merge", "-q", "--no-ff", "-m", "merge", "side"]);
        let files: HashSet<String> =
            ["a.go", "b.go", "c.go"].iter().map(|s| s.to_string()).collect();
        let m = mine(&repo.join("app"), &files, 100).expect("mined");
        assert_eq!((m.commits, m.merges, m.too_big), (11, 1, 1));
        let rows: Vec<(String, String, u32, f64)> = m
            .rows
            .iter()
            .map(|r| (r.src.clone(), r.dst.clone(), r.support, r.confidence))
            .collect();
        // a: 4 + 1 + 2 = 7 commits; b: 4 + 1 (side) = 5; ab: 4. ac: 2 < MIN_SUPPORT.
        assert_eq!(
            rows,
            vec![
                ("a.go".to_string(), "b.go".to_string(), 4, 0.571),
                ("b.go".to_string(), "a.go".to_string(), 4, 0.8),
            ]
        );
        // Only the last 3 commits: the merge, c alone, b on the side branch.
        let recent = mine(&repo.join("app"), &files, 3).expect("mined");
        assert_eq!((recent.commits, recent.merges, recent.rows.len()), (3, 1, 0));
    }

    #[test]
    fn outside_a_repository_mining_says_why() {
        let dir = tempfile::tempdir().expect("temp dir");
        let e = mine(dir.path(), &HashSet::new(), 10).expect_err("no repository");
        assert!(format!("{e:#}").contains("no git repository"), "{e:#}");
    }
}

#[cfg(test)]
mod ensure_tests {
    use super::tests_support::*;
    use super::*;
    use crate::index::IndexOptions;

    fn index(root: &Path, db: &Path) {
        crate::engine::index(root, db, &IndexOptions::plain()).expect("index");
    }

    /// Off until configured; then computed once, current while HEAD and the files stay (an
    /// uncommitted edit changes neither), recomputed when a commit moves HEAD; `configure(None)`
    /// drops the edges.
    #[test]
    fn ensure_recomputes_only_when_head_or_files_move() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        git(&root, &["init", "-q", "-b", "main"]);
        for n in 0..3 {
            commit(&root, &["a.go", "b.go"], n);
        }
        let db = root.join(".codegraph-test/index.db");
        index(&root, &db);
        assert_eq!(ensure(&db, &root).expect("ensure"), Ensured::Off);
        configure(&db, Some(100)).expect("configure");
        let Ensured::Computed(stored, stamp) = ensure(&db, &root).expect("ensure") else {
            panic!("not computed");
        };
        assert_eq!((stored, stamp["commits"].as_u64()), (2, Some(3)));
        assert_eq!(ensure_db(&db).expect("ensure"), Ensured::Current);
        std::fs::write(root.join("a.go"), "package a\n// edited\n").expect("write");
        index(&root, &db);
        assert_eq!(ensure(&db, &root).expect("ensure"), Ensured::Current);
        commit(&root, &["a.go"], 9);
        index(&root, &db);
        assert!(matches!(ensure(&db, &root).expect("ensure"), Ensured::Computed(2, _)));
        let rows = {
            let mut store = Store::open_read_only(&db).expect("open");
            let reader = store.reader().expect("reader");
            reader.cochanged("a.go", 5).expect("rows")
        };
        // a: 4 commits, b: 3, together 3.
        assert_eq!(rows.1, 1);
        assert_eq!(
            (rows.0[0].dst.as_str(), rows.0[0].support, rows.0[0].confidence),
            ("b.go", 3, 0.75)
        );
        configure(&db, None).expect("off");
        assert_eq!(ensure(&db, &root).expect("ensure"), Ensured::Off);
        let mut store = Store::open_read_only(&db).expect("open");
        assert_eq!(store.reader().expect("reader").cochanged("a.go", 5).expect("rows").1, 0);
    }
}

//! The shared store on the engine's side: `publish` ships a root's published revision for its
//! HEAD commit, and a root with no index seeds from the snapshot of its nearest published
//! ancestor commit, then brings it up to date exactly as sibling seeding does (the git index
//! vouches for files by blob ID; only what differs is read and re-derived).
//!
//! The store itself is behind [`SnapshotStore`] (the server implements it over
//! `codegraph-remote`, which checks what it transfers: manifest scope and commit, blob length
//! and hash, decompressed length), so the engine never links a network client or a runtime.
//! This module decides which commits to ask for, checks what a snapshot says of itself (an
//! index of this indexer, at the commit asked for, sharing files with this root) and turns
//! every failure into a note: the caller then falls back to a sibling, then to a cold build. A
//! store is consulted only for a root without a local index, so a store that is down or slow
//! never stands between a user and an answer from a local index.

use crate::git::index_blobs;
use crate::index::indexer_version;
use crate::seed::{Seeded, Seeding};
use anyhow::{Result, bail};
use codegraph_query::{Store, database_files};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What must match for a snapshot to seed a root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotScope {
    /// The indexer and facts version that wrote the snapshot.
    pub indexer_version: String,
    /// The root's directory inside its repository, `/`-separated; empty for the top.
    pub subdir: String,
    /// The scanner's file-size limit the index was built with.
    pub max_file_size: u64,
}

/// What a store says it did with a publish.
#[derive(Clone, Debug)]
pub struct StoredSnapshot {
    /// The key of the snapshot's bytes and of the commit's manifest.
    pub blob: String,
    pub manifest: String,
    pub db_bytes: u64,
    pub compressed_bytes: u64,
    /// False when the same bytes were already stored.
    pub uploaded_blob: bool,
    /// False when an equal manifest was already there.
    pub wrote_manifest: bool,
}

/// Why a fetch gave nothing.
#[derive(Debug)]
pub enum FetchError {
    /// The store could not be used at all (bad URL, refused, timed out).
    Store(String),
    /// The entry found for `commit` was not usable (missing, truncated, corrupt).
    Entry { commit: String, why: String },
}

/// A shared store of published snapshots, as the engine uses it.
pub trait SnapshotStore: std::fmt::Debug + Send + Sync {
    /// The store's URL without credentials or parameters (what notes print).
    fn label(&self) -> String;
    /// Publishes the self-contained SQLite file `db` as `commit`'s snapshot in `scope`;
    /// idempotent.
    fn publish(
        &self,
        scope: &SnapshotScope,
        commit: &str,
        db: &Path,
        files: u64,
    ) -> Result<StoredSnapshot, String>;
    /// Downloads to `dest` the snapshot of the first of `commits` (nearest first) published in
    /// `scope`, its transfer checked; returns that commit, or `None` when none of them has
    /// one. Entries skipped on the way are explained in `notes`. On an error `dest` is absent.
    fn fetch_nearest(
        &self,
        scope: &SnapshotScope,
        commits: &[String],
        dest: &Path,
        notes: &mut Vec<String>,
    ) -> Result<Option<String>, FetchError>;
}

/// Ancestors of HEAD looked up in a store (nearest first).
const MAX_ANCESTORS: usize = 2000;

/// Where `root` (canonical) sits in its git repository.
struct RepoPlace {
    /// The root's directory inside the repository, `/`-separated ("" for the top).
    subdir: String,
    head: String,
    repo: gix::Repository,
}

fn repo_place(root: &Path) -> Result<RepoPlace, String> {
    let repo = gix::discover(root).map_err(|_| "not in a git repository".to_string())?;
    let workdir = repo
        .workdir()
        .and_then(|w| std::fs::canonicalize(w).ok())
        .ok_or_else(|| "a bare repository".to_string())?;
    let subdir = root
        .strip_prefix(&workdir)
        .map_err(|_| "outside its repository's work tree".to_string())?
        .to_string_lossy()
        .replace('\\', "/");
    let head =
        repo.head_id().map_err(|_| "the repository has no commit yet".to_string())?.to_string();
    Ok(RepoPlace { subdir, head, repo })
}

/// HEAD and its ancestors, nearest first (breadth first), up to `max`; a shallow clone's
/// history ends where its commits do.
fn ancestors(place: &RepoPlace, max: usize) -> Vec<String> {
    let mut out = vec![place.head.clone()];
    let Ok(id) = gix::ObjectId::from_hex(place.head.as_bytes()) else { return out };
    let Ok(walk) = place.repo.rev_walk([id]).all() else { return out };
    out.clear();
    for info in walk.take(max) {
        match info {
            Ok(info) => out.push(info.id.to_string()),
            Err(_) => break,
        }
    }
    if out.is_empty() {
        out.push(place.head.clone());
    }
    out
}

/// What `publish` did.
#[derive(Debug)]
pub struct PublishReport {
    pub store: String,
    pub commit: String,
    pub subdir: String,
    pub revision: i64,
    pub files: u64,
    pub db_bytes: u64,
    pub compressed_bytes: u64,
    pub blob: String,
    pub manifest: String,
    pub uploaded_blob: bool,
    pub wrote_manifest: bool,
    pub elapsed: Duration,
}

impl PublishReport {
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "store": self.store,
            "commit": self.commit,
            "subdir": self.subdir,
            "revision": self.revision,
            "files": self.files,
            "db_bytes": self.db_bytes,
            "compressed_bytes": self.compressed_bytes,
            "blob": self.blob,
            "manifest": self.manifest,
            "uploaded_blob": self.uploaded_blob,
            "wrote_manifest": self.wrote_manifest,
            "elapsed_ms": self.elapsed.as_millis() as u64,
        })
    }
}

/// Publishes the index at `db` of `root` (canonical; its index already brought up to date)
/// to `store` as its HEAD commit's snapshot. Refuses a revision of a tree that differs from
/// HEAD (git's dirty files) unless `allow_dirty`.
pub fn publish(
    root: &Path,
    db: &Path,
    store: &dyn SnapshotStore,
    allow_dirty: bool,
) -> Result<PublishReport> {
    let start = Instant::now();
    let place = repo_place(root).map_err(|why| {
        anyhow::anyhow!("cannot publish {}: {why} (snapshots are named by commit)", root.display())
    })?;
    let mut index = Store::open_read_only(db)?;
    let (snap, max_file_size) = {
        let reader = index.reader()?;
        (reader.snapshot()?, reader.max_file_size()?)
    };
    if snap.indexer_version != indexer_version() {
        bail!("the index was written by indexer {}; index it again first", snap.indexer_version);
    }
    if snap.head_commit.as_deref() != Some(place.head.as_str()) {
        bail!(
            "the index describes commit {}, HEAD is {}: index it again first",
            snap.head_commit.as_deref().unwrap_or("(none)"),
            place.head
        );
    }
    if snap.dirty_files > 0 && !allow_dirty {
        bail!(
            "the tree differs from HEAD in {} file(s) (git status): a snapshot must describe its \
             commit; commit or stash them, or pass --allow-dirty",
            snap.dirty_files
        );
    }
    let Some(max_file_size) = max_file_size else {
        bail!("the index records no file-size limit; index it again first");
    };
    let tmp = scratch_path(db, "publish");
    let _cleanup = Cleanup(tmp.clone());
    index.vacuum_into(&tmp)?;
    drop(index);
    let scope = SnapshotScope {
        indexer_version: indexer_version(),
        subdir: place.subdir.clone(),
        max_file_size,
    };
    let done = store
        .publish(&scope, &place.head, &tmp, snap.files)
        .map_err(|e| anyhow::anyhow!("publishing to {}: {e}", store.label()))?;
    Ok(PublishReport {
        store: store.label(),
        commit: place.head,
        subdir: place.subdir,
        revision: snap.revision,
        files: snap.files,
        db_bytes: done.db_bytes,
        compressed_bytes: done.compressed_bytes,
        blob: done.blob,
        manifest: done.manifest,
        uploaded_blob: done.uploaded_blob,
        wrote_manifest: done.wrote_manifest,
        elapsed: start.elapsed(),
    })
}

/// A file beside `db` for this process's scratch work.
fn scratch_path(db: &Path, what: &str) -> PathBuf {
    let mut p = db.as_os_str().to_os_string();
    p.push(format!(".{what}-{}", std::process::id()));
    PathBuf::from(p)
}

/// Removes a scratch database and its side files when dropped.
struct Cleanup(PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        for f in database_files(&self.0) {
            let _ = std::fs::remove_file(f);
        }
    }
}

/// Seeds the index at `db_path` (which must not exist) for `root` (canonical) from `store`:
/// the snapshot of the nearest ancestor of HEAD published there, downloaded and checked
/// beside `db_path`. Every reason it could not is a note.
pub fn seed(root: &Path, db_path: &Path, max_file_size: u64, store: &dyn SnapshotStore) -> Seeding {
    let mut out = Seeding::default();
    if database_files(db_path).iter().any(|f| f.exists()) {
        return out;
    }
    let start = Instant::now();
    let label = store.label();
    let place = match repo_place(root) {
        Ok(p) => p,
        Err(why) => {
            out.notes
                .push(format!("not seeding from {label}: {why} (snapshots are named by commit)"));
            return out;
        }
    };
    let scope = SnapshotScope {
        indexer_version: indexer_version(),
        subdir: place.subdir.clone(),
        max_file_size,
    };
    let commits = ancestors(&place, MAX_ANCESTORS);
    let dest = scratch_path(db_path, "remote");
    for f in database_files(&dest) {
        let _ = std::fs::remove_file(f);
    }
    let mut notes = Vec::new();
    let fetched = store.fetch_nearest(&scope, &commits, &dest, &mut notes);
    out.notes.extend(notes.into_iter().map(|n| format!("{label}: {n}")));
    let commit = match fetched {
        Ok(Some(c)) => c,
        Ok(None) => {
            out.notes.push(format!(
                "{label} has no snapshot of HEAD or its {} nearest ancestors for this indexer",
                commits.len().saturating_sub(1)
            ));
            return out;
        }
        Err(FetchError::Store(e)) => {
            out.notes.push(format!("could not use the shared store: {e}"));
            return out;
        }
        Err(FetchError::Entry { commit, why }) => {
            out.notes.push(format!("ignored the snapshot of {} in {label}: {why}", short(&commit)));
            return out;
        }
    };
    match check(&dest, &commit, max_file_size, root) {
        Ok(matching) => {
            tracing::debug!(total = ?start.elapsed(), "seeded from the shared store");
            out.from = Some(Seeded {
                root: PathBuf::from(&label),
                commit: Some(commit),
                matching,
                store: Some(label),
            });
            out.copy = Some(dest);
        }
        Err(why) => {
            for f in database_files(&dest) {
                let _ = std::fs::remove_file(f);
            }
            out.notes.push(format!("ignored the snapshot of {} in {label}: {why}", short(&commit)));
        }
    }
    out
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

/// Checks a downloaded snapshot: an index of this indexer, at `commit`, built with the same
/// file-size limit, sharing at least one (path, blob ID) with `root`'s git index. Returns the
/// number of files it shares.
fn check(db: &Path, commit: &str, max_file_size: u64, root: &Path) -> Result<usize, String> {
    let mut store = Store::open_read_only(db).map_err(|e| format!("not an index ({e})"))?;
    let reader = store.reader().map_err(|e| format!("not an index ({e})"))?;
    let snap = reader.snapshot().map_err(|e| format!("not an index ({e})"))?;
    if snap.indexer_version != indexer_version() {
        return Err(format!(
            "written by indexer {}, this is {}",
            snap.indexer_version,
            indexer_version()
        ));
    }
    if snap.head_commit.as_deref() != Some(commit) {
        return Err(format!(
            "it describes commit {}, not {}",
            snap.head_commit.as_deref().unwrap_or("(none)"),
            short(commit)
        ));
    }
    if reader.max_file_size().map_err(|e| e.to_string())? != Some(max_file_size) {
        return Err("built with another --max-file-size".to_string());
    }
    let blobs = index_blobs(root);
    let sources = reader.source_stats().map_err(|e| e.to_string())?;
    let matching =
        sources.iter().filter(|s| blobs.get(&s.path).is_some_and(|b| b.hash == s.hash)).count();
    if matching == 0 && !sources.is_empty() {
        return Err("it shares no file with this root (another repository?)".to_string());
    }
    Ok(matching)
}

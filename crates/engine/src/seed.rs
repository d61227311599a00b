//! Seeding: the first index of a root whose git repository already has an indexed sibling
//! (another worktree of the same repository, same subdirectory) starts from a copy of the
//! sibling's index instead of a cold build. The engine then restores that copy and scans the
//! tree as after any edit: the git index vouches for the files whose blob ID equals the hash
//! the sibling recorded (not read), and only the files that differ are read and re-derived.
//!
//! A sibling index is used only when it was written by this version of codegraph with the same
//! scanner limit, records the sibling's own root, and opens as an index; anything else is
//! ignored with a note, never trusted. The copy is of the sibling's files with its write
//! lock held (no writer can touch them meanwhile; 4x faster), or, when a sibling's `watch` or
//! `mcp` is publishing at that moment, SQLite's online backup, which copies it whole at one
//! revision without waiting. The copy is
//! made beside the index path and moved into place, synced, only once the root's own revision
//! is in it (its sync to disk runs meanwhile, on another thread).

use crate::git::{IndexedBlob, index_blobs};
use crate::index::indexer_version;
use codegraph_query::{Store, database_files};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The metadata key under which a seeded index records where it came from.
pub const SEEDED_FROM: &str = "seeded_from";

/// What seeding did (or why it did not).
#[derive(Debug, Default)]
pub struct Seeding {
    /// The sibling root copied, its commit, and how many of its files the git index of the new
    /// root vouched for by blob ID.
    pub from: Option<Seeded>,
    /// Sibling indexes looked at and ignored, with the reason.
    pub notes: Vec<String>,
    /// The copy, beside the index path and not yet synced or in place: the engine restores
    /// and updates it there and installs it when done ([`Store::install_in_place`]).
    pub copy: Option<PathBuf>,
}

#[derive(Debug, Clone)]
pub struct Seeded {
    pub root: PathBuf,
    pub commit: Option<String>,
    /// Files of the sibling whose path and blob ID the new root's git index shares.
    pub matching: usize,
    /// The shared store it came from (its URL without credentials), instead of a sibling
    /// worktree; `root` is then that label.
    pub store: Option<String>,
}

/// Seeds the index at `db_path` (which must not exist yet) for `root` (canonical) from the
/// best sibling: the one sharing the most (path, blob ID) pairs with the root's git index.
pub fn seed(root: &Path, db_path: &Path, max_file_size: u64) -> Seeding {
    let mut out = Seeding::default();
    if database_files(db_path).iter().any(|f| f.exists()) {
        return out;
    }
    let start = std::time::Instant::now();
    let siblings = sibling_roots(root);
    if siblings.is_empty() {
        return out;
    }
    let t_siblings = start.elapsed();
    let blobs = index_blobs(root);
    let t_blobs = start.elapsed();
    let mut best: Option<(Seeded, PathBuf)> = None;
    for sib in siblings {
        let Ok(sib_db) = crate::paths::default_db_path(&sib) else { continue };
        if !sib_db.exists() {
            continue;
        }
        match candidate(&sib, &sib_db, max_file_size, &blobs) {
            Ok(s) => {
                if best.as_ref().is_none_or(|(b, _)| s.matching > b.matching) {
                    best = Some((s, sib_db));
                }
            }
            Err(why) => out
                .notes
                .push(format!("ignored the index of sibling worktree {}: {why}", sib.display())),
        }
    }
    let t_candidates = start.elapsed();
    let Some((seeded, sib_db)) = best else { return out };
    if seeded.matching == 0 {
        return out;
    }
    // With the sibling's write lock held (no writer can touch its files meanwhile) its files
    // are copied whole; while a writer works on it, SQLite's page-by-page online backup.
    let copied =
        Store::open_read_only(&sib_db).and_then(|s| match crate::guard::try_hold(&sib_db) {
            Some(_held) => s.copy_files_beside(db_path),
            None => s.copy_beside(db_path),
        });
    tracing::debug!(siblings = ?t_siblings, blobs = ?t_blobs, candidates = ?t_candidates, copied = ?start.elapsed(), "seed phases");
    match copied {
        Ok(copy) => {
            out.from = Some(seeded);
            out.copy = Some(copy);
        }
        Err(e) => {
            out.notes.push(format!(
                "could not copy the index of sibling worktree {}: {e}",
                seeded.root.display()
            ));
        }
    }
    out
}

/// A seeded copy's files beside the index path, removed when dropped: after an install they
/// are gone already but for the copy's lock file; after a failure the copy goes too.
pub struct Scratch(pub PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        for f in database_files(&self.0) {
            let _ = std::fs::remove_file(f);
        }
        let _ = std::fs::remove_file(crate::guard::lock_path(&self.0));
    }
}

/// Checks a sibling's index and counts the files the root's git index vouches for in it.
fn candidate(
    sib: &Path,
    sib_db: &Path,
    max_file_size: u64,
    blobs: &HashMap<String, IndexedBlob>,
) -> Result<Seeded, String> {
    let mut store = Store::open_read_only(sib_db).map_err(|e| e.to_string())?;
    let reader = store.reader().map_err(|e| e.to_string())?;
    let snap = reader.snapshot().map_err(|e| e.to_string())?;
    if snap.indexer_version != indexer_version() {
        return Err(format!(
            "written by indexer {}, this is {}",
            snap.indexer_version,
            indexer_version()
        ));
    }
    if reader.max_file_size().map_err(|e| e.to_string())? != Some(max_file_size) {
        return Err("built with another --max-file-size".to_string());
    }
    if Path::new(&snap.root) != sib {
        return Err(format!("it describes {}, not that worktree", snap.root));
    }
    let sources = reader.source_stats().map_err(|e| e.to_string())?;
    let matching =
        sources.iter().filter(|s| blobs.get(&s.path).is_some_and(|b| b.hash == s.hash)).count();
    Ok(Seeded { root: sib.to_path_buf(), commit: snap.head_commit, matching, store: None })
}

/// The same subdirectory of every other worktree of `root`'s repository (main and linked)
/// that exists, canonical.
pub fn sibling_roots(root: &Path) -> Vec<PathBuf> {
    let Ok(repo) = gix::discover(root) else { return Vec::new() };
    let Some(workdir) = repo.workdir().and_then(|w| std::fs::canonicalize(w).ok()) else {
        return Vec::new();
    };
    let Ok(prefix) = root.strip_prefix(&workdir) else { return Vec::new() };
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(main) = repo.main_repo().ok().and_then(|m| m.workdir().map(Path::to_path_buf)) {
        dirs.push(main);
    }
    if let Ok(linked) = repo.worktrees() {
        dirs.extend(linked.iter().filter_map(|p| p.base().ok()));
    }
    let mut out: Vec<PathBuf> = dirs
        .into_iter()
        .filter_map(|d| std::fs::canonicalize(d.join(prefix)).ok())
        .filter(|d| d != root && d.is_dir())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// How a seeded index describes its origin in `status`: "ROOT at COMMIT".
pub fn describe(s: &Seeded) -> String {
    match &s.commit {
        Some(c) => format!("{} at {}", s.root.display(), &c[..c.len().min(12)]),
        None => s.root.display().to_string(),
    }
}

/// What `status` says of a root's repository: its sibling worktrees and their indexes, where
/// this index was seeded from, and the disk each index takes.
#[derive(Debug)]
pub struct Sharing {
    pub seeded_from: Option<serde_json::Value>,
    /// This index's bytes on disk (database and write-ahead log).
    pub index_bytes: u64,
    /// Each sibling root: its index's bytes, `None` when it has none.
    pub siblings: Vec<(PathBuf, Option<u64>)>,
}

/// Bytes on disk of the index at `db` (its database, journal, WAL and shared memory files).
pub fn index_bytes(db: &Path) -> u64 {
    database_files(db).iter().filter_map(|f| std::fs::metadata(f).ok()).map(|m| m.len()).sum()
}

/// Reads what `status` reports on sharing for `root` (canonical).
pub fn sharing(
    root: &Path,
    db: &Path,
    reader: &codegraph_query::Reader<'_>,
) -> anyhow::Result<Sharing> {
    let seeded_from = reader.meta(SEEDED_FROM)?.and_then(|v| serde_json::from_str(&v).ok());
    let siblings = sibling_roots(root)
        .into_iter()
        .map(|r| {
            let bytes = crate::paths::default_db_path(&r)
                .ok()
                .filter(|d| d.exists())
                .map(|d| index_bytes(&d));
            (r, bytes)
        })
        .collect();
    Ok(Sharing { seeded_from, index_bytes: index_bytes(db), siblings })
}

impl Sharing {
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "seeded_from": self.seeded_from,
            "index_bytes": self.index_bytes,
            "siblings": self.siblings.iter().map(|(r, b)| serde_json::json!({
                "root": r.display().to_string(),
                "indexed": b.is_some(),
                "index_bytes": b,
            })).collect::<Vec<_>>(),
        })
    }

    pub fn write(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let mib = |b: u64| format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0));
        if let Some(s) = &self.seeded_from {
            let commit = s["commit"].as_str().map(|c| &c[..c.len().min(12)]).unwrap_or("?");
            writeln!(
                out,
                "seeded    from {} at {commit} (revision {}: {} files re-derived, {} reused)",
                s["root"].as_str().unwrap_or("?"),
                s["revision"],
                s["re_derived"],
                s["reused"]
            )?;
        }
        writeln!(out, "disk      {} for this index", mib(self.index_bytes))?;
        for (root, bytes) in &self.siblings {
            match bytes {
                Some(b) => writeln!(out, "sibling   {} (indexed, {})", root.display(), mib(*b))?,
                None => writeln!(out, "sibling   {} (not indexed)", root.display())?,
            }
        }
        Ok(())
    }
}

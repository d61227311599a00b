//! Housekeeping of the cache directory (`codegraph cache list|rm|gc`): indexes are derived
//! data that outlive their roots (a deleted worktree leaves a 250 MB index behind), so a user
//! needs to see them, remove one, and collect those whose root is gone or that an older
//! indexer wrote (they would be rebuilt anyway).
//!
//! An index is removed only when nothing uses it: not while a live `watch` / `mcp` process
//! owns it, and not while a writer holds its lock.

use anyhow::{Context, Result, bail};
use codegraph_query::Store;
use std::path::{Path, PathBuf};

/// One index in the cache directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedIndex {
    /// The directory holding the index and its side files.
    pub dir: PathBuf,
    pub db: PathBuf,
    /// The root it indexes (from its published snapshot); `None` when it cannot be read.
    pub root: Option<String>,
    pub revision: Option<i64>,
    pub indexer_version: Option<String>,
    /// Bytes of every file in its directory.
    pub bytes: u64,
    /// Why `gc` would collect it: the root is gone, another indexer wrote it, it cannot be
    /// read. `None`: it is kept.
    pub stale: Option<String>,
    /// A live `watch` / `mcp` process keeps it.
    pub owned: bool,
}

/// Every index in the cache directory, sorted by root.
pub fn list() -> Result<Vec<CachedIndex>> {
    list_in(&crate::paths::cache_dir()?)
}

/// Every index under `cache`, sorted by root (unreadable ones last, by directory).
pub fn list_in(cache: &Path) -> Result<Vec<CachedIndex>> {
    let entries = match std::fs::read_dir(cache) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", cache.display())),
    };
    let current = crate::index::indexer_version();
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let dir = entry.path();
        let db = dir.join("index.db");
        if !entry.file_type().is_ok_and(|t| t.is_dir()) || !db.exists() {
            continue;
        }
        let snapshot = Store::open_read_only(&db)
            .ok()
            .and_then(|mut s| s.reader().ok().and_then(|r| r.snapshot().ok()));
        let bytes = std::fs::read_dir(&dir)
            .map(|d| d.flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum())
            .unwrap_or(0);
        let stale = match &snapshot {
            None => Some("it cannot be read".to_string()),
            Some(s) if !Path::new(&s.root).is_dir() => Some(format!("{} is gone", s.root)),
            Some(s) if s.indexer_version != current => {
                Some(format!("indexer {} wrote it (this is {current})", s.indexer_version))
            }
            Some(_) => None,
        };
        out.push(CachedIndex {
            owned: crate::owner::read(&db).is_some(),
            root: snapshot.as_ref().map(|s| s.root.clone()),
            revision: snapshot.as_ref().map(|s| s.revision),
            indexer_version: snapshot.map(|s| s.indexer_version),
            bytes,
            stale,
            db,
            dir,
        });
    }
    out.sort_by(|a, b| {
        (a.root.is_none(), &a.root, &a.dir).cmp(&(b.root.is_none(), &b.root, &b.dir))
    });
    Ok(out)
}

/// Removes the index of `c` (its whole directory), unless a live process owns it or a
/// writer holds its lock.
pub fn remove(c: &CachedIndex) -> Result<()> {
    if crate::owner::read(&c.db).is_some() {
        bail!(
            "the index of {} is kept by a running `codegraph watch` or `codegraph mcp`; stop it first",
            c.root.as_deref().unwrap_or("?")
        );
    }
    // Held while the directory goes, so no writer can start in between.
    let lock = crate::guard::lock_path(&c.db);
    let held = match std::fs::OpenOptions::new().read(true).write(true).open(&lock) {
        Ok(file) => match file.try_lock() {
            Ok(()) => Some(file),
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "the index of {} is being written; try again when that finishes",
                c.root.as_deref().unwrap_or("?")
            ),
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", lock.display()));
            }
        },
        // No lock file: no writer ever ran here.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("cannot open {}", lock.display())),
    };
    let removed = std::fs::remove_dir_all(&c.dir)
        .with_context(|| format!("cannot remove {}", c.dir.display()));
    drop(held);
    removed
}

/// The cached index of `root` (a path as given: it may no longer exist, then it is matched
/// by the root its snapshot names).
pub fn find(indexes: &[CachedIndex], root: &Path) -> Option<CachedIndex> {
    let canonical = std::fs::canonicalize(root).ok();
    let wanted = canonical.as_deref().unwrap_or(root);
    let by_path = crate::paths::default_db_path(wanted).ok();
    indexes
        .iter()
        .find(|c| {
            Some(&c.db) == by_path.as_ref()
                || c.root.as_deref() == wanted.to_str()
                || c.root.as_deref() == root.to_str()
        })
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreadable_index_is_listed_as_collectable() {
        let tmp = std::env::temp_dir().join(format!("cg-cache-{}", std::process::id()));
        let dir = tmp.join("gone-0123456789abcdef");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.db"), b"not a database").unwrap();
        std::fs::create_dir_all(tmp.join("no-index-here")).unwrap();
        let list = list_in(&tmp).unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].root, None);
        assert_eq!(list[0].stale.as_deref(), Some("it cannot be read"));
        assert_eq!(list[0].bytes, 14);
        remove(&list[0]).unwrap();
        assert!(!dir.exists());
        assert!(list_in(&tmp.join("missing")).unwrap().is_empty());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}

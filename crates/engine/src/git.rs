//! What git says about the root: the HEAD commit and the files that differ from it.
//!
//! Both go into every snapshot, so that a later `status` can tell whether the index is stale
//! without re-reading the tree: a different HEAD, or a different fingerprint of the dirty
//! files, means the index no longer describes the worktree.

use std::collections::HashMap;
use std::path::Path;

/// Git facts about a root.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GitState {
    pub head_commit: Option<String>,
    /// Root-relative paths of modified, added, deleted and untracked (not ignored) files, sorted.
    pub dirty: Vec<String>,
    /// Hash over the dirty paths and their current contents; `None` when nothing is dirty.
    pub dirty_fingerprint: Option<String>,
}

/// Reads the git state of `root` (canonical); `None` when the root is not inside a git
/// repository or the repository cannot be read (the snapshot then records no commit).
pub fn git_state(root: &Path) -> Option<GitState> {
    let repo = gix::discover(root).ok()?;
    let workdir = std::fs::canonicalize(repo.workdir()?).ok()?;
    let prefix = root.strip_prefix(&workdir).ok()?.to_path_buf();
    let head_commit = repo.head_id().ok().map(|id| id.to_string());
    let mut dirty: Vec<String> = Vec::new();
    let status = repo
        .status(gix::progress::Discard)
        .ok()?
        .untracked_files(gix::status::UntrackedFiles::Files)
        .into_iter(None)
        .ok()?;
    for item in status {
        let Ok(item) = item else { continue };
        let location = item.location().to_string();
        let rel = if prefix.as_os_str().is_empty() {
            Some(location)
        } else {
            let prefix = prefix.to_string_lossy().replace('\\', "/");
            location.strip_prefix(&format!("{prefix}/")).map(str::to_string)
        };
        if let Some(rel) = rel {
            dirty.push(rel);
        }
    }
    dirty.sort();
    dirty.dedup();
    let dirty_fingerprint = fingerprint(root, &dirty);
    Some(GitState { head_commit, dirty, dirty_fingerprint })
}

/// The HEAD commit of the repository `root` is in, without the cost of a status.
pub fn head_commit(root: &Path) -> Option<String> {
    gix::discover(root).ok()?.head_id().ok().map(|id| id.to_string())
}

/// BLAKE3 over `path \0 content-hash \n` of each dirty path (`-` for a deleted file).
pub fn fingerprint(root: &Path, dirty: &[String]) -> Option<String> {
    if dirty.is_empty() {
        return None;
    }
    let mut hasher = blake3::Hasher::new();
    for rel in dirty {
        hasher.update(rel.as_bytes());
        hasher.update(b"\0");
        match std::fs::read(root.join(rel)) {
            Ok(bytes) => hasher.update(crate::scan::content_hash(&bytes).as_bytes()),
            Err(_) => hasher.update(b"-"),
        };
        hasher.update(b"\n");
    }
    Some(hasher.finalize().to_hex()[..32].to_string())
}

/// What the git index records of one file it would call unchanged without reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedBlob {
    /// The blob ID: the file's content hash when the file still has this stat.
    pub hash: String,
    pub size: u64,
    pub mtime_ns: i64,
    /// Modified in the second the index was written: git cannot tell from the stat whether
    /// the file changed after it hashed it, so neither can we (the blob ID still says what
    /// git last saw, which is good enough to pick a sibling, not to skip a read).
    pub racy: bool,
}

/// The git index's regular-file entries under `root` (canonical), by root-relative path,
/// each usable as "this file has content `hash`" for as long as the file's size and
/// modification time equal the ones git recorded, unless `racy` (modified in the second
/// the index was written). Entries git is told not to check (assume-unchanged,
/// skip-worktree), conflicted ones, symlinks and submodules are left out. Empty when `root` is in no repository or the index cannot be read.
pub fn index_blobs(root: &Path) -> HashMap<String, IndexedBlob> {
    let mut out = HashMap::new();
    let Ok(repo) = gix::discover(root) else { return out };
    let Some(workdir) = repo.workdir().and_then(|w| std::fs::canonicalize(w).ok()) else {
        return out;
    };
    let Ok(prefix) = root.strip_prefix(&workdir) else { return out };
    let prefix = prefix.to_string_lossy().replace('\\', "/");
    let Ok(index) = repo.index_or_empty() else { return out };
    let written = index.timestamp().unix_seconds();
    use gix::index::entry::{Flags, Mode, Stage};
    for entry in index.entries() {
        if entry.stage() != Stage::Unconflicted
            || !(entry.mode == Mode::FILE || entry.mode == Mode::FILE_EXECUTABLE)
            || entry
                .flags
                .intersects(Flags::ASSUME_VALID | Flags::SKIP_WORKTREE | Flags::INTENT_TO_ADD)
        {
            continue;
        }
        let Ok(path) = std::str::from_utf8(entry.path(&index)) else { continue };
        let rel = if prefix.is_empty() {
            path
        } else {
            match path.strip_prefix(prefix.as_str()).and_then(|p| p.strip_prefix('/')) {
                Some(rel) => rel,
                None => continue,
            }
        };
        out.insert(
            rel.to_string(),
            IndexedBlob {
                hash: entry.id.to_hex().to_string(),
                size: u64::from(entry.stat.size),
                mtime_ns: i64::from(entry.stat.mtime.secs) * 1_000_000_000
                    + i64::from(entry.stat.mtime.nsecs),
                racy: i64::from(entry.stat.mtime.secs) >= written,
            },
        );
    }
    out
}

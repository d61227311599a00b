//! What git says about the root: the HEAD commit and the files that differ from it.
//!
//! Both go into every snapshot, so that a later `status` can tell whether the index is stale
//! without re-reading the tree: a different HEAD, or a different fingerprint of the dirty
//! files, means the index no longer describes the worktree.

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

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

/// How long a batch waits at most for git to finish rewriting the tree (and how old a git
/// lock may be and still count: a crashed git leaves one behind).
pub const GIT_BUSY_MAX: std::time::Duration = std::time::Duration::from_secs(10);

/// The lock file git holds while it rewrites the index of `root`'s worktree (a checkout, a
/// merge, a rebase step, a commit); `None` outside git.
pub fn index_lock_path(root: &Path) -> Option<std::path::PathBuf> {
    let repo = gix::discover(root).ok()?;
    let mut p = repo.index_path().into_os_string();
    p.push(".lock");
    Some(p.into())
}

/// Whether git is rewriting the worktree now: its index lock exists and is younger than
/// [`GIT_BUSY_MAX`] (an older one is a crashed git's leftover).
pub fn busy(lock: &Path) -> bool {
    std::fs::metadata(lock).is_ok_and(|m| {
        m.modified().ok().and_then(|t| t.elapsed().ok()).is_none_or(|age| age < GIT_BUSY_MAX)
    })
}

/// Reads the git state of `root` (canonical); `None` when the root is not inside a git
/// repository or the repository cannot be read (the snapshot then records no commit).
/// Dirty files are read under the scanner's rules (`opts`): the index's own files (an index
/// inside the root is an untracked file) are left out, and only regular files within the
/// size limit are read.
pub fn git_state(root: &Path, opts: &crate::scan::ScanOptions) -> Option<GitState> {
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
    dirty.retain(|rel| !opts.exclude.iter().any(|e| *e == root.join(rel)));
    dirty.sort();
    dirty.dedup();
    let dirty_fingerprint = fingerprint(root, &dirty, opts.max_file_size);
    Some(GitState { head_commit, dirty, dirty_fingerprint })
}

/// The HEAD commit of the repository `root` is in, without the cost of a status.
pub fn head_commit(root: &Path) -> Option<String> {
    gix::discover(root).ok()?.head_id().ok().map(|id| id.to_string())
}

/// BLAKE3 over `path \0 content-hash \n` of each dirty path (`-` for a deleted file, the
/// skip code for a path the scanner would not read: a FIFO, a link out of the root, a file
/// over `max_size`). Reads go through [`crate::scan::read_within`]: never a blocking or
/// endless read, and never an open of a file this process must not close (closing any
/// descriptor of an SQLite database drops the process's locks on it).
pub fn fingerprint(root: &Path, dirty: &[String], max_size: u64) -> Option<String> {
    if dirty.is_empty() {
        return None;
    }
    let mut hasher = blake3::Hasher::new();
    for rel in dirty {
        hasher.update(rel.as_bytes());
        hasher.update(b"\0");
        match crate::scan::read_within(root, rel, max_size) {
            Ok(bytes) => hasher.update(crate::scan::content_hash(&bytes).as_bytes()),
            Err(d) if d.code == codegraph_schema::DiagnosticCode::Unreadable => hasher.update(b"-"),
            Err(d) => hasher.update(d.code.as_str().as_bytes()),
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
    /// Racily clean: modified no earlier than the index file was written (compared to the
    /// nanosecond), so the stat cannot tell whether the file changed after git hashed it
    /// (the blob ID still says what git last saw, which is good enough to pick a sibling, not
    /// to skip a read). An entry modified before the index was written is safe to trust:
    /// git compares the content of every entry of the write's second when it writes the
    /// index and zeroes the recorded size of any that changed (its racy-git smudge), and a
    /// change after the write moves the modification time past the recorded one. A fresh
    /// checkout writes thousands of files in the second of its index, so the second-grained
    /// rule git applies when it reads would send most of them to be read and hashed again.
    pub racy: bool,
}

/// The git index's regular-file entries under `root` (canonical), by root-relative path,
/// each usable as "this file has content `hash`" for as long as the file's size and
/// modification time equal the ones git recorded, unless `racy` (modified no earlier than
/// the index was written). Entries git is told not to check (assume-unchanged,
/// skip-worktree), conflicted ones, symlinks and submodules are left out. Empty when `root`
/// is in no repository or the index cannot be read.
pub fn index_blobs(root: &Path) -> HashMap<String, IndexedBlob> {
    let mut out = HashMap::new();
    let Ok(repo) = gix::discover(root) else { return out };
    let Some(workdir) = repo.workdir().and_then(|w| std::fs::canonicalize(w).ok()) else {
        return out;
    };
    let Ok(prefix) = root.strip_prefix(&workdir) else { return out };
    let prefix = prefix.to_string_lossy().replace('\\', "/");
    let Ok(index) = repo.index_or_empty() else { return out };
    let stamp = index.timestamp();
    let written = stamp.unix_seconds() * 1_000_000_000 + i64::from(stamp.nanoseconds());
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
        let mtime_ns =
            i64::from(entry.stat.mtime.secs) * 1_000_000_000 + i64::from(entry.stat.mtime.nsecs);
        out.insert(
            rel.to_string(),
            IndexedBlob {
                hash: entry.id.to_hex().to_string(),
                size: u64::from(entry.stat.size),
                mtime_ns,
                racy: mtime_ns >= written,
            },
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dirty files are read under the scanner's rules: a link to an endless device is
    /// fingerprinted by its skip code without a read (it used to read forever), and the index's own files inside the root are left out entirely
    /// (opening and closing an SQLite database this process holds drops its locks).
    #[test]
    fn dirty_files_are_read_under_the_scanners_rules() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        let git = |args: &[&str]| codegraph_tests::cli::git(&root, args);
        std::fs::write(root.join("a.ts"), "export const a = 1;\n").expect("write");
        git(&["init", "-q", "-b", "main"]);
        git(&["add", "-A"]);
        git(&["commit", "-q", "-m", "init"]);
        let db = root.join(".idx/index.db");
        std::fs::create_dir_all(root.join(".idx")).expect("mkdir");
        std::fs::write(&db, "not read").expect("write");
        let fifo = std::process::Command::new("mkfifo").arg(root.join("pipe.ts")).status();
        assert!(fifo.expect("mkfifo").success());
        std::os::unix::fs::symlink("/dev/zero", root.join("zero.ts")).expect("symlink");
        let opts = crate::engine::scan_options(&db, 1 << 20);
        let state = git_state(&root, &opts).expect("a repository");
        // gix lists no FIFO as untracked; the link is dirty and fingerprinted unread.
        assert_eq!(state.dirty, ["zero.ts"]);
        let before = state.dirty_fingerprint.expect("dirty");
        std::fs::write(&db, "changed, still not read").expect("write");
        let after = git_state(&root, &opts).and_then(|s| s.dirty_fingerprint);
        assert_eq!(after, Some(before.clone()));
        std::fs::write(root.join("a.ts"), "export const a = 2;\n").expect("write");
        let edited = git_state(&root, &opts).and_then(|s| s.dirty_fingerprint);
        assert_ne!(edited, Some(before));
    }

    /// An entry is racily clean when it was modified no earlier than the git index was
    /// written, to the nanosecond: one modified before is vouched for even in the same second
    /// (a fresh checkout writes most files in the second of its index).
    #[test]
    fn racily_clean_is_decided_to_the_nanosecond() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        let git = |args: &[&str]| codegraph_tests::cli::git(&root, args);
        std::fs::write(root.join("a.go"), "package a\n").expect("write");
        git(&["init", "-q", "-b", "main"]);
        git(&["add", "-A"]);
        let entry = index_blobs(&root).remove("a.go").expect("an entry for a.go");
        let at = |ns: i64| {
            let t = std::time::UNIX_EPOCH
                + std::time::Duration::from_nanos(u64::try_from(ns).expect("after 1970"));
            let index = std::fs::File::options()
                .write(true)
                .open(root.join(".git/index"))
                .expect("open the git index");
            index.set_modified(t).expect("set the index's modification time");
            index_blobs(&root).remove("a.go").expect("an entry for a.go").racy
        };
        assert!(!at(entry.mtime_ns + 1), "written a nanosecond after the file");
        assert!(!at(entry.mtime_ns + 500_000_000), "written later in the same second or after");
        assert!(at(entry.mtime_ns), "written at the file's own modification time");
        assert!(at(entry.mtime_ns - 1), "written before the file was modified");
    }
}

//! What changed in the working copy, as files with line hunks, for `codegraph diff-impact`.
//!
//! Read with gix, without running `git`: the base side is a tree (HEAD's, or a given
//! revision's), the new side the git index (`--staged`) or the files on disk. Candidate paths
//! are those whose blob differs between the base tree and the index, plus (unless staged) what
//! `status` reports between the index and the worktree, untracked files included. Each
//! candidate's two texts are diffed line by line with `gix::diff::blob` (histogram), which
//! gives the same hunks as `git diff -U0`.

use anyhow::{Context, Result, anyhow};
use codegraph_query::ops::changed::{ChangeKind, FileChange, Hunk};
use gix::bstr::ByteSlice;
use gix::diff::blob::{Algorithm, Diff, InternedInput};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// Which two states to compare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffBase {
    /// HEAD against the files on disk (staged and unstaged changes, untracked files).
    Worktree,
    /// HEAD against the git index.
    Staged,
    /// A revision (`main`, `HEAD~2`, a commit) against the files on disk.
    Ref(String),
}

/// The changed files under `root` (paths relative to it), sorted by path.
pub fn changes(root: &Path, base: &DiffBase) -> Result<Vec<FileChange>> {
    let repo = gix::discover(root)
        .with_context(|| format!("{} is not inside a git repository", root.display()))?;
    let workdir = repo.workdir().ok_or_else(|| anyhow!("the repository has no worktree"))?;
    let workdir = std::fs::canonicalize(workdir).context("cannot resolve the worktree")?;
    let prefix = root
        .strip_prefix(&workdir)
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    let under_root = |path: &str| -> Option<String> {
        if prefix.is_empty() {
            Some(path.to_string())
        } else {
            path.strip_prefix(&format!("{prefix}/")).map(str::to_string)
        }
    };

    let base_tree = match base {
        // An unborn HEAD has no tree: everything is added.
        DiffBase::Worktree | DiffBase::Staged => repo.head_tree().ok(),
        DiffBase::Ref(spec) => {
            let id = resolve_rev(&repo, spec).with_context(|| {
                format!(
                    "unknown revision `{spec}` (a branch, tag, `HEAD`, a commit ID or its prefix, with `~N` / `^`...: what `git rev-parse` accepts)"
                )
            })?;
            Some(
                repo.find_object(id)
                    .context("reading the revision")?
                    .peel_to_tree()
                    .with_context(|| format!("`{spec}` does not name a tree"))?,
            )
        }
    };
    let mut base_blobs: HashMap<String, gix::ObjectId> = HashMap::new();
    if let Some(tree) = &base_tree {
        for e in tree.traverse().breadthfirst.files().context("reading the base tree")? {
            if e.mode.is_blob() {
                base_blobs.insert(e.filepath.to_str_lossy().into_owned(), e.oid);
            }
        }
    }
    let index = repo.index_or_empty().context("reading the git index")?;
    let mut index_blobs: HashMap<String, gix::ObjectId> = HashMap::new();
    for entry in index.entries() {
        index_blobs.insert(entry.path(&index).to_str_lossy().into_owned(), entry.id);
    }

    let mut candidates: BTreeSet<String> = BTreeSet::new();
    for (path, oid) in &base_blobs {
        if index_blobs.get(path) != Some(oid) {
            candidates.insert(path.clone());
        }
    }
    for path in index_blobs.keys() {
        if !base_blobs.contains_key(path) {
            candidates.insert(path.clone());
        }
    }
    if *base != DiffBase::Staged {
        let status = repo
            .status(gix::progress::Discard)
            .context("git status")?
            .untracked_files(gix::status::UntrackedFiles::Files)
            .into_iter(None)
            .context("git status")?;
        for item in status {
            let item = item.context("git status")?;
            candidates.insert(item.location().to_str_lossy().into_owned());
        }
    }

    let read_blob = |oid: &gix::ObjectId| -> Result<Vec<u8>> {
        Ok(repo.find_blob(*oid).context("reading a blob")?.data.clone())
    };
    let mut out = Vec::new();
    for path in candidates {
        let Some(rel) = under_root(&path) else { continue };
        let old = base_blobs.get(&path).map(read_blob).transpose()?;
        let new = match base {
            DiffBase::Staged => index_blobs.get(&path).map(read_blob).transpose()?,
            _ => match std::fs::read(workdir.join(&path)) {
                Ok(bytes) => Some(bytes),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(e).with_context(|| format!("reading {path}")),
            },
        };
        let change = match (old, new) {
            (None, None) => continue,
            (Some(a), Some(b)) if a == b => continue,
            (None, Some(b)) => FileChange {
                path: rel,
                kind: ChangeKind::Added,
                hunks: vec![Hunk {
                    old_start: 0,
                    old_lines: 0,
                    new_start: 1,
                    new_lines: lines(&b),
                }],
            },
            (Some(a), None) => FileChange {
                path: rel,
                kind: ChangeKind::Deleted,
                hunks: vec![Hunk {
                    old_start: 1,
                    old_lines: lines(&a),
                    new_start: 0,
                    new_lines: 0,
                }],
            },
            (Some(a), Some(b)) => {
                FileChange { path: rel, kind: ChangeKind::Modified, hunks: hunks(&a, &b) }
            }
        };
        out.push(change);
    }
    Ok(out)
}

/// A reference name (`main`, `v1`, `HEAD`, `refs/...`) or a full object ID, with an optional
/// `~N` suffix that walks N first parents. (Full rev-parse syntax needs gix's `revision`
/// feature, which this build leaves out.)
/// What git's rev-parse accepts: a branch, tag, `HEAD`, a full or abbreviated commit ID,
/// `~N` / `^` suffixes, `@{upstream}`...
fn resolve_rev(repo: &gix::Repository, spec: &str) -> Result<gix::ObjectId> {
    Ok(repo.rev_parse_single(spec).map_err(|e| anyhow!("{e}"))?.detach())
}

fn lines(bytes: &[u8]) -> u32 {
    let text = String::from_utf8_lossy(bytes);
    u32::try_from(text.lines().count()).unwrap_or(u32::MAX)
}

/// Line hunks between two texts, 1-based, `git diff -U0` style.
pub fn hunks(old: &[u8], new: &[u8]) -> Vec<Hunk> {
    let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
    let input = InternedInput::new(old.as_ref(), new.as_ref());
    let diff = Diff::compute(Algorithm::Histogram, &input);
    let side = |r: &std::ops::Range<u32>| {
        let len = r.end - r.start;
        (if len == 0 { r.start } else { r.start + 1 }, len)
    };
    diff.hunks()
        .map(|h| {
            let (old_start, old_lines) = side(&h.before);
            let (new_start, new_lines) = side(&h.after);
            Hunk { old_start, old_lines, new_start, new_lines }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_match_git_diff_u0() {
        let old = b"a\nb\nc\nd\n";
        let new = b"a\nB\nc\nd\ne\n";
        assert_eq!(
            hunks(old, new),
            vec![
                Hunk { old_start: 2, old_lines: 1, new_start: 2, new_lines: 1 },
                Hunk { old_start: 4, old_lines: 0, new_start: 5, new_lines: 1 },
            ]
        );
        assert_eq!(
            hunks(b"a\nb\nc\n", b"a\nc\n"),
            vec![Hunk { old_start: 2, old_lines: 1, new_start: 1, new_lines: 0 }]
        );
    }
}

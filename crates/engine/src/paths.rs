//! Where an index lives: a per-user cache directory keyed by the canonical root, unless
//! `--db` says otherwise. The index is derived data and never lives in the worktree by default.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// The canonical form of a root directory, with an actionable error.
pub fn canonical_root(root: &Path) -> Result<PathBuf> {
    let canonical = std::fs::canonicalize(root)
        .with_context(|| format!("cannot read root {}: does it exist?", root.display()))?;
    if !canonical.is_dir() {
        bail!("root {} is not a directory", canonical.display());
    }
    std::fs::read_dir(&canonical).with_context(|| {
        format!("cannot list root {}: check its permissions", canonical.display())
    })?;
    Ok(canonical)
}

/// The per-user cache directory of codegraph: `$CODEGRAPH_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/codegraph`, else `~/.cache/codegraph`.
pub fn cache_dir() -> Result<PathBuf> {
    if let Some(d) = std::env::var_os("CODEGRAPH_CACHE_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d).join("codegraph"));
    }
    match std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".cache").join("codegraph")),
        None => bail!("no cache directory: set CODEGRAPH_CACHE_DIR or HOME, or pass --db PATH"),
    }
}

/// The default database path of a canonical root: `<cache>/<name>-<hash>/index.db`.
pub fn default_db_path(canonical_root: &Path) -> Result<PathBuf> {
    let key =
        blake3::hash(canonical_root.as_os_str().as_encoded_bytes()).to_hex()[..16].to_string();
    let name: String = canonical_root
        .file_name()
        .map(|n| {
            n.to_string_lossy()
                .chars()
                .filter(|c| c.is_alphanumeric() || "-_.".contains(*c))
                .collect()
        })
        .unwrap_or_default();
    let dir = if name.is_empty() { key } else { format!("{name}-{key}") };
    Ok(cache_dir()?.join(dir).join("index.db"))
}

/// The database of a root: `--db` when given, else the default.
pub fn db_path(canonical_root: &Path, explicit: Option<&Path>) -> Result<PathBuf> {
    match explicit {
        Some(p) => Ok(std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())),
        None => default_db_path(canonical_root),
    }
}

/// How a command found its root (for the note it prints when the root is not where the user
/// stands).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// The directory the user named (or the current one) is the root.
    AsGiven,
    /// The nearest ancestor that has an index.
    IndexedAncestor,
    /// No ancestor has an index: the git worktree the directory is in.
    GitWorktree,
}

/// The root a command works on, found like git finds its repository: from `start` (the
/// directory the user named, or the current one) the nearest directory, itself included,
/// that has an index (its default database exists); else the root of the git worktree
/// `start` is in; else `start` itself. With `--db` the index is given: the root it describes
/// when `start` is in it (a package directory indexed inside a larger repository), else the
/// git rule. The result is canonical.
pub fn discover_root(start: &Path, explicit_db: Option<&Path>) -> Result<(PathBuf, Found)> {
    let start = canonical_root(start)?;
    if let Some(db) = explicit_db.filter(|db| db.exists())
        && let Some(root) = indexed_root(db)
        && start.starts_with(&root)
    {
        let found = if root == start { Found::AsGiven } else { Found::IndexedAncestor };
        return Ok((root, found));
    }
    if explicit_db.is_none() {
        for dir in start.ancestors() {
            if default_db_path(dir).is_ok_and(|db| db.exists()) {
                let found = if dir == start { Found::AsGiven } else { Found::IndexedAncestor };
                return Ok((dir.to_path_buf(), found));
            }
        }
    }
    for dir in start.ancestors() {
        if dir.join(".git").exists() {
            let found = if dir == start { Found::AsGiven } else { Found::GitWorktree };
            return Ok((dir.to_path_buf(), found));
        }
    }
    Ok((start, Found::AsGiven))
}

/// The root the index at `db` describes, if it opens and has a revision.
fn indexed_root(db: &Path) -> Option<PathBuf> {
    let mut store = codegraph_query::Store::open_read_only(db).ok()?;
    let root = store.reader().ok()?.snapshot().ok()?.root;
    Some(PathBuf::from(root))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_is_the_nearest_indexed_ancestor_else_the_git_worktree() {
        let tmp = std::env::temp_dir().join(format!("cg-discover-{}", std::process::id()));
        let sub = tmp.join("repo/pkg/inner");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir_all(tmp.join("repo/.git")).unwrap();
        let repo = canonical_root(&tmp.join("repo")).unwrap();
        // --db given: only the git rule.
        let (r, how) = discover_root(&sub, Some(Path::new("/x.db"))).unwrap();
        assert_eq!((r, how), (repo.clone(), Found::GitWorktree));
        let (r, how) = discover_root(&repo, Some(Path::new("/x.db"))).unwrap();
        assert_eq!((r, how), (repo.clone(), Found::AsGiven));
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    /// With `--db` naming an index of a package directory inside a larger repository, a
    /// command run in that directory (or below it) works on the indexed directory, not the
    /// repository (whose every other file would look added).
    #[test]
    fn an_explicit_index_names_its_own_root() {
        let tmp = std::env::temp_dir().join(format!("cg-discover-db-{}", std::process::id()));
        let sub = tmp.join("repo/pkg/inner");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir_all(tmp.join("repo/.git")).unwrap();
        std::fs::write(tmp.join("repo/pkg/a.go"), "package pkg\n\nfunc A() {}\n").unwrap();
        let pkg = canonical_root(&tmp.join("repo/pkg")).unwrap();
        let db = tmp.join("pkg.db");
        crate::engine::index(&pkg, &db, &crate::index::IndexOptions::plain()).unwrap();
        let (r, how) = discover_root(&sub, Some(&db)).unwrap();
        assert_eq!((r, how), (pkg.clone(), Found::IndexedAncestor));
        let (r, how) = discover_root(&pkg, Some(&db)).unwrap();
        assert_eq!((r, how), (pkg, Found::AsGiven));
        // Outside the indexed directory the git rule holds.
        let repo = canonical_root(&tmp.join("repo")).unwrap();
        let (r, how) = discover_root(&repo, Some(&db)).unwrap();
        assert_eq!((r, how), (repo, Found::AsGiven));
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}

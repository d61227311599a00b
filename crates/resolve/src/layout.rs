//! Where a language's files are: per-language directory listings and a path index, shared by
//! the languages that resolve by directory or by path (Terraform modules, shell `source`).
//!
//! Why it exists: resolution must depend on the file list only through small tables that
//! compare equal when the list did not change for them, so a new TS file does not re-run a
//! Terraform module's resolution. Each query here reads paths and languages only.

use crate::keys::DirKey;
use codegraph_db::{SourceFile, Workspace};
use codegraph_parse::Language;
use std::collections::{BTreeMap, HashMap};

/// A language of a workspace: the key of per-language listings.
#[salsa::interned(debug)]
pub(crate) struct LanguageKey<'db> {
    #[returns(copy)]
    pub workspace: Workspace,
    #[returns(copy)]
    pub language: Language,
}

/// The files of one language by directory (root-relative, `""` for the root), in workspace
/// order within each.
#[salsa::tracked(returns(ref))]
pub(crate) fn language_dirs<'db>(
    db: &'db dyn salsa::Database,
    key: LanguageKey<'db>,
) -> BTreeMap<String, Vec<SourceFile>> {
    let language = key.language(db);
    let mut out: BTreeMap<String, Vec<SourceFile>> = BTreeMap::new();
    for &file in key.workspace(db).files(db) {
        if file.language(db) == Some(language) {
            let dir = crate::ids::parent_dir(file.path(db));
            out.entry(dir.to_string()).or_default().push(file);
        }
    }
    out
}

/// The files of `language` in one directory (empty when it holds none).
#[salsa::tracked(returns(ref))]
pub(crate) fn dir_files<'db>(
    db: &'db dyn salsa::Database,
    key: DirLanguageKey<'db>,
) -> Vec<SourceFile> {
    let k = LanguageKey::new(db, key.workspace(db), key.language(db));
    language_dirs(db, k).get(key.dir(db)).cloned().unwrap_or_default()
}

/// A directory of a workspace in one language.
#[salsa::interned(debug)]
pub(crate) struct DirLanguageKey<'db> {
    #[returns(copy)]
    pub workspace: Workspace,
    #[returns(copy)]
    pub language: Language,
    #[returns(ref)]
    pub dir: String,
}

/// Every file of the workspace by path.
#[salsa::tracked(returns(ref))]
pub(crate) fn path_index(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> HashMap<String, SourceFile> {
    workspace.files(db).iter().map(|&f| (f.path(db).clone(), f)).collect()
}

/// The files of `language` in the directory of `dir` (convenience over [`dir_files`]).
pub(crate) fn files_in<'db>(
    db: &'db dyn salsa::Database,
    dir: DirKey<'db>,
    language: Language,
) -> &'db [SourceFile] {
    dir_files(db, DirLanguageKey::new(db, dir.workspace(db), language, dir.dir(db).clone()))
}

/// A root-relative path of a workspace: the key of [`file_at`].
#[salsa::interned(debug)]
pub(crate) struct PathKey<'db> {
    #[returns(copy)]
    pub workspace: Workspace,
    #[returns(ref)]
    pub path: String,
}

/// The file at a path, if the workspace has it. Memoized per path, so a reader depends on
/// that path's presence only, not on the whole list.
#[salsa::tracked]
pub(crate) fn file_at<'db>(db: &'db dyn salsa::Database, key: PathKey<'db>) -> Option<SourceFile> {
    path_index(db, key.workspace(db)).get(key.path(db)).copied()
}

/// [`file_at`] for a workspace and a path.
pub(crate) fn lookup(
    db: &dyn salsa::Database,
    workspace: Workspace,
    path: &str,
) -> Option<SourceFile> {
    *file_at(db, PathKey::new(db, workspace, path.to_string()))
}

//! The interned keys of the queries that need the workspace together with one file or one
//! directory, and [`describe_key`], which turns any query key back into a path.
//!
//! Why it exists: salsa keys a tracked function of several arguments by an interned tuple that
//! it keeps private, so its event log can only say `resolve_file(Id(1c02))`. Every query of this
//! crate therefore takes a single key: a [`SourceFile`], the [`Workspace`], or one of the
//! interned pairs below (the same intern-then-fetch salsa does for a tuple, at the same cost).
//! [`describe_key`] maps each of them back to a file path or a directory, so tests can assert
//! exactly which queries re-ran after an edit (`resolve_file(src/a.ts)`) and a daemon can log
//! it.

use crate::units::NodeUnit;
use codegraph_db::{SourceFile, Workspace};
use salsa::plumbing::SalsaStructInDb;

/// A file of a workspace: the key of per-file queries that also read workspace-wide tables.
#[salsa::interned(debug)]
pub(crate) struct FileKey<'db> {
    #[returns(copy)]
    pub workspace: Workspace,
    #[returns(copy)]
    pub file: SourceFile,
}

/// A directory of a workspace (root-relative, `""` for the root): the key of per-directory
/// queries (a Go package's files and tables, a TS directory listing).
#[salsa::interned(debug)]
pub(crate) struct DirKey<'db> {
    #[returns(copy)]
    pub workspace: Workspace,
    #[returns(ref)]
    pub dir: String,
}

/// `query(argument)` for a salsa query key, e.g. from [`salsa::EventKind::WillExecute`]:
/// the argument is the file path for per-file queries, `dir/` (`./` for the root) for
/// per-directory ones (plus the language for per-language listings), the language for
/// per-language ones, the node ID for a [`NodeUnit`], and empty for whole-workspace
/// queries. Call it outside queries (it reads the keys' fields), in the revision the key was
/// logged in.
pub fn describe_key(db: &dyn salsa::Database, key: salsa::DatabaseKeyIndex) -> String {
    let zalsa = db.zalsa();
    let name = zalsa.lookup_ingredient(key.ingredient_index()).debug_name();
    let id = key.key_index();
    // Which struct an ID belongs to is a property of its page (salsa plumbing, pinned version).
    let ty = zalsa.lookup_page_type_id(id);
    let dir_label = |dir: &str| if dir.is_empty() { "./".to_string() } else { format!("{dir}/") };
    let arg = if let Some(file) = SourceFile::cast(id, ty) {
        file.path(db).clone()
    } else if Workspace::cast(id, ty).is_some() {
        String::new()
    } else if let Some(k) = FileKey::cast(id, ty) {
        k.file(db).path(db).clone()
    } else if let Some(k) = DirKey::cast(id, ty) {
        dir_label(k.dir(db))
    } else if let Some(k) = crate::layout::LanguageKey::cast(id, ty) {
        k.language(db).as_str().to_string()
    } else if let Some(k) = crate::layout::DirLanguageKey::cast(id, ty) {
        format!("{} {}", dir_label(k.dir(db)), k.language(db).as_str())
    } else if let Some(k) = crate::layout::PathKey::cast(id, ty) {
        k.path(db).clone()
    } else if let Some(k) = crate::rust::ModKey::cast(id, ty) {
        // A Rust module: its root directory and path (`src crate::a::b` reads `src a::b`).
        format!("{} {}", dir_label(k.root(db)), k.path(db))
    } else if let Some(k) = crate::java::PackageKey::cast(id, ty) {
        // A Java package: its name.
        k.package(db).clone()
    } else if let Some(u) = NodeUnit::cast(id, ty) {
        u.id(db).to_string()
    } else {
        format!("{id:?}")
    };
    format!("{name}({arg})")
}

//! DOC_RELATED: a Markdown section -> each symbol or file it names.
//!
//! Why it exists: agents ask "which docs describe this"; a README section that shows
//! `mux.NewRouter()` or links `docs/routing.md` is the answer. The Markdown provider records
//! mentions per section (inline code, names called or selected in fenced code, link targets);
//! this module resolves them against the workspace and keeps only what names exactly one
//! target. A name is a contextual hint, not proof of coupling: DOC_RELATED weighs 0.75 (the
//! reference spec's doc-to-symbol weight) and never drives CALLS-like answers.
//!
//! Rules, in order, for a code mention (`NewRouter()`, `*mux.Router`, `Router.HandleFunc`):
//! 1. a path (it has a `/` or a file extension of the workspace): the file, relative to the
//!    Markdown file's directory, else to the root, else the one file whose path ends with it;
//! 2. a qualified name (`Router.HandleFunc`) equal to a symbol's;
//! 3. `pkg.Name...`: a symbol whose qualified name is the rest, in a Go package named `pkg`
//!    or a file whose stem or directory is `pkg` (`r.HandleFunc(...)` on a variable names
//!    nothing: without the variable's type a member name alone is a guess, and measured on
//!    gorilla/mux's README such guesses were wrong one time in three);
//! 4. a bare name: the symbols of that name that are not members (fields, methods) unless
//!    only members have it.
//!
//! Vendored code and test data (`vendor/`, `node_modules/`, `third_party/`, `testdata/`) are
//! never targets of docs outside them, and a bare name shorter than 4 characters resolves
//! only under the Markdown file's directory (`a1`, `r2` in prose are placeholders), as does a
//! name of a declaration that is not exported (a doc under `docs/` mentioning `version` or
//! `payload` means the API's, not a build script's local constant). Targets
//! are production code: symbols of test files, test blocks and functions local to another
//! function are left out (measured on fastify's docs, those were the wrong links). Among
//! several candidates, code under the Markdown file's directory wins over the rest; still
//! several, the mention names nothing (no guess).
//! Links resolve by rule 1 only. Routes are not matched (a path in prose is rarely the exact
//! route pattern).
//!
//! Incrementality: [`doc_names`] is one file's mentionable names without lines, so an edit
//! inside a body leaves it equal and [`name_index`] is not rebuilt; the index changes only
//! when a declaration is added, removed or renamed, or the docs mention a new name, and then
//! only Markdown files re-resolve (cheap lookups). Editing a Markdown file re-resolves that
//! file alone unless it changes the set of names the docs mention.
//!
//! Memory: the index holds only the names some doc mentions ([`mentioned_names`]), and a
//! file's [`doc_names`] are stored once per process for all the roots that hold that file
//! (`crate::shared`), so a served worktree adds little here.

use crate::graph::{Edge, symbol_ids};
use crate::ids::{Id, file_id, join, parent_dir};
use crate::resolved::{Resolved, caller_id};
use codegraph_db::{SourceFile, Workspace, file_facts};
use codegraph_parse::{MentionKind, is_identifier};
use codegraph_schema::{EdgeKind, NodeKind, Reason};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// One mentionable symbol of a file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct DocName {
    pub name: String,
    pub qualified_name: String,
    /// The symbol's index in its file's facts.
    pub idx: u32,
    /// A member of a type (field, method, enum member): matched by bare name only when no
    /// top-level declaration has the name.
    pub member: bool,
    /// Visible outside its file or package: what docs away from the code describe.
    pub exported: bool,
}

/// The names one file's symbols can be mentioned by, without lines: equal across edits that
/// change no declaration. Markdown sections are not targets.
#[salsa::tracked(returns(ref))]
pub(crate) fn doc_names(db: &dyn salsa::Database, file: SourceFile) -> Arc<Vec<DocName>> {
    // Docs describe production code: test files, and functions local to another function,
    // are not what they name.
    let targets = crate::languages::of(db, file).is_some_and(|r| r.doc_targets());
    if !targets || crate::graph::is_test(db, file) {
        return crate::shared::share(file.path(db), Vec::new());
    }
    let facts = &file_facts(db, file);
    let local = |s: &codegraph_parse::Symbol| {
        s.parent.and_then(|p| facts.symbols.get(p as usize)).is_some_and(|p| p.kind.is_callable())
    };
    let names = facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind != NodeKind::Section && s.kind != NodeKind::Test && !local(s))
        .map(|(i, s)| DocName {
            name: s.name.clone(),
            qualified_name: s.qualified_name.clone(),
            idx: u32::try_from(i).unwrap_or(u32::MAX),
            // Go methods are top-level declarations named `Type.Method`.
            member: s.parent.is_some() || s.qualified_name != s.name,
            exported: s.exported,
        })
        .collect::<Vec<_>>();
    // Sibling worktrees' databases hold one copy of an unchanged file's names.
    crate::shared::share(file.path(db), names)
}

/// What `pkg.Name` mentions of a file's symbols qualify by (a Go file's package clause), else
/// `None`.
#[salsa::tracked(returns(ref))]
pub(crate) fn go_package_of(db: &dyn salsa::Database, file: SourceFile) -> Option<String> {
    crate::languages::of(db, file)?.mention_qualifier(&file_facts(db, file))
}

/// The names [`find_name`] may look up for one Markdown file's code mentions that are not
/// paths: each cleaned text and, when qualified, the text after the first dot, sorted. Equal
/// across edits that change no mention: the part of a doc other files' queries read (its
/// surface).
#[salsa::tracked(returns(ref))]
pub(crate) fn doc_lookup_keys(db: &dyn salsa::Database, file: SourceFile) -> Vec<String> {
    let mut names = Vec::new();
    for m in &file_facts(db, file).mentions {
        if m.kind == MentionKind::Link {
            continue;
        }
        let text = clean(&m.text);
        if looks_like_path(text) {
            continue;
        }
        let Some((text, qualified)) = lookup_keys(text) else { continue };
        if let Some((_, rest)) = qualified {
            names.push(rest.to_string());
        }
        names.push(text.to_string());
    }
    names.sort();
    names.dedup();
    names
}

/// The names [`find_name`] may look up: every Markdown file's [`doc_lookup_keys`]. Equal
/// across edits that change no mention, so [`name_index`] is rebuilt only when the docs name
/// something new (or a declaration changes).
#[salsa::tracked(returns(ref))]
pub(crate) fn mentioned_names(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> Arc<HashSet<String>> {
    let mut names = HashSet::new();
    for &file in workspace.files(db) {
        // The docs: files whose own symbols are not doc targets (the Markdown resolver's).
        if crate::languages::of(db, file).is_none_or(|r| r.doc_targets()) {
            continue;
        }
        names.extend(doc_lookup_keys(db, file).iter().cloned());
    }
    Arc::new(names)
}

/// The workspace's mentionable names that some doc mentions ([`mentioned_names`]), and every
/// path. Only mentioned names are kept: every lookup is one of them, and the index of all
/// names cost tens of MiB per root on the Go standard library (per worktree in `mcp`).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct NameIndex {
    /// Name -> (file, position in its [`doc_names`]).
    by_name: HashMap<String, Vec<(SourceFile, u32)>>,
    /// Qualified name -> the same.
    by_qname: HashMap<String, Vec<(SourceFile, u32)>>,
    paths: HashMap<String, SourceFile>,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn name_index(db: &dyn salsa::Database, workspace: Workspace) -> Arc<NameIndex> {
    let mentioned = mentioned_names(db, workspace);
    let mut ix = NameIndex::default();
    for &file in workspace.files(db) {
        ix.paths.insert(file.path(db).clone(), file);
        if mentioned.is_empty() {
            continue;
        }
        for (i, n) in doc_names(db, file).iter().enumerate() {
            let at = (file, u32::try_from(i).unwrap_or(u32::MAX));
            if mentioned.contains(&n.name) {
                ix.by_name.entry(n.name.clone()).or_default().push(at);
            }
            if n.qualified_name != n.name && mentioned.contains(&n.qualified_name) {
                ix.by_qname.entry(n.qualified_name.clone()).or_default().push(at);
            }
        }
    }
    Arc::new(ix)
}

/// What a mention resolved to.
enum Target {
    File(SourceFile),
    Symbol(SourceFile, u32),
}

/// Markdown in the resolve registry (`crate::languages`): its sections name code
/// (DOC_RELATED) and are never what documentation names.
pub(crate) struct MarkdownResolver;

pub(crate) static MARKDOWN_RESOLVER: MarkdownResolver = MarkdownResolver;

impl crate::languages::LanguageResolver for MarkdownResolver {
    fn resolve<'db>(
        &self,
        db: &'db dyn salsa::Database,
        key: crate::keys::FileKey<'db>,
    ) -> Resolved {
        resolve_markdown(db, key.workspace(db), key.file(db))
    }

    fn doc_targets(&self) -> bool {
        false
    }

    fn surface<'db>(&self, db: &'db dyn salsa::Database, key: crate::keys::FileKey<'db>) -> bool {
        doc_lookup_keys(db, key.file(db));
        true
    }
}

/// The DOC_RELATED edges of one Markdown file: section (or the file, before its first
/// heading) -> target, one per pair, at the first mention.
pub(crate) fn resolve_markdown(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Resolved {
    let facts = &file_facts(db, file);
    let mut out = Resolved::default();
    if facts.mentions.is_empty() {
        return out;
    }
    let ix = name_index(db, workspace);
    let path = file.path(db);
    let dir = parent_dir(path);
    let mut linked: HashSet<(Id, Id)> = HashSet::new();
    for m in &facts.mentions {
        let target = match m.kind {
            MentionKind::Link => find_path(ix, dir, &m.text).map(Target::File),
            MentionKind::Code | MentionKind::Fenced => {
                let text = clean(&m.text);
                if looks_like_path(text) {
                    find_path(ix, dir, text).map(Target::File)
                } else {
                    find_name(db, ix, path, text)
                }
            }
        };
        let dst = match target {
            Some(Target::File(f)) if f != file => file_id(f.path(db)),
            Some(Target::Symbol(f, i)) => {
                let Some(n) = doc_names(db, f).get(i as usize) else { continue };
                let Some(id) = symbol_ids(db, f).get(n.idx as usize) else { continue };
                id.clone()
            }
            _ => continue,
        };
        let src = caller_id(db, file, m.section);
        if linked.insert((src.clone(), dst.clone())) {
            out.edges.push(Edge::new(src, dst, EdgeKind::DocRelated, Reason::DocMention, m.line));
        }
    }
    out
}

/// `NewRouter()` -> `NewRouter`, `*mux.Router` -> `mux.Router`, `r.Use(mw)` -> `r.Use`.
fn clean(text: &str) -> &str {
    let t = text.trim().trim_start_matches(['*', '&']);
    let t = t.split('(').next().unwrap_or(t);
    t.trim_end_matches(['.', ',', ';', ':'])
}

/// A path-shaped mention: has a `/`, or ends in a short extension after a dot that is not a
/// qualified name (`main.go`, `README.md`; not `mux.Router`).
fn looks_like_path(t: &str) -> bool {
    if t.contains('/') {
        return true;
    }
    let Some((_, ext)) = t.rsplit_once('.') else { return false };
    matches!(
        ext,
        "go" | "ts"
            | "tsx"
            | "js"
            | "jsx"
            | "mjs"
            | "cjs"
            | "md"
            | "json"
            | "mod"
            | "sum"
            | "yaml"
            | "yml"
            | "toml"
            | "html"
            | "css"
            | "txt"
            | "sh"
            | "xml"
            | "proto"
            | "sql"
            | "py"
            | "rs"
            | "c"
            | "h"
            | "s"
            | "lock"
    )
}

/// A path relative to `dir`, else to the root, else the one path ending with it.
fn find_path(ix: &NameIndex, dir: &str, text: &str) -> Option<SourceFile> {
    let text = text.trim_start_matches("./");
    if text.is_empty() {
        return None;
    }
    let rooted = text.strip_prefix('/');
    let mut tries: Vec<String> = Vec::new();
    if let Some(r) = rooted {
        tries.push(r.to_string());
    } else {
        if !dir.is_empty() {
            tries.extend(join(dir, text));
        }
        tries.extend(join("", text));
    }
    for t in &tries {
        if let Some(&f) = ix.paths.get(t) {
            return Some(f);
        }
    }
    if rooted.is_some() || text.starts_with("..") {
        return None;
    }
    let suffix = format!("/{text}");
    let mut hits = ix.paths.iter().filter(|(p, _)| p.ends_with(&suffix));
    match (hits.next(), hits.next()) {
        (Some((_, &f)), None) => Some(f),
        _ => None,
    }
}

/// What [`find_name`] looks up for a mention's cleaned text, and so what [`mentioned_names`]
/// keeps in the index: the text and, when it is qualified, its qualifier and what follows the
/// first dot. `None` for a text that is no (dotted) name.
fn lookup_keys(text: &str) -> Option<(&str, Option<(&str, &str)>)> {
    if text.is_empty() || !text.split('.').all(is_identifier) {
        return None;
    }
    Some((text, text.split_once('.')))
}

/// The one symbol a name mention denotes (rules 2-4 of the module doc); `doc` is the
/// Markdown file's path.
fn find_name(db: &dyn salsa::Database, ix: &NameIndex, doc: &str, text: &str) -> Option<Target> {
    let dir = parent_dir(doc);
    let (text, qualified) = lookup_keys(text)?;
    let entry = |&(f, i): &(SourceFile, u32)| doc_names(db, f).get(i as usize).map(|n| (f, i, n));
    let mut candidates: Vec<(SourceFile, u32)> = Vec::new();
    if let Some((qualifier, rest)) = qualified {
        candidates.extend(ix.by_qname.get(text).into_iter().flatten());
        if candidates.is_empty() {
            let pool =
                if rest.contains('.') { ix.by_qname.get(rest) } else { ix.by_name.get(rest) };
            candidates.extend(pool.into_iter().flatten().filter(|&&(f, i)| {
                entry(&(f, i)).is_some_and(|(_, _, n)| n.qualified_name == rest)
                    && qualifies(db, f, qualifier)
            }));
        }
    } else {
        let all: Vec<(SourceFile, u32)> =
            ix.by_name.get(text).into_iter().flatten().copied().collect();
        let top: Vec<(SourceFile, u32)> =
            all.iter().copied().filter(|at| entry(at).is_some_and(|(_, _, n)| !n.member)).collect();
        candidates = if top.is_empty() { all } else { top };
    }
    // Vendored code and test data are not what a repository's docs describe (unless the
    // Markdown file lives there too); a short bare name away from the doc's directory is
    // more often a word or a placeholder (`a1`, `r2`) than a reference.
    let bare = !text.contains('.');
    candidates.retain(|&(f, i)| {
        let path = f.path(db);
        let near = dir.is_empty() || path.starts_with(&format!("{dir}/"));
        let exported = doc_names(db, f).get(i as usize).is_some_and(|n| n.exported);
        (!is_vendored(path) || same_vendored_tree(path, doc))
            && (near || exported)
            && (near || !bare || text.chars().count() >= MIN_FAR_NAME)
    });
    pick(db, dir, candidates)
}

/// Shortest bare name that may resolve outside the Markdown file's directory.
const MIN_FAR_NAME: usize = 4;

/// Directories of code the repository carries but does not own, or data for tests.
const VENDORED: &[&str] = &["vendor", "node_modules", "third_party", "testdata"];

fn is_vendored(path: &str) -> bool {
    path.split('/').any(|c| VENDORED.contains(&c))
}

/// Whether `path` and `doc` lie under the same vendored directory.
fn same_vendored_tree(path: &str, doc: &str) -> bool {
    let root = |p: &str| -> Option<usize> {
        let mut at = 0;
        for c in p.split('/') {
            at += c.len() + 1;
            if VENDORED.contains(&c) {
                return Some(at);
            }
        }
        None
    };
    match (root(path), root(doc)) {
        (Some(a), Some(b)) => a == b && path.get(..a) == doc.get(..b),
        _ => false,
    }
}

/// Whether `qualifier` names `file`'s Go package, its file stem or its directory.
fn qualifies(db: &dyn salsa::Database, file: SourceFile, qualifier: &str) -> bool {
    let path = file.path(db);
    if go_package_of(db, file).as_deref() == Some(qualifier) {
        return true;
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name);
    let dir = parent_dir(path);
    stem == qualifier || dir.rsplit('/').next() == Some(qualifier)
}

/// The one candidate left after preferring code under `dir`.
fn pick(db: &dyn salsa::Database, dir: &str, mut c: Vec<(SourceFile, u32)>) -> Option<Target> {
    c.sort_by_key(|&(f, i)| (f.path(db).clone(), i));
    c.dedup();
    if c.len() > 1 && !dir.is_empty() {
        let prefix = format!("{dir}/");
        let near: Vec<_> =
            c.iter().copied().filter(|&(f, _)| f.path(db).starts_with(&prefix)).collect();
        if !near.is_empty() {
            c = near;
        }
    }
    match c.as_slice() {
        [(f, i)] => Some(Target::Symbol(*f, *i)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_cleaned_and_classified() {
        assert_eq!(clean("mux.NewRouter()"), "mux.NewRouter");
        assert_eq!(clean("*mux.Router"), "mux.Router");
        assert_eq!(clean("r.Use(mw)"), "r.Use");
        assert!(looks_like_path("docs/guide.md"));
        assert!(looks_like_path("main.go"));
        assert!(!looks_like_path("mux.Router"));
        assert!(is_identifier("NewRouter") && !is_identifier("a-b") && !is_identifier(""));
    }
}

//! Nodes and structural edges of one file: the rows a file unit publishes besides its
//! resolution.
//!
//! Why it exists: the file's own rows must depend on nothing but that file, so that an edit
//! elsewhere never rewrites them; [`file_node`] depends on metadata only, [`file_graph`] on
//! the path and the facts only.

use crate::ids::{Id, file_id, symbol_id};
use codegraph_db::{SourceFile, file_facts};
use codegraph_parse::FileFacts;
use codegraph_parse::Language;
use codegraph_schema::{DiagnosticCode, NodeKind};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

pub use codegraph_schema::{Edge, Node};

/// What one file's symbols contribute to the graph (the file node is [`file_node`]). The rows
/// are shared (`Arc`), so the cold build hands them to its writer thread without copying.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FileGraph {
    /// Symbols in source order.
    pub nodes: Arc<[Node]>,
    pub edges: Arc<[Edge]>,
    /// Notes on the file: syntax errors.
    pub diagnostics: Vec<(DiagnosticCode, String)>,
}

/// The symbol IDs of a file, index-aligned with its facts' symbols. Equal lists of sibling
/// databases share one allocation ([`crate::shared`]).
#[salsa::tracked(returns(ref))]
pub fn symbol_ids(db: &dyn salsa::Database, file: SourceFile) -> Arc<Vec<Id>> {
    let path = file.path(db);
    let Some(language) = file.language(db) else {
        return crate::shared::share(path, Vec::new());
    };
    let facts = &file_facts(db, file);
    let mut seen: HashMap<&str, u32> = HashMap::new();
    let ids = facts
        .symbols
        .iter()
        .map(|s| {
            let n = seen.entry(s.qualified_name.as_str()).or_insert(0);
            *n += 1;
            symbol_id(language, path, &s.qualified_name, *n)
        })
        .collect();
    crate::shared::share(path, ids)
}

/// Each symbol's kind and name, index-aligned with its facts' symbols and without lines: what
/// another file's queries may read of a symbol they found (endpoint composition asks whether a
/// mount's target is a function or a router variable), so an edit that moves lines stops here.
#[salsa::tracked(returns(ref))]
pub(crate) fn symbol_heads(db: &dyn salsa::Database, file: SourceFile) -> Vec<(NodeKind, Id)> {
    if file.language(db).is_none() {
        return Vec::new();
    }
    file_facts(db, file).symbols.iter().map(|s| (s.kind, crate::ids::intern(&s.name))).collect()
}

/// Whether `file` is test code by its language's rule ([`codegraph_parse::is_test_file`]).
pub(crate) fn is_test(db: &dyn salsa::Database, file: SourceFile) -> bool {
    codegraph_parse::is_test_file(file.language(db), file.path(db))
}

/// The file node: path, language, size, lines, content hash. It depends on the file's metadata,
/// not on its text or facts, so it is the only row an edit that keeps the facts
/// equal (whitespace inside a line, a comment) changes.
#[salsa::tracked(returns(ref))]
pub fn file_node(db: &dyn salsa::Database, file: SourceFile) -> Node {
    let path = file.path(db);
    let meta = file.meta(db);
    let language = file.language(db);
    let lines = meta.lines;
    Node {
        id: file_id(path),
        kind: NodeKind::File,
        name: path.rsplit('/').next().unwrap_or(path).to_string(),
        qualified_name: path.clone(),
        file: Some(path.clone()),
        language: language.map(Language::as_str),
        start_line: Some(1),
        end_line: Some(lines.max(1)),
        signature: None,
        doc: None,
        exported: false,
        test: is_test(db, file),
        parent: language.and_then(|l| crate::languages::resolver(l).file_parent(path)),
        size: Some(meta.size),
        lines: Some(lines),
        hash: Some(meta.hash.clone()),
        props: None,
    }
}

/// Symbol and endpoint nodes, the endpoints' edges and syntax notes of one file: a function of
/// the path and the facts only (never of the text), so equal facts stop an edit here. Symbols
/// bring no edges: their DEFINES and parent edges are implied by their rows.
///
/// Its rows are shared by every salsa database of the process whose input at the same path
/// holds the same facts (the same `Arc`, which the server shares per blob): sibling worktrees
/// served by one process keep one copy of each unchanged file's rows ([`shared_rows`]).
///
/// Few values stay cached (`lru`): once the writer has the rows and [`crate::file_rows_digest`]
/// has hashed them, nothing reads them until the file changes, and a cold index of the Go
/// standard library kept ~100 MB of them alive through resolution. An evicted value keeps
/// its dependencies, so a later revision still validates it without rebuilding it.
#[salsa::tracked(returns(ref), lru = 256)]
pub fn file_graph(db: &dyn salsa::Database, file: SourceFile) -> FileGraph {
    let path = file.path(db);
    let language = file.language(db);
    let Some(language) = language else {
        return FileGraph::default();
    };
    let stored = codegraph_db::facts_of(db, file);
    let facts = &stored.get();
    // Stored facts are decoded when read and dropped when nobody holds them, so two roots
    // holding the same bytes may hold two copies of equal facts: their content hash names
    // both. (Read from the facts' memo, not the file's metadata, which every edit changes.)
    let content = match stored {
        codegraph_db::FactsRef::Lazy(lazy) => Some((lazy.hash(), language)),
        codegraph_db::FactsRef::Held(_) => None,
    };
    shared_rows(path, content, facts, || build_file_graph(db, file, language, facts))
}

/// One built version of a file's rows, held weakly (see [`shared_rows`]).
struct RowsEntry {
    /// The content hash and language of the bytes the facts came from, when known.
    content: Option<(String, Language)>,
    /// The facts otherwise.
    facts: Weak<FileFacts>,
    nodes: Weak<[Node]>,
    edges: Weak<[Edge]>,
    diagnostics: Vec<(DiagnosticCode, String)>,
}

impl RowsEntry {
    fn alive(&self) -> bool {
        (self.content.is_some() || self.facts.strong_count() > 0) && self.nodes.strong_count() > 0
    }
}

struct RowsTable {
    paths: HashMap<String, Vec<RowsEntry>>,
    entries: usize,
    sweep_at: usize,
}

fn rows_table() -> &'static Mutex<RowsTable> {
    static TABLE: OnceLock<Mutex<RowsTable>> = OnceLock::new();
    TABLE
        .get_or_init(|| Mutex::new(RowsTable { paths: HashMap::new(), entries: 0, sweep_at: 1024 }))
}

/// Rows already built for (`path`, `facts`) by any database of the process, else `make()`'s.
/// Facts are named by `content` (the content hash and language of the bytes they were
/// extracted from) when it is known, else by identity: such an entry holds the facts weakly,
/// so their allocation (and its address, the key) cannot be reused by other facts while the
/// entry exists. Rows live as long as some memo holds them.
///
/// A weak reference to a slice keeps the slice's allocation (every `Node` inline) until the
/// reference is dropped, so dead entries must go soon: a path's dead versions are dropped each
/// time a new version of it is built, and the whole table is swept whenever it has doubled
/// since the last sweep. (A table swept only at fixed sizes kept the rows of ~1,700 dead
/// versions of a growing file alive in a long `mcp` session: hundreds of MiB.)
fn shared_rows(
    path: &str,
    content: Option<(&str, Language)>,
    facts: &Arc<FileFacts>,
    make: impl FnOnce() -> FileGraph,
) -> FileGraph {
    let table = rows_table();
    let found = {
        let t = table.lock().unwrap_or_else(|e| e.into_inner());
        t.paths.get(path).and_then(|versions| {
            versions.iter().find_map(|e| {
                let same = match (&e.content, content) {
                    (Some((h, l)), Some((hash, language))) => h == hash && *l == language,
                    (None, None) => e.facts.upgrade().is_some_and(|f| Arc::ptr_eq(&f, facts)),
                    _ => false,
                };
                match (same, e.nodes.upgrade(), e.edges.upgrade()) {
                    (true, Some(nodes), Some(edges)) => {
                        Some(FileGraph { nodes, edges, diagnostics: e.diagnostics.clone() })
                    }
                    _ => None,
                }
            })
        })
    };
    if let Some(g) = found {
        return g;
    }
    let g = make();
    let mut t = table.lock().unwrap_or_else(|e| e.into_inner());
    let versions = t.paths.entry(path.to_string()).or_default();
    let before = versions.len();
    versions.retain(RowsEntry::alive);
    versions.push(RowsEntry {
        content: content.map(|(h, l)| (h.to_string(), l)),
        facts: Arc::downgrade(facts),
        nodes: Arc::downgrade(&g.nodes),
        edges: Arc::downgrade(&g.edges),
        diagnostics: g.diagnostics.clone(),
    });
    let after = versions.len();
    t.entries = t.entries + after - before;
    if t.entries >= t.sweep_at {
        t.paths.retain(|_, versions| {
            versions.retain(RowsEntry::alive);
            !versions.is_empty()
        });
        t.entries = t.paths.values().map(Vec::len).sum();
        t.sweep_at = (t.entries * 2).max(1024);
    }
    g
}

/// Drops the entries of rows no memo holds any more. A weak reference to a slice keeps the
/// slice's allocation, and the table is otherwise swept only when it doubles: a database
/// whose `file_graph` memos were just evicted (the cold build after its parse, a daemon after
/// a revision) calls this to give that memory back (~50 MB on the Go standard library).
pub fn release_unused_rows() {
    let mut t = rows_table().lock().unwrap_or_else(|e| e.into_inner());
    t.paths.retain(|_, versions| {
        versions.retain(RowsEntry::alive);
        !versions.is_empty()
    });
    t.entries = t.paths.values().map(Vec::len).sum();
}

fn build_file_graph(
    db: &dyn salsa::Database,
    file: SourceFile,
    language: Language,
    facts: &FileFacts,
) -> FileGraph {
    let path = file.path(db);
    let fid = file_id(path);
    let mut graph = FileGraph::default();
    let mut nodes = Vec::with_capacity(facts.symbols.len());
    let mut edges = Vec::new();
    if facts.syntax_errors > 0 {
        graph.diagnostics.push((
            DiagnosticCode::SyntaxErrors,
            format!("{} syntax error node(s); facts are partial", facts.syntax_errors),
        ));
    }
    if facts.repairs > 0 {
        graph.diagnostics.push((
            DiagnosticCode::ParseRepaired,
            format!(
                "{} repair(s) of constructs the TypeScript compiler accepts and the grammar rejects; facts from the repaired text (same lines and columns)",
                facts.repairs
            ),
        ));
    }
    if facts.template_parts > 0 {
        graph.diagnostics.push((
            DiagnosticCode::Templated,
            format!(
                "{} part(s) hold template expressions ({{{{ }}}}) and were left out; facts are partial",
                facts.template_parts
            ),
        ));
    }
    let ids = symbol_ids(db, file);
    let test = is_test(db, file);
    for (i, s) in facts.symbols.iter().enumerate() {
        let id = ids[i].clone();
        // The symbol's DEFINES edge and its parent edge are implied by this row (`file`,
        // `parent`, `kind`), not stored: see `codegraph_schema::ddl::EDGE_VIEW`.
        let parent_id =
            s.parent.and_then(|p| ids.get(p as usize)).map_or_else(|| fid.clone(), |p| p.clone());
        nodes.push(Node {
            id,
            kind: s.kind,
            name: s.name.clone(),
            qualified_name: s.qualified_name.clone(),
            file: Some(path.clone()),
            language: Some(language.as_str()),
            start_line: Some(s.start_line),
            end_line: Some(s.end_line),
            signature: (!s.signature.is_empty()).then(|| s.signature.clone()),
            doc: s.doc.clone(),
            exported: s.exported,
            test,
            parent: Some(parent_id),
            size: None,
            lines: None,
            hash: None,
            props: None,
        });
    }
    crate::endpoints::endpoint_rows(db, file, language, &mut nodes, &mut edges);
    graph.nodes = nodes.into();
    graph.edges = edges.into();
    graph
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two roots may hold two decoded copies of the same bytes' facts: the content hash
    /// names them, so they share one set of rows; other bytes get their own.
    #[test]
    fn rows_of_the_same_bytes_are_shared_across_copies_of_their_facts() {
        let path = "graph_test/same_bytes.go";
        let rows = || FileGraph {
            nodes: Arc::from(Vec::<Node>::with_capacity(3)),
            edges: Arc::from(Vec::<Edge>::new()),
            diagnostics: Vec::new(),
        };
        let (a, b) = (Arc::new(FileFacts::default()), Arc::new(FileFacts::default()));
        let g = shared_rows(path, Some(("h1", Language::Go)), &a, rows);
        drop(a);
        let again = shared_rows(path, Some(("h1", Language::Go)), &b, || panic!("built twice"));
        assert!(Arc::ptr_eq(&g.nodes, &again.nodes));
        let other = shared_rows(path, Some(("h2", Language::Go)), &b, rows);
        assert!(!Arc::ptr_eq(&g.nodes, &other.nodes));
        let unnamed = shared_rows(path, None, &b, rows);
        assert!(!Arc::ptr_eq(&g.nodes, &unnamed.nodes));
    }

    /// A long session rewrites one file over and over: the table keeps the live version
    /// and at most the one before it, never the rows of every dead version.
    #[test]
    fn dead_versions_of_a_file_are_not_kept() {
        let path = "graph_test/dead_versions.go";
        let rows = |n: usize| FileGraph {
            nodes: Arc::from(Vec::<Node>::with_capacity(n)),
            edges: Arc::from(Vec::<Edge>::new()),
            diagnostics: Vec::new(),
        };
        let mut held = Vec::new();
        for n in 0..200 {
            let facts = Arc::new(FileFacts::default());
            let g = shared_rows(path, None, &facts, || rows(n));
            let again = shared_rows(path, None, &facts, || panic!("built twice"));
            assert!(Arc::ptr_eq(&g.nodes, &again.nodes), "one copy while alive");
            // The memo of the previous version lives until the new one replaces it.
            held.push((facts, g, again));
            if held.len() > 1 {
                held.remove(0);
            }
            let kept = rows_table()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .paths
                .get(path)
                .map_or(0, Vec::len);
            assert!(kept <= 2, "version {n}: {kept} versions kept");
        }
    }
}

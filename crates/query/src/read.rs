//! Reading one consistent snapshot: a [`Reader`] holds one read transaction for its lifetime.

use crate::error::QueryError;
use crate::store::Store;
use crate::store::{SOURCE_COLUMNS, SourceRow, source_from_row};
use codegraph_schema::{EdgeKind, NodeKind};
use rusqlite::{OptionalExtension, Row, Transaction, params};
use std::path::PathBuf;

/// A node as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeRow {
    pub id: String,
    pub kind: NodeKind,
    pub name: String,
    pub qualified_name: String,
    pub file: Option<String>,
    pub language: Option<String>,
    pub start_line: Option<u32>,
    pub end_line: Option<u32>,
    pub signature: Option<String>,
    pub doc: Option<String>,
    pub exported: bool,
    /// The node lies in test code (its file's language's rule, stored at index time).
    pub test: bool,
    pub parent: Option<String>,
    pub size: Option<u64>,
    pub lines: Option<u32>,
    pub hash: Option<String>,
    /// Routes and tools: structured properties, [`codegraph_schema::EndpointProps`] as JSON.
    pub props: Option<String>,
}

/// An edge as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeRow {
    pub src: String,
    pub dst: String,
    pub kind: EdgeKind,
    pub weight: f64,
    pub reason: String,
    pub line: u32,
}

/// A node with its edges in both directions.
#[derive(Clone, Debug)]
pub struct OpenedNode {
    pub node: NodeRow,
    pub outgoing: Vec<EdgeRow>,
    pub incoming: Vec<EdgeRow>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SnapshotRow {
    pub revision: i64,
    pub root: String,
    pub head_commit: Option<String>,
    pub dirty_fingerprint: Option<String>,
    pub dirty_files: u64,
    pub indexer_version: String,
    pub schema_version: u32,
    pub created_at_ms: i64,
    pub duration_ms: i64,
    pub files: u64,
    pub symbols: u64,
    pub edges: u64,
    pub skipped: u64,
    pub unresolved: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagnosticRow {
    pub path: String,
    pub code: String,
    pub detail: String,
    pub skipped: bool,
}

/// What became of every indexed file (`codegraph index` / `status`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileAccounting {
    /// Files a provider parsed, by language.
    pub parsed: Vec<(String, u64)>,
    /// Files indexed as text only (no provider reads them), by extension.
    pub text_only: Vec<(String, u64)>,
    /// Files parsed with syntax errors (their facts come from what the parser recovered).
    pub syntax_errors: Vec<String>,
}

/// What `status` reports from the index alone (freshness against the worktree is the
/// server's job: it needs the file system and git).
#[derive(Clone, Debug)]
pub struct Status {
    pub snapshot: SnapshotRow,
    /// (node kind, count), sorted by kind.
    pub nodes_by_kind: Vec<(String, u64)>,
    /// (edge kind, count), sorted by kind.
    pub edges_by_kind: Vec<(String, u64)>,
    /// (diagnostic code, count), sorted by code.
    pub diagnostics_by_code: Vec<(String, u64)>,
    /// (file, unresolved call sites) for the files with the most, at most 10.
    pub unresolved_by_file: Vec<(String, u64)>,
}

/// One read transaction over the store: everything read through it comes from one revision.
pub struct Reader<'s> {
    pub(crate) tx: Transaction<'s>,
    pub(crate) path: PathBuf,
    revision: i64,
    /// The connection's graph-query guard (read-only stores).
    pub(crate) guard: Option<std::sync::Arc<crate::graph_query::QueryGuard>>,
}

/// How many columns [`NODE_COLUMNS`] selects: the index of a column a query appends to them.
pub(crate) const NODE_COLUMN_COUNT: usize = 17;

pub(crate) const NODE_COLUMNS: &str = "id, kind, name, qualified_name, file, language, start_line, \
     end_line, signature, doc, exported, parent, size, lines, hash, props, test";

// NODE_COLUMN_COUNT must follow NODE_COLUMNS (a column appended to them is read by index).
const _: () = {
    let (bytes, mut i, mut commas) = (NODE_COLUMNS.as_bytes(), 0, 0);
    while i < bytes.len() {
        if bytes[i] == b',' {
            commas += 1;
        }
        i += 1;
    }
    assert!(commas + 1 == NODE_COLUMN_COUNT);
};

/// Column `i` read as a vocabulary enum; a spelling this build does not know is a conversion
/// error naming it (an index written by another version), never a silent default.
pub(crate) fn vocab<T>(r: &Row<'_>, i: usize, parse: fn(&str) -> Option<T>) -> rusqlite::Result<T> {
    let text: String = r.get(i)?;
    parse(&text).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            i,
            rusqlite::types::Type::Text,
            format!("unknown kind `{text}` (an index written by another version?)").into(),
        )
    })
}

pub(crate) fn node_from_row(r: &Row<'_>) -> rusqlite::Result<NodeRow> {
    Ok(NodeRow {
        id: r.get(0)?,
        kind: vocab(r, 1, NodeKind::parse)?,
        name: r.get(2)?,
        qualified_name: r.get(3)?,
        file: r.get(4)?,
        language: r.get(5)?,
        start_line: r.get(6)?,
        end_line: r.get(7)?,
        signature: r.get(8)?,
        doc: r.get(9)?,
        exported: r.get(10)?,
        parent: r.get(11)?,
        size: r.get::<_, Option<i64>>(12)?.map(|s| s.max(0) as u64),
        lines: r.get(13)?,
        hash: r.get(14)?,
        props: r.get(15)?,
        test: r.get(16)?,
    })
}

/// Edges with their endpoint IDs, from the `edge` view (stored and implied edges).
const EDGE_SELECT: &str =
    "SELECT e.src_id, e.dst_id, e.kind, e.weight, e.reason, e.line FROM edge e";

fn edge_from_row(r: &Row<'_>) -> rusqlite::Result<EdgeRow> {
    Ok(EdgeRow {
        src: r.get(0)?,
        dst: r.get(1)?,
        kind: vocab(r, 2, EdgeKind::parse)?,
        weight: r.get(3)?,
        reason: r.get(4)?,
        line: r.get(5)?,
    })
}

impl Store {
    /// Starts a read transaction pinned to the current revision.
    pub fn reader(&mut self) -> Result<Reader<'_>, QueryError> {
        let path = self.path.clone();
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        if !self.conn.is_autocommit() {
            // A reader whose rollback was interrupted (a cancelled call) left its transaction
            // open: end it, or this connection could never read a newer revision.
            self.conn.execute_batch("ROLLBACK").map_err(err)?;
        }
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Deferred)
            .map_err(err)?;
        let revision: Option<i64> =
            tx.query_row("SELECT MAX(revision) FROM snapshot", [], |r| r.get(0)).map_err(err)?;
        let Some(revision) = revision else {
            return Err(QueryError::NoRevision { path });
        };
        Ok(Reader { tx, path, revision, guard: self.guard.clone() })
    }
}

impl Reader<'_> {
    pub(crate) fn err(&self) -> impl Fn(rusqlite::Error) -> QueryError + '_ {
        |source| QueryError::Sqlite { path: self.path.clone(), source }
    }

    /// The revision this reader sees.
    pub fn revision(&self) -> i64 {
        self.revision
    }

    /// The scanner's size limit the current revision was built with.
    pub fn max_file_size(&self) -> Result<Option<u64>, QueryError> {
        let v: Option<String> = self
            .tx
            .query_row("SELECT value FROM meta WHERE key = 'max_file_size'", [], |r| r.get(0))
            .optional()
            .map_err(|source| QueryError::Sqlite { path: self.path.clone(), source })?;
        Ok(v.and_then(|v| v.parse().ok()))
    }

    /// A key of the index's own metadata (`seeded_from`...), if recorded.
    pub fn meta(&self, key: &str) -> Result<Option<String>, QueryError> {
        self.tx
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(|source| QueryError::Sqlite { path: self.path.clone(), source })
    }

    /// Path, size, mtime, hash and language of every indexed file (no facts).
    pub fn source_stats(&self) -> Result<Vec<SourceRow>, QueryError> {
        let err = |source| QueryError::Sqlite { path: self.path.clone(), source };
        let sql = format!("SELECT {SOURCE_COLUMNS} FROM source");
        let mut stmt = self.tx.prepare(&sql).map_err(err)?;
        let rows = stmt.query_map([], |r| source_from_row(r, false)).map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    pub fn snapshot(&self) -> Result<SnapshotRow, QueryError> {
        self.tx
            .query_row(
                "SELECT revision, root, head_commit, dirty_fingerprint, dirty_files, indexer_version, \
                 schema_version, created_at_ms, duration_ms, files, symbols, edges, skipped, unresolved \
                 FROM snapshot WHERE revision = ?1",
                [self.revision],
                |r| {
                    Ok(SnapshotRow {
                        revision: r.get(0)?,
                        root: r.get(1)?,
                        head_commit: r.get(2)?,
                        dirty_fingerprint: r.get(3)?,
                        dirty_files: r.get::<_, i64>(4)?.max(0) as u64,
                        indexer_version: r.get(5)?,
                        schema_version: r.get(6)?,
                        created_at_ms: r.get(7)?,
                        duration_ms: r.get(8)?,
                        files: r.get::<_, i64>(9)?.max(0) as u64,
                        symbols: r.get::<_, i64>(10)?.max(0) as u64,
                        edges: r.get::<_, i64>(11)?.max(0) as u64,
                        skipped: r.get::<_, i64>(12)?.max(0) as u64,
                        unresolved: r.get::<_, i64>(13)?.max(0) as u64,
                    })
                },
            )
            .map_err(self.err())
    }

    /// Streams the rows of `sql`, mapped by `map`, to `f` (nothing is collected).
    pub(crate) fn each_row<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        map: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
        mut f: impl FnMut(T),
    ) -> Result<(), QueryError> {
        let mut stmt = self.tx.prepare_cached(sql).map_err(self.err())?;
        let rows = stmt.query_map(params, map).map_err(self.err())?;
        for r in rows {
            f(r.map_err(self.err())?);
        }
        Ok(())
    }

    /// The rows of `sql`, mapped by `map`.
    pub(crate) fn rows<T>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
        map: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>, QueryError> {
        let mut out = Vec::new();
        self.each_row(sql, params, map, |row| out.push(row))?;
        Ok(out)
    }

    fn counts(&self, sql: &str) -> Result<Vec<(String, u64)>, QueryError> {
        self.rows(sql, [], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?.max(0) as u64)))
    }

    pub fn status(&self) -> Result<Status, QueryError> {
        Ok(Status {
            snapshot: self.snapshot()?,
            nodes_by_kind: self
                .counts("SELECT kind, COUNT(*) FROM node GROUP BY kind ORDER BY kind")?,
            edges_by_kind: self
                .counts(&codegraph_schema::ddl::edge_counts_sql())?,
            diagnostics_by_code: self
                .counts("SELECT code, COUNT(*) FROM diagnostic GROUP BY code ORDER BY code")?,
            unresolved_by_file: self.counts(
                "SELECT file, COUNT(*) AS n FROM unresolved GROUP BY file ORDER BY n DESC, file LIMIT 10",
            )?,
        })
    }

    /// Every indexed file accounted for: files a provider parsed, by language, and text-only
    /// files, by extension (`(no extension)` for none), each sorted by count, then name.
    pub fn file_accounting(&self) -> Result<FileAccounting, QueryError> {
        let files: Vec<(Option<String>, String)> = self.rows(
            "SELECT language, file FROM node WHERE kind = ?1 AND file IS NOT NULL",
            [NodeKind::File.as_str()],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let mut parsed: std::collections::BTreeMap<String, u64> = Default::default();
        let mut text: std::collections::BTreeMap<String, u64> = Default::default();
        for (language, path) in files {
            match language {
                Some(l) => *parsed.entry(l).or_default() += 1,
                None => {
                    let name = path.rsplit('/').next().unwrap_or(&path);
                    let ext = match name.rsplit_once('.') {
                        Some((stem, ext)) if !stem.is_empty() => format!(".{ext}"),
                        _ => "(no extension)".to_string(),
                    };
                    *text.entry(ext).or_default() += 1;
                }
            }
        }
        let sorted = |m: std::collections::BTreeMap<String, u64>| {
            let mut v: Vec<(String, u64)> = m.into_iter().collect();
            v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            v
        };
        let syntax_errors = self.rows(
            "SELECT path FROM diagnostic WHERE code = 'syntax-errors' ORDER BY path",
            [],
            |r| r.get(0),
        )?;
        Ok(FileAccounting { parsed: sorted(parsed), text_only: sorted(text), syntax_errors })
    }

    /// Diagnostics, optionally only skips, sorted by path.
    pub fn diagnostics(
        &self,
        skipped_only: bool,
        limit: usize,
    ) -> Result<Vec<DiagnosticRow>, QueryError> {
        self.rows(
            "SELECT path, code, detail, skipped FROM diagnostic WHERE skipped >= ?1 \
             ORDER BY path, code LIMIT ?2",
            params![i64::from(skipped_only), limit as i64],
            |r| {
                Ok(DiagnosticRow {
                    path: r.get(0)?,
                    code: r.get(1)?,
                    detail: r.get(2)?,
                    skipped: r.get(3)?,
                })
            },
        )
    }

    /// A node by ID, or `None`.
    pub fn node(&self, id: &str) -> Result<Option<NodeRow>, QueryError> {
        self.tx
            .query_row(
                &format!("SELECT {NODE_COLUMNS} FROM node WHERE id = ?1"),
                [id],
                node_from_row,
            )
            .optional()
            .map_err(self.err())
    }

    /// A node and its edges; an unknown ID is [`QueryError::UnknownId`] with near matches.
    pub fn open(&self, id: &str) -> Result<OpenedNode, QueryError> {
        let Some(node) = self.node(id)? else {
            return Err(QueryError::UnknownId {
                id: id.to_string(),
                suggestions: self.suggest(id)?,
            });
        };
        let edges = |sql: &str| self.rows(sql, [id], edge_from_row);
        Ok(OpenedNode {
            outgoing: edges(&format!(
                "{EDGE_SELECT} WHERE e.src = (SELECT nid FROM node WHERE id = ?1) ORDER BY e.kind, e.dst_id, e.line"
            ))?,
            incoming: edges(&format!(
                "{EDGE_SELECT} WHERE e.dst = (SELECT nid FROM node WHERE id = ?1) ORDER BY e.kind, e.src_id, e.line"
            ))?,
            node,
        })
    }

    /// Up to 5 IDs that look like `id`: same prefix first, then name matches of its last part.
    pub fn suggest(&self, id: &str) -> Result<Vec<String>, QueryError> {
        let mut out: Vec<String> = Vec::new();
        let push_all = |sql: &str, arg: &str, out: &mut Vec<String>| -> Result<(), QueryError> {
            let mut stmt = self.tx.prepare(sql).map_err(self.err())?;
            let rows = stmt.query_map([arg], |r| r.get::<_, String>(0)).map_err(self.err())?;
            for r in rows {
                let r = r.map_err(self.err())?;
                if out.len() < 5 && !out.contains(&r) {
                    out.push(r);
                }
            }
            Ok(())
        };
        // Longest existing prefix: drop trailing segments until something matches.
        let mut prefix = id;
        while out.is_empty() && prefix.len() > 4 {
            let escaped = prefix.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
            push_all(
                "SELECT id FROM node WHERE id LIKE ?1 || '%' ESCAPE '\\' ORDER BY length(id), id LIMIT 5",
                &escaped,
                &mut out,
            )?;
            match prefix.rfind([':', '.', '/']) {
                Some(pos) => prefix = &prefix[..pos],
                None => break,
            }
        }
        let last = id.rsplit([':', '.', '/']).next().unwrap_or(id);
        if out.len() < 5 && !last.is_empty() {
            push_all("SELECT id FROM node WHERE name = ?1 ORDER BY id LIMIT 5", last, &mut out)?;
        }
        Ok(out)
    }

    /// Unresolved call sites whose caller is `caller` (a symbol or file ID), by line.
    pub fn unresolved_of(&self, caller: &str) -> Result<Vec<(u32, String)>, QueryError> {
        self.rows(
            "SELECT line, callee FROM unresolved WHERE caller = ?1 ORDER BY line, callee",
            [caller],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    }

    /// Calls `f` for every unresolved call site as (file, line, caller, callee), in order.
    pub fn for_each_unresolved(
        &self,
        mut f: impl FnMut(String, u32, String, String),
    ) -> Result<(), QueryError> {
        self.each_row(
            "SELECT file, line, caller, callee FROM unresolved ORDER BY file, line, callee",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            |(file, line, caller, callee)| f(file, line, caller, callee),
        )
    }

    /// Calls `f` for every node in ID order.
    pub fn for_each_node(&self, f: impl FnMut(NodeRow)) -> Result<(), QueryError> {
        self.each_row(&format!("SELECT {NODE_COLUMNS} FROM node ORDER BY id"), [], node_from_row, f)
    }

    /// Calls `f` for every edge in (src, kind, dst, line) order.
    pub fn for_each_edge(&self, f: impl FnMut(EdgeRow)) -> Result<(), QueryError> {
        self.each_row(
            &format!("{EDGE_SELECT} ORDER BY e.src_id, e.kind, e.dst_id, e.line"),
            [],
            edge_from_row,
            f,
        )
    }

    /// Calls `f` for every edge in storage order: for whole-graph consumers that put edges
    /// in their own order anyway (sorting every edge in SQLite would be wasted work).
    pub fn for_each_edge_unordered(&self, f: impl FnMut(EdgeRow)) -> Result<(), QueryError> {
        self.each_row(EDGE_SELECT, [], edge_from_row, f)
    }
}

/// The innermost symbol around a line of a file ([`Reader::enclosing_symbols`]), and how much
/// depends on it once [`Reader::count_dependents`] filled it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enclosing {
    pub id: String,
    pub kind: NodeKind,
    pub start_line: u32,
    pub end_line: u32,
    /// Distinct callers (CALLS sources).
    pub callers: u64,
    /// Distinct sources of any stored edge into it (callers, readers, importers, subtypes,
    /// tests, routes it handles...).
    pub dependents: u64,
    /// Its row number, for the counts.
    nid: i64,
}

impl Reader<'_> {
    /// For each of `lines` (1-based) of `file`, the innermost symbol whose lines hold it (none
    /// for lines outside every symbol), in the order given; counts are 0 until
    /// [`Reader::count_dependents`].
    pub fn enclosing_symbols(
        &self,
        file: &str,
        lines: &[u32],
    ) -> Result<Vec<Option<Enclosing>>, QueryError> {
        let err = self.err();
        let (Some(&first), Some(&last)) = (lines.iter().min(), lines.iter().max()) else {
            return Ok(Vec::new());
        };
        // Only symbols that can hold one of the lines (a range of `node_by_file`).
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT nid, id, kind, start_line, end_line FROM node \
                 WHERE file = ?1 AND start_line <= ?2 AND end_line >= ?3 AND kind != ?4",
            )
            .map_err(&err)?;
        let symbols: Vec<(i64, String, String, u32, u32)> = stmt
            .query_map(params![file, last, first, NodeKind::File.as_str()], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .map_err(&err)?
            .collect::<Result<_, _>>()
            .map_err(&err)?;
        Ok(lines
            .iter()
            .map(|&line| {
                // Innermost: the shortest span that holds the line (the later start on a tie).
                let (nid, id, kind, start, end) = symbols
                    .iter()
                    .filter(|s| s.3 <= line && line <= s.4)
                    .min_by_key(|s| (s.4 - s.3, std::cmp::Reverse(s.3)))?;
                Some(Enclosing {
                    id: id.clone(),
                    kind: NodeKind::parse(kind)?,
                    start_line: *start,
                    end_line: *end,
                    callers: 0,
                    dependents: 0,
                    nid: *nid,
                })
            })
            .collect())
    }

    /// The symbols of `file` named `name` (a rename's collisions).
    pub fn symbols_named_in(&self, file: &str, name: &str) -> Result<Vec<NodeRow>, QueryError> {
        let sql = format!(
            "SELECT {NODE_COLUMNS} FROM node WHERE file = ?1 AND name = ?2 AND kind NOT IN (?3, ?4) ORDER BY id"
        );
        // A test block's name is its title: no declared name can collide with it.
        let kinds = (NodeKind::File.as_str(), NodeKind::Test.as_str());
        self.rows(&sql, params![file, name, kinds.0, kinds.1], node_from_row)
    }

    /// Every symbol of the revision named exactly `name` (no files, no test blocks), by ID.
    pub fn symbols_named(&self, name: &str) -> Result<Vec<NodeRow>, QueryError> {
        let sql = format!(
            "SELECT {NODE_COLUMNS} FROM node WHERE name = ?1 AND kind NOT IN (?2, ?3) ORDER BY id"
        );
        let kinds = (NodeKind::File.as_str(), NodeKind::Test.as_str());
        self.rows(&sql, params![name, kinds.0, kinds.1], node_from_row)
    }

    /// Symbols (files and test blocks excepted) whose name starts with `prefix`, by ID.
    pub fn symbols_named_with_prefix(&self, prefix: &str) -> Result<Vec<NodeRow>, QueryError> {
        let sql = format!(
            "SELECT {NODE_COLUMNS} FROM node WHERE name >= ?1 AND name < ?2 AND kind NOT IN (?3, ?4) ORDER BY id"
        );
        // Every name with the prefix sorts below the prefix followed by the largest character.
        let upper = format!("{prefix}\u{10ffff}");
        let kinds = (NodeKind::File.as_str(), NodeKind::Test.as_str());
        self.rows(&sql, params![prefix, upper, kinds.0, kinds.1], node_from_row)
    }

    /// Fills in how many distinct callers, and distinct sources of any stored edge, lead into
    /// the symbol.
    pub fn count_dependents(&self, e: &mut Enclosing) -> Result<(), QueryError> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT COUNT(DISTINCT CASE WHEN kind = ?2 THEN src END), COUNT(DISTINCT src) \
                 FROM stored_edge WHERE dst = ?1",
            )
            .map_err(self.err())?;
        let (callers, dependents) = stmt
            .query_row(params![e.nid, EdgeKind::Calls.as_str()], |r| {
                Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64))
            })
            .map_err(self.err())?;
        e.callers = callers;
        e.dependents = dependents;
        Ok(())
    }
}

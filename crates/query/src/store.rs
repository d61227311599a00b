//! Opening the index database and publishing a revision in one transaction.
//!
//! The database is derived data: when its schema version differs from this build's, it is
//! dropped and recreated rather than migrated.

use crate::error::QueryError;
use crate::terms::split_identifiers;
use codegraph_resolve::{Edge, Node};
use codegraph_schema::DiagnosticCode;
use codegraph_schema::ddl::{self, SCHEMA_VERSION};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A handle on one index database.
pub struct Store {
    pub(crate) conn: Connection,
    pub(crate) path: PathBuf,
}

/// What the snapshot row records besides the counts (which [`Store::publish`] computes).
#[derive(Clone, Debug, Default)]
pub struct SnapshotInfo {
    pub root: String,
    pub head_commit: Option<String>,
    pub dirty_fingerprint: Option<String>,
    pub dirty_files: u64,
    pub indexer_version: String,
    pub created_at_ms: i64,
    pub duration_ms: i64,
}

/// A scanner skip or a note on an indexed file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    pub path: String,
    pub code: DiagnosticCode,
    pub detail: String,
}

impl Store {
    /// Opens (creating if needed) the database for writing.
    pub fn open(path: &Path) -> Result<Store, QueryError> {
        let err = |source| QueryError::Sqlite { path: path.to_path_buf(), source };
        let conn = Connection::open(path).map_err(err)?;
        let store = Store { conn, path: path.to_path_buf() };
        store.configure_writer().map_err(err)?;
        Ok(store)
    }

    fn configure_writer(&self) -> rusqlite::Result<()> {
        self.conn.busy_timeout(Duration::from_secs(10))?;
        self.conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        self.conn.pragma_update(None, "temp_store", "MEMORY")?;
        self.conn.pragma_update(None, "cache_size", -65536)?;
        let version: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'schema_version'", [], |r| r.get(0))
            .optional()
            .or_else(|e| match e {
                // A fresh database has no meta table yet.
                rusqlite::Error::SqliteFailure(_, Some(ref m)) if m.contains("no such table") => {
                    Ok(None)
                }
                e => Err(e),
            })?;
        if version.is_some_and(|v| v != SCHEMA_VERSION.to_string()) {
            self.drop_all()?;
        }
        self.conn.execute_batch(&ddl::ddl())?;
        self.conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?1)",
            [SCHEMA_VERSION.to_string()],
        )?;
        Ok(())
    }

    fn drop_all(&self) -> rusqlite::Result<()> {
        let tables: Vec<String> = {
            let mut stmt = self.conn.prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
                 AND name NOT LIKE '%fts_%'",
            )?;
            stmt.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?
        };
        for t in tables {
            self.conn.execute_batch(&format!("DROP TABLE IF EXISTS \"{t}\""))?;
        }
        Ok(())
    }

    /// Opens an existing database read-only; a missing file is [`QueryError::NoIndex`].
    pub fn open_read_only(path: &Path) -> Result<Store, QueryError> {
        if !path.exists() {
            return Err(QueryError::NoIndex { path: path.to_path_buf() });
        }
        let err = |source| QueryError::Sqlite { path: path.to_path_buf(), source };
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(err)?;
        conn.busy_timeout(Duration::from_secs(10)).map_err(err)?;
        let version: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'schema_version'", [], |r| r.get(0))
            .optional()
            .map_err(|_| QueryError::NoRevision { path: path.to_path_buf() })?;
        let found = version.and_then(|v| v.parse::<u32>().ok()).unwrap_or(0);
        if found != SCHEMA_VERSION {
            return Err(QueryError::SchemaMismatch {
                path: path.to_path_buf(),
                found,
                expected: SCHEMA_VERSION,
            });
        }
        Ok(Store { conn, path: path.to_path_buf() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Replaces the graph with `nodes`/`edges`/`diagnostics` and records a new revision, all in
    /// one transaction: readers see the previous revision until it commits. Rows are written in
    /// a canonical order, so the same input always gives the same rows. Returns the revision.
    pub fn publish(
        &mut self,
        info: &SnapshotInfo,
        nodes: &[&Node],
        edges: &[&Edge],
        diagnostics: &[Diagnostic],
    ) -> Result<i64, QueryError> {
        let path = self.path.clone();
        self.publish_inner(info, nodes, edges, diagnostics)
            .map_err(|source| QueryError::Sqlite { path, source })
    }

    fn publish_inner(
        &mut self,
        info: &SnapshotInfo,
        nodes: &[&Node],
        edges: &[&Edge],
        diagnostics: &[Diagnostic],
    ) -> rusqlite::Result<i64> {
        let mut nodes = nodes.to_vec();
        nodes.sort_by(|a, b| a.id.cmp(&b.id));
        nodes.dedup_by(|a, b| a.id == b.id);
        let mut edges = edges.to_vec();
        edges.sort_by(|a, b| {
            (&a.src, a.kind, &a.dst, a.line).cmp(&(&b.src, b.kind, &b.dst, b.line))
        });
        edges.dedup_by(|a, b| (&a.src, a.kind, &a.dst, a.line) == (&b.src, b.kind, &b.dst, b.line));
        let mut diagnostics = diagnostics.to_vec();
        diagnostics.sort();
        diagnostics.dedup_by(|a, b| a.path == b.path && a.code == b.code);

        let t = std::time::Instant::now();
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Bulk load: drop the secondary indexes, replace the rows, rebuild the indexes once.
        tx.execute_batch(&ddl::drop_graph_indexes())?;
        tx.execute_batch(
            "DELETE FROM node; DELETE FROM edge; DELETE FROM diagnostic; DELETE FROM node_fts;",
        )?;
        tracing::debug!(ms = t.elapsed().as_millis() as u64, "publish: cleared");
        let mut symbols = 0i64;
        // Node IDs -> nid. nids follow ID order, so edge rows sorted by ID are sorted by nid.
        let mut nids: HashMap<&str, i64> = HashMap::with_capacity(nodes.len());
        {
            let mut ins = tx.prepare(
                "INSERT INTO node (nid, id, kind, name, qualified_name, file, language, start_line, \
                 end_line, signature, doc, exported, parent, size, lines, hash) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            )?;
            let mut fts = tx.prepare(
                "INSERT INTO node_fts (rowid, name, qualified_name, signature, doc, path, terms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for (i, n) in nodes.iter().enumerate() {
                let nid = i as i64 + 1;
                nids.insert(n.id.as_str(), nid);
                if n.kind.category() == codegraph_schema::NodeCategory::Symbol {
                    symbols += 1;
                }
                ins.execute(params![
                    nid,
                    n.id,
                    n.kind.as_str(),
                    n.name,
                    n.qualified_name,
                    n.file,
                    n.language,
                    n.start_line,
                    n.end_line,
                    n.signature,
                    n.doc,
                    n.exported,
                    n.parent,
                    n.size.map(|s| s as i64),
                    n.lines,
                    n.hash,
                ])?;
                let mut terms = split_identifiers(&n.qualified_name);
                if let Some(f) = &n.file {
                    terms.push(' ');
                    terms.push_str(&split_identifiers(f));
                }
                fts.execute(params![
                    nid,
                    n.name,
                    n.qualified_name,
                    n.signature,
                    n.doc,
                    n.file,
                    terms
                ])?;
            }
            tracing::debug!(ms = t.elapsed().as_millis() as u64, "publish: nodes + fts");
            let mut ins = tx.prepare(
                "INSERT INTO edge (src, dst, kind, weight, reason, line) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            let mut dangling = 0usize;
            for e in &edges {
                let (Some(src), Some(dst)) = (nids.get(e.src.as_str()), nids.get(e.dst.as_str()))
                else {
                    dangling += 1;
                    continue;
                };
                ins.execute(params![
                    src,
                    dst,
                    e.kind.as_str(),
                    e.weight(),
                    e.reason.as_str(),
                    e.line
                ])?;
            }
            if dangling > 0 {
                tracing::warn!(
                    dangling,
                    "publish: edges whose endpoint is not a node were dropped"
                );
            }
            let mut ins = tx.prepare(
                "INSERT INTO diagnostic (path, code, detail, skipped) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for d in &diagnostics {
                ins.execute(params![d.path, d.code.as_str(), d.detail, d.code.is_skip()])?;
            }
        }
        tracing::debug!(ms = t.elapsed().as_millis() as u64, "publish: edges");
        tx.execute_batch(&ddl::create_graph_indexes())?;
        tracing::debug!(ms = t.elapsed().as_millis() as u64, "publish: indexes");
        let edge_count: i64 = tx.query_row("SELECT COUNT(*) FROM edge", [], |r| r.get(0))?;
        let files = nodes.iter().filter(|n| n.kind == codegraph_schema::NodeKind::File).count();
        let skipped = diagnostics.iter().filter(|d| d.code.is_skip()).count();
        let revision: i64 =
            tx.query_row("SELECT COALESCE(MAX(revision), 0) + 1 FROM snapshot", [], |r| r.get(0))?;
        tx.execute(
            "INSERT INTO snapshot (revision, root, head_commit, dirty_fingerprint, dirty_files, \
             indexer_version, schema_version, created_at_ms, duration_ms, files, symbols, edges, skipped) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            params![
                revision,
                info.root,
                info.head_commit,
                info.dirty_fingerprint,
                info.dirty_files as i64,
                info.indexer_version,
                SCHEMA_VERSION,
                info.created_at_ms,
                info.duration_ms,
                files as i64,
                symbols,
                edge_count,
                skipped as i64,
            ],
        )?;
        tx.commit()?;
        tracing::debug!(ms = t.elapsed().as_millis() as u64, "publish: committed");
        Ok(revision)
    }
}

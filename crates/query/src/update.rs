//! Incremental revisions: rewrite only the units (files, node units) whose rows changed, in one
//! transaction, keeping every surviving node's row number.
//!
//! A unit owns its nodes (a file unit: every node whose `file` is its path; a node unit: its one
//! node, a package or a concept) and the stored edges it produced (`stored_edge.owner`); the edges its symbol
//! rows imply come and go with the rows. Replacing a unit deletes its stored edges,
//! upserts its nodes under their old `nid` (edges of other units keep pointing at them),
//! deletes the nodes it no longer has, and inserts its new edges. Edges of unchanged units
//! never point at a deleted node: a unit's rows are a function of what it can see, so a unit
//! that referred to a vanished node has changed too and is replaced in the same revision.
//!
//! Readers (WAL) see the previous revision until [`Update::commit`]; dropping an update
//! without committing leaves it untouched.

use crate::error::QueryError;
use crate::read::{NODE_COLUMN_COUNT, NODE_COLUMNS, NodeRow, node_from_row};
use crate::store::{
    INSERT_EDGE, INSERT_FTS, SOURCE_COLUMNS, SnapshotInfo, SourceRow, Store, UPSERT_NODE,
    UPSERT_SOURCE, UPSERT_UNIT, implied_edges, insert_edge, source_from_row, upsert_source,
    write_node, write_node_row,
};
use crate::{Diagnostic, store};
use codegraph_schema::NodeCategory;
use codegraph_schema::{Edge, Node, UnresolvedSite};
use rusqlite::{OptionalExtension, params};
use std::collections::HashMap;
use std::path::PathBuf;

/// Which rows a unit owns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind<'a> {
    /// A file: its file node (`file:PATH`), every node whose `file` is `PATH`, its unresolved
    /// call sites and its diagnostics.
    File(&'a str),
    /// A node without a file (a Go package): that node only.
    Node,
}

/// The complete rows of one unit after a change.
#[derive(Debug)]
pub struct UnitRows<'a> {
    /// The owner node's ID (`file:PATH`, `pkg:go:DIR`).
    pub id: &'a str,
    pub kind: UnitKind<'a>,
    /// Every node of the unit, the owner among them.
    pub nodes: Vec<&'a Node>,
    pub edges: Vec<&'a Edge>,
    /// File units: the call sites that resolved to nothing.
    pub unresolved: &'a [UnresolvedSite],
    /// File units: notes on the file (lossy UTF-8, syntax errors).
    pub diagnostics: Vec<Diagnostic>,
    pub digest: u64,
}

/// Page cache (KiB, as `PRAGMA cache_size` takes it: negative) while the whole `source` table is
/// read once.
const SCAN_CACHE: i64 = -1024;

/// What the store remembers of the last revision, for the next incremental one.
#[derive(Debug, Default)]
pub struct PersistedState {
    /// The current revision, if any.
    pub revision: Option<i64>,
    /// Indexer version that wrote the current revision.
    pub indexer_version: Option<String>,
    /// Unit ID -> digest of its rows.
    pub units: HashMap<String, u64>,
    /// Every indexed file with its encoded facts.
    pub sources: Vec<SourceRow>,
    /// Skipped paths with their reasons.
    pub skips: Vec<Diagnostic>,
}

impl Store {
    /// Reads what the next incremental revision needs: unit digests, sources with their facts,
    /// skips, the current revision and the version that wrote it.
    pub fn persisted_state(&self) -> Result<PersistedState, QueryError> {
        let err = |source| QueryError::Sqlite { path: self.path.clone(), source };
        let (revision, indexer_version) = self
            .conn
            .query_row(
                "SELECT revision, indexer_version FROM snapshot ORDER BY revision DESC LIMIT 1",
                [],
                |r| Ok((Some(r.get::<_, i64>(0)?), Some(r.get::<_, String>(1)?))),
            )
            .optional()
            .map_err(err)?
            .unwrap_or((None, None));
        let units = self.unit_digests()?;
        let mut state = PersistedState { revision, indexer_version, units, ..Default::default() };
        // One pass over the whole table gains nothing from the page cache, and pages cached
        // here would stay in a long-lived process (the allocator keeps what SQLite frees):
        // read it with a small cache, then give the connection its cache back.
        let cache: i64 = self.conn.query_row("PRAGMA cache_size", [], |r| r.get(0)).map_err(err)?;
        self.conn.pragma_update(None, "cache_size", SCAN_CACHE).map_err(err)?;
        let sources = self.read_sources(&mut state);
        self.conn.pragma_update(None, "cache_size", cache).map_err(err)?;
        sources?;
        let mut stmt = self
            .conn
            .prepare("SELECT path, code, detail FROM diagnostic WHERE skipped = 1 ORDER BY path")
            .map_err(err)?;
        let rows = stmt
            .query_map([], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?))
            })
            .map_err(err)?;
        for row in rows {
            let (path, code, detail) = row.map_err(err)?;
            if let Some(code) = codegraph_schema::DiagnosticCode::parse(&code) {
                state.skips.push(Diagnostic { path, code, detail });
            }
        }
        Ok(state)
    }

    /// Every `source` row, in path order, into `state`.
    fn read_sources(&self, state: &mut PersistedState) -> Result<(), QueryError> {
        let err = |source| QueryError::Sqlite { path: self.path.clone(), source };
        let sql = format!("SELECT {SOURCE_COLUMNS}, facts FROM source ORDER BY path");
        let mut stmt = self.conn.prepare(&sql).map_err(err)?;
        let rows = stmt.query_map([], |r| source_from_row(r, true)).map_err(err)?;
        for row in rows {
            state.sources.push(row.map_err(err)?);
        }
        Ok(())
    }

    /// The newest published revision, if any.
    pub fn latest_revision(&self) -> Result<Option<i64>, QueryError> {
        self.conn
            .query_row("SELECT MAX(revision) FROM snapshot", [], |r| r.get::<_, Option<i64>>(0))
            .map_err(|source| QueryError::Sqlite { path: self.path.clone(), source })
    }

    /// Unit ID -> digest of its rows, as stored.
    pub fn unit_digests(&self) -> Result<HashMap<String, u64>, QueryError> {
        let err = |source| QueryError::Sqlite { path: self.path.clone(), source };
        let mut stmt = self.conn.prepare("SELECT id, digest FROM unit").map_err(err)?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64)))
            .map_err(err)?;
        let mut units = HashMap::new();
        for row in rows {
            let (id, digest) = row.map_err(err)?;
            units.insert(id, digest);
        }
        Ok(units)
    }

    /// Records new modification times of files whose content did not change, without a new
    /// revision (the graph is the same).
    pub fn touch_sources(&mut self, touched: &[(String, i64)]) -> Result<(), QueryError> {
        let err = |source| QueryError::Sqlite { path: self.path.clone(), source };
        let tx = self.conn.transaction().map_err(err)?;
        {
            let mut stmt = tx
                .prepare_cached("UPDATE source SET mtime_ns = ?2 WHERE path = ?1")
                .map_err(err)?;
            for (path, mtime) in touched {
                stmt.execute(params![path, mtime]).map_err(err)?;
            }
        }
        tx.commit().map_err(err)
    }

    /// Starts an incremental revision on top of the current one.
    pub fn begin_update(&mut self) -> Result<Update<'_>, QueryError> {
        let path = self.path.clone();
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        let tx = self.begin_immediate()?;
        let next_nid: i64 = tx
            .query_row("SELECT COALESCE(MAX(nid), 0) + 1 FROM node", [], |r| r.get(0))
            .map_err(err)?;
        let counts = tx
            .query_row(
                "SELECT files, symbols, edges, skipped, unresolved FROM snapshot \
                 ORDER BY revision DESC LIMIT 1",
                [],
                |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?]),
            )
            .optional()
            .map_err(err)?
            .unwrap_or([0; 5]);
        Ok(Update {
            tx,
            path,
            next_nid,
            counts,
            pending: Vec::new(),
            changed_units: 0,
            nid_cache: HashMap::new(),
        })
    }
}

/// An incremental revision being written. See the module docs.
pub struct Update<'s> {
    tx: rusqlite::Transaction<'s>,
    path: PathBuf,
    next_nid: i64,
    /// files, symbols, edges, skipped, unresolved: the previous revision's counts plus deltas.
    counts: [i64; 5],
    /// Edges whose endpoint is a node inserted later in this update, with their owner's nid.
    pending: Vec<(Edge, i64)>,
    changed_units: usize,
    /// Node ID -> row number of nodes looked up by edges of this update (a target many units
    /// call, `fmt.Sprintf`, is looked up once); an entry goes when its node is deleted.
    nid_cache: HashMap<String, i64>,
}

/// A stored edge's key: (src, kind, dst, line).
type EdgeKey = (i64, String, i64, i64);

const FILES: usize = 0;
const SYMBOLS: usize = 1;
const EDGES: usize = 2;
const SKIPPED: usize = 3;
const UNRESOLVED: usize = 4;

impl Update<'_> {
    fn err(&self) -> impl Fn(rusqlite::Error) -> QueryError + '_ {
        |source| QueryError::Sqlite { path: self.path.clone(), source }
    }

    /// Units replaced or removed so far.
    pub fn changed_units(&self) -> usize {
        self.changed_units
    }

    fn count_node(&mut self, kind: &str, delta: i64) {
        if let Some(k) = codegraph_schema::NodeKind::parse(kind) {
            match k.category() {
                NodeCategory::Symbol => self.counts[SYMBOLS] += delta,
                NodeCategory::File => self.counts[FILES] += delta,
                _ => {}
            }
        }
    }

    /// The unit's current nodes: ID -> (nid, row).
    fn unit_nodes(
        &self,
        id: &str,
        kind: UnitKind<'_>,
    ) -> Result<HashMap<String, (i64, NodeRow)>, QueryError> {
        let (filter, key) = match kind {
            UnitKind::File(path) => ("file", path),
            UnitKind::Node => ("id", id),
        };
        let sql = format!("SELECT {NODE_COLUMNS}, nid FROM node WHERE {filter} = ?1");
        let mut stmt = self.tx.prepare_cached(&sql).map_err(self.err())?;
        let rows = stmt
            .query_map([key], |r| {
                let row = node_from_row(r)?;
                Ok((row.id.clone(), (r.get(NODE_COLUMN_COUNT)?, row)))
            })
            .map_err(self.err())?;
        rows.collect::<Result<_, _>>().map_err(self.err())
    }

    /// Deletes the edges the unit owns (`owner_nid`, when its owner node has a row), its
    /// unresolved sites and diagnostics.
    fn clear_owned(
        &mut self,
        owner_nid: Option<i64>,
        kind: UnitKind<'_>,
    ) -> Result<(), QueryError> {
        if let Some(owner) = owner_nid {
            let n = self
                .tx
                .prepare_cached("DELETE FROM stored_edge WHERE owner = ?1")
                .and_then(|mut s| s.execute([owner]))
                .map_err(self.err())?;
            self.counts[EDGES] -= n as i64;
        }
        if let UnitKind::File(path) = kind {
            let n = self
                .tx
                .prepare_cached("DELETE FROM unresolved WHERE file = ?1")
                .and_then(|mut s| s.execute([path]))
                .map_err(self.err())?;
            self.counts[UNRESOLVED] -= n as i64;
            self.replace_diagnostics(path, &[])?;
        }
        Ok(())
    }

    /// The edges an existing row implies (see `codegraph_schema::ddl::EDGE_VIEW`).
    fn implied_edges_of_row(row: &NodeRow) -> i64 {
        codegraph_schema::ddl::implied_edges(row.kind, row.file.is_some(), row.parent.is_some())
    }

    fn delete_node(&mut self, nid: i64, row: &NodeRow) -> Result<(), QueryError> {
        self.nid_cache.remove(&row.id);
        let kind = row.kind.as_str();
        self.counts[EDGES] -= Self::implied_edges_of_row(row);
        self.tx
            .prepare_cached("DELETE FROM node WHERE nid = ?1")
            .and_then(|mut s| s.execute([nid]))
            .and_then(|_| self.tx.prepare_cached("DELETE FROM node_fts WHERE rowid = ?1"))
            .and_then(|mut s| s.execute([nid]))
            .map_err(self.err())?;
        self.count_node(kind, -1);
        Ok(())
    }

    /// Replaces every row of a unit with `rows`, keeping the `nid` of nodes that stay.
    pub fn replace_unit(&mut self, rows: &UnitRows<'_>) -> Result<(), QueryError> {
        self.changed_units += 1;
        let t0 = std::time::Instant::now();
        let mut old = self.unit_nodes(rows.id, rows.kind)?;
        let owner_nid = old.get(rows.id).map(|(nid, _)| *nid);
        // The unit's edges and unresolved sites are compared with the new ones below, not
        // deleted wholesale; its diagnostics are replaced there too.
        // Upsert the new nodes, reusing row numbers.
        let mut nids: HashMap<&str, i64> = HashMap::with_capacity(rows.nodes.len());
        let mut added: Vec<&str> = Vec::new();
        {
            let mut ins = self.tx.prepare_cached(UPSERT_NODE).map_err(self.err())?;
            let mut fts = self.tx.prepare_cached(INSERT_FTS).map_err(self.err())?;
            let mut fts_del = self
                .tx
                .prepare_cached("DELETE FROM node_fts WHERE rowid = ?1")
                .map_err(self.err())?;
            let path = &self.path;
            let err = |source| QueryError::Sqlite { path: path.clone(), source };
            for n in &rows.nodes {
                if nids.contains_key(&*n.id) {
                    tracing::warn!(id = %n.id, "update: duplicate node ID ignored");
                    continue;
                }
                let nid = match old.remove(&*n.id) {
                    // Most nodes of an edited file only move (lines) or stay as they are:
                    // rewrite the row only when it changed, the full-text row only when its
                    // text did.
                    Some((nid, row)) => {
                        self.counts[EDGES] += implied_edges(n) - Self::implied_edges_of_row(&row);
                        if !same_text(&row, n) {
                            fts_del.execute([nid]).map_err(err)?;
                            write_node(&mut ins, &mut fts, nid, n).map_err(err)?;
                        } else if !same_row(&row, n) {
                            write_node_row(&mut ins, nid, n).map_err(err)?;
                        }
                        nid
                    }
                    None => {
                        self.counts[EDGES] += implied_edges(n);
                        self.next_nid += 1;
                        added.push(n.kind.as_str());
                        write_node(&mut ins, &mut fts, self.next_nid - 1, n).map_err(err)?;
                        self.next_nid - 1
                    }
                };
                nids.insert(&*n.id, nid);
            }
        }
        for kind in added {
            self.count_node(kind, 1);
        }
        let t_nodes = t0.elapsed();
        // Nodes the unit no longer has.
        for (_, (nid, row)) in old {
            self.delete_node(nid, &row)?;
        }
        let owner = nids.get(rows.id).copied().or(owner_nid);
        let Some(owner) = owner else {
            tracing::warn!(unit = rows.id, "update: unit without its owner node; edges dropped");
            return Ok(());
        };
        let old_edges = match owner_nid {
            Some(o) if o == owner => self.owned_edges(owner)?,
            Some(o) => {
                // The owner's row was replaced: nothing of its old edges can be kept.
                self.clear_edges(o)?;
                HashMap::new()
            }
            None => HashMap::new(),
        };
        self.replace_edges(&rows.edges, owner, &nids, old_edges)?;
        let t_edges = t0.elapsed();
        if let UnitKind::File(path) = rows.kind {
            self.replace_unresolved(path, rows.unresolved)?;
            self.replace_diagnostics(path, &rows.diagnostics)?;
        }
        self.tx
            .prepare_cached(UPSERT_UNIT)
            .and_then(|mut s| s.execute(params![rows.id, rows.digest as i64]))
            .map_err(self.err())?;
        tracing::debug!(
            unit = rows.id,
            nodes = rows.nodes.len(),
            edges = rows.edges.len(),
            nodes_done = ?t_nodes,
            edges_done = ?t_edges,
            total = ?t0.elapsed(),
            "replace_unit"
        );
        Ok(())
    }

    fn nid_of(&mut self, id: &str) -> Result<Option<i64>, QueryError> {
        if let Some(&nid) = self.nid_cache.get(id) {
            return Ok(Some(nid));
        }
        let nid: Option<i64> = self
            .tx
            .prepare_cached("SELECT nid FROM node WHERE id = ?1")
            .and_then(|mut s| s.query_row([id], |r| r.get(0)).optional())
            .map_err(self.err())?;
        if let Some(nid) = nid {
            self.nid_cache.insert(id.to_string(), nid);
        }
        Ok(nid)
    }

    /// Runs the statement `sql` once per parameter row; returns the rows it changed.
    fn execute_each<P: rusqlite::Params>(
        &self,
        sql: &str,
        rows: impl IntoIterator<Item = P>,
    ) -> Result<usize, QueryError> {
        let mut stmt = self.tx.prepare_cached(sql).map_err(self.err())?;
        let mut changed = 0;
        for row in rows {
            changed += stmt.execute(row).map_err(self.err())?;
        }
        Ok(changed)
    }

    /// The edges `owner` owns now: (src, kind, dst, line) -> (weight, reason).
    fn owned_edges(&self, owner: i64) -> Result<HashMap<EdgeKey, (f64, String)>, QueryError> {
        let mut stmt = self
            .tx
            .prepare_cached(
                "SELECT src, kind, dst, line, weight, reason FROM stored_edge WHERE owner = ?1",
            )
            .map_err(self.err())?;
        let rows = stmt
            .query_map([owner], |r| {
                Ok(((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?), (r.get(4)?, r.get(5)?)))
            })
            .map_err(self.err())?;
        rows.collect::<Result<_, _>>().map_err(self.err())
    }

    fn clear_edges(&mut self, owner: i64) -> Result<(), QueryError> {
        let n = self
            .tx
            .prepare_cached("DELETE FROM stored_edge WHERE owner = ?1")
            .and_then(|mut s| s.execute([owner]))
            .map_err(self.err())?;
        self.counts[EDGES] -= n as i64;
        Ok(())
    }

    /// Makes `owner`'s edges `edges`: the rows of `old` (what it owned) that are not among
    /// them are deleted, the new ones inserted, the rest left alone. A re-derived unit mostly
    /// keeps its edges (a function added to a file, a line moved in another function), and
    /// each row written costs its key and two indexes: a 2,000-file branch switch rewrote
    /// every edge of every file before.
    fn replace_edges(
        &mut self,
        edges: &[&Edge],
        owner: i64,
        local: &HashMap<&str, i64>,
        mut old: HashMap<EdgeKey, (f64, String)>,
    ) -> Result<(), QueryError> {
        let mut seen: std::collections::HashSet<EdgeKey> =
            std::collections::HashSet::with_capacity(edges.len());
        let mut insert: Vec<(&Edge, i64, i64)> = Vec::new();
        for e in edges {
            let src = match local.get(&*e.src) {
                Some(&n) => Some(n),
                None => self.nid_of(&e.src)?,
            };
            let dst = match local.get(&*e.dst) {
                Some(&n) => Some(n),
                None => self.nid_of(&e.dst)?,
            };
            let (Some(src), Some(dst)) = (src, dst) else {
                self.pending.push(((*e).clone(), owner));
                continue;
            };
            let key: EdgeKey = (src, e.kind.as_str().to_string(), dst, i64::from(e.line));
            if !seen.insert(key.clone()) {
                continue; // A repeated key: the first one stands, as INSERT OR IGNORE has it.
            }
            match old.get(&key) {
                Some((w, r)) if *w == e.weight() && r == e.reason.as_str() => {
                    old.remove(&key);
                }
                _ => insert.push((e, src, dst)),
            }
        }
        let deleted = self.execute_each(
            "DELETE FROM stored_edge WHERE src = ?1 AND kind = ?2 AND dst = ?3 AND line = ?4 AND owner = ?5",
            old.keys().map(|(src, kind, dst, line)| (src, kind, dst, line, owner)),
        )?;
        self.counts[EDGES] -= deleted as i64;
        let mut ins = self.tx.prepare_cached(INSERT_EDGE).map_err(self.err())?;
        let mut inserted = 0;
        for (e, src, dst) in insert {
            inserted += insert_edge(&mut ins, e, src, dst, owner)
                .map_err(|source| QueryError::Sqlite { path: self.path.clone(), source })?;
        }
        drop(ins);
        self.counts[EDGES] += inserted as i64;
        Ok(())
    }

    /// Makes `path`'s unresolved call sites `sites`: like [`Self::replace_edges`], only the
    /// rows lost or gained are written (a site is keyed by line and callee; its caller moves
    /// with it).
    fn replace_unresolved(
        &mut self,
        path: &str,
        sites: &[codegraph_schema::UnresolvedSite],
    ) -> Result<(), QueryError> {
        let mut old: HashMap<(i64, String), String> = {
            let mut stmt = self
                .tx
                .prepare_cached("SELECT line, callee, caller FROM unresolved WHERE file = ?1")
                .map_err(self.err())?;
            let rows = stmt
                .query_map([path], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))
                .map_err(self.err())?;
            rows.collect::<Result<_, _>>().map_err(self.err())?
        };
        let mut seen: std::collections::HashSet<(i64, &str)> = std::collections::HashSet::new();
        let mut insert = Vec::new();
        for u in sites {
            let key = (i64::from(u.line), u.callee.as_str());
            if !seen.insert(key) {
                continue; // A repeated key: the first one stands, as INSERT OR IGNORE has it.
            }
            let owned = (key.0, key.1.to_string());
            match old.get(&owned) {
                Some(caller) if *caller == *u.caller => {
                    old.remove(&owned);
                }
                _ => insert.push(u),
            }
        }
        let removed = self.execute_each(
            "DELETE FROM unresolved WHERE file = ?1 AND line = ?2 AND callee = ?3",
            old.keys().map(|(line, callee)| (path, line, callee)),
        )?;
        let added = self.execute_each(
            "INSERT OR IGNORE INTO unresolved (file, line, caller, callee) VALUES (?1, ?2, ?3, ?4)",
            insert.iter().map(|u| (path, u.line, &*u.caller, &u.callee)),
        )?;
        self.counts[UNRESOLVED] += added as i64 - removed as i64;
        Ok(())
    }

    /// Removes a unit that no longer exists (a deleted file, an emptied package).
    pub fn remove_unit(&mut self, id: &str, kind: UnitKind<'_>) -> Result<(), QueryError> {
        self.changed_units += 1;
        let old = self.unit_nodes(id, kind)?;
        let owner_nid = old.get(id).map(|(nid, _)| *nid);
        self.clear_owned(owner_nid, kind)?;
        for (_, (nid, row)) in old {
            self.delete_node(nid, &row)?;
        }
        self.tx
            .prepare_cached("DELETE FROM unit WHERE id = ?1")
            .and_then(|mut s| s.execute([id]))
            .map_err(self.err())?;
        Ok(())
    }

    /// Replaces the diagnostics of one path (skips or notes).
    pub fn replace_diagnostics(
        &mut self,
        path: &str,
        diagnostics: &[Diagnostic],
    ) -> Result<(), QueryError> {
        let removed: i64 = self
            .tx
            .prepare_cached("SELECT COUNT(*) FROM diagnostic WHERE path = ?1 AND skipped = 1")
            .and_then(|mut s| s.query_row([path], |r| r.get(0)))
            .map_err(self.err())?;
        self.tx
            .prepare_cached("DELETE FROM diagnostic WHERE path = ?1")
            .and_then(|mut s| s.execute([path]))
            .map_err(self.err())?;
        self.counts[SKIPPED] -= removed;
        let mut ins = self
            .tx
            .prepare_cached(
                "INSERT OR REPLACE INTO diagnostic (path, code, detail, skipped) VALUES (?1, ?2, ?3, ?4)",
            )
            .map_err(self.err())?;
        let mut added = 0;
        for d in diagnostics {
            ins.execute(params![d.path, d.code.as_str(), d.detail, d.code.is_skip()])
                .map_err(|source| QueryError::Sqlite { path: self.path.clone(), source })?;
            added += i64::from(d.code.is_skip());
        }
        drop(ins);
        self.counts[SKIPPED] += added;
        Ok(())
    }

    /// Records (or replaces) what the scanner saw of a file.
    pub fn upsert_source(&mut self, source: &SourceRow) -> Result<(), QueryError> {
        let mut ins = self.tx.prepare_cached(UPSERT_SOURCE).map_err(self.err())?;
        upsert_source(&mut ins, source)
            .map_err(|source| QueryError::Sqlite { path: self.path.clone(), source })?;
        Ok(())
    }

    /// Records a new modification time for a file whose content did not change.
    pub fn touch_source(&mut self, path: &str, mtime_ns: i64) -> Result<(), QueryError> {
        self.tx
            .prepare_cached("UPDATE source SET mtime_ns = ?2 WHERE path = ?1")
            .and_then(|mut s| s.execute(params![path, mtime_ns]))
            .map_err(self.err())?;
        Ok(())
    }

    pub fn remove_source(&mut self, path: &str) -> Result<(), QueryError> {
        self.tx
            .prepare_cached("DELETE FROM source WHERE path = ?1")
            .and_then(|mut s| s.execute([path]))
            .map_err(self.err())?;
        Ok(())
    }

    /// Inserts the pending edges, records the snapshot row and commits. Returns the revision.
    pub fn commit(mut self, info: &SnapshotInfo) -> Result<i64, QueryError> {
        let pending = std::mem::take(&mut self.pending);
        let mut dangling = 0;
        for (e, owner) in &pending {
            match (self.nid_of(&e.src)?, self.nid_of(&e.dst)?) {
                (Some(src), Some(dst)) => {
                    let mut ins = self.tx.prepare_cached(INSERT_EDGE).map_err(self.err())?;
                    let n = insert_edge(&mut ins, e, src, dst, *owner)
                        .map_err(|source| QueryError::Sqlite { path: self.path.clone(), source })?;
                    drop(ins);
                    self.counts[EDGES] += n as i64;
                }
                _ => dangling += 1,
            }
        }
        if dangling > 0 {
            tracing::warn!(dangling, "update: edges to unknown nodes were dropped");
        }
        let Update { tx, path, counts, .. } = self;
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        let revision = store::insert_snapshot(&tx, info, counts).map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(revision)
    }
}

/// Do the stored row and the new node have the same full-text columns?
fn same_text(row: &NodeRow, n: &Node) -> bool {
    row.name == n.name
        && row.qualified_name == n.qualified_name
        && row.signature == n.signature
        && row.doc == n.doc
        && row.file == n.file
}

/// Is the stored row exactly the new node?
fn same_row(row: &NodeRow, n: &Node) -> bool {
    same_text(row, n)
        && *row.id == *n.id
        && row.kind == n.kind
        && row.language.as_deref() == n.language
        && row.start_line == n.start_line
        && row.end_line == n.end_line
        && row.exported == n.exported
        && row.test == n.test
        && row.parent.as_deref() == n.parent.as_deref()
        && row.size == n.size
        && row.lines == n.lines
        && row.hash == n.hash
        && row.props == n.props
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_the_state_leaves_the_connections_cache_as_it_was() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("index.db")).expect("open");
        store.set_cache_kib(8 * 1024).expect("cache");
        let cache = |s: &Store| -> i64 {
            s.conn.query_row("PRAGMA cache_size", [], |r| r.get(0)).expect("pragma")
        };
        assert_eq!(cache(&store), -8 * 1024);
        store
            .conn
            .execute(
                "INSERT INTO source (path, size, mtime_ns, hash, lossy_utf8, lines, facts, language) \
                 VALUES ('a.go', 3, 7, 'h', 0, 1, x'0102', 'go')",
                [],
            )
            .expect("row");
        let state = store.persisted_state().expect("state");
        assert_eq!(state.sources.len(), 1);
        assert_eq!(state.sources[0].facts.as_deref(), Some(&[1u8, 2][..]));
        assert_eq!(cache(&store), -8 * 1024);
    }
}

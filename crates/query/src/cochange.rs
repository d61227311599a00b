//! Storage of the co-change edges (CO_CHANGED, opt-in): file -> file pairs mined from git
//! history by the engine, written beside the graph and stamped with the revision, HEAD and
//! commit range they come from.
//!
//! They live in `stored_edge` with owner 0 (no unit owns them), so every edge reader (context,
//! expand, DAG grep, trace, export) sees them; unit rewrites never touch them, and the engine
//! replaces the whole set when HEAD moves or the indexed files change. `line` holds the pair's
//! support (commits that changed both files) and `weight` its confidence.

use crate::{QueryError, Reader, Store};
use codegraph_schema::{EdgeKind, Reason, ids};
use rusqlite::{OptionalExtension, params};

/// The meta key of the co-change settings (`{"commits": N}`; absent: not enabled).
pub const COCHANGE_SETTINGS: &str = "cochange_settings";
/// The meta key of the stamp of the stored co-change edges (JSON, see the engine).
pub const COCHANGE_STAMP: &str = "cochange_stamp";

/// One directed co-change edge: `src` usually changes with `dst`.
#[derive(Clone, Debug, PartialEq)]
pub struct CoChangeRow {
    /// Root-relative paths.
    pub src: String,
    pub dst: String,
    /// Commits that changed both.
    pub support: u32,
    /// support / commits that changed `src`.
    pub confidence: f64,
}

impl Store {
    /// Replaces every CO_CHANGED edge with `rows` and records `stamp`, in one transaction.
    /// Pairs naming a file the graph does not hold are left out. Returns how many were stored.
    pub fn write_cochange(
        &mut self,
        rows: &[CoChangeRow],
        stamp: &str,
    ) -> Result<usize, QueryError> {
        let path = self.path.clone();
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        let tx = self.begin_immediate()?;
        tx.execute("DELETE FROM stored_edge WHERE kind = ?1", [EdgeKind::CoChanged.as_str()])
            .map_err(err)?;
        let mut stored = 0;
        {
            let mut nid = tx.prepare("SELECT nid FROM node WHERE id = ?1").map_err(err)?;
            let mut insert = tx
                .prepare(
                    "INSERT OR REPLACE INTO stored_edge (src, dst, kind, weight, reason, line, owner) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0)",
                )
                .map_err(err)?;
            for r in rows {
                let find = |nid: &mut rusqlite::Statement<'_>, p: &str| {
                    nid.query_row([ids::file(p)], |row| row.get::<_, i64>(0)).optional()
                };
                let (Some(s), Some(d)) =
                    (find(&mut nid, &r.src).map_err(err)?, find(&mut nid, &r.dst).map_err(err)?)
                else {
                    continue;
                };
                insert
                    .execute(params![
                        s,
                        d,
                        EdgeKind::CoChanged.as_str(),
                        r.confidence,
                        Reason::CoChange.as_str(),
                        i64::from(r.support)
                    ])
                    .map_err(err)?;
                stored += 1;
            }
        }
        tx.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
            [COCHANGE_STAMP, stamp],
        )
        .map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(stored)
    }

    /// Drops every CO_CHANGED edge and the stamp (co-change turned off).
    pub fn clear_cochange(&mut self) -> Result<(), QueryError> {
        let path = self.path.clone();
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        let tx = self.begin_immediate()?;
        tx.execute("DELETE FROM stored_edge WHERE kind = ?1", [EdgeKind::CoChanged.as_str()])
            .map_err(err)?;
        tx.execute("DELETE FROM meta WHERE key IN (?1, ?2)", [COCHANGE_STAMP, COCHANGE_SETTINGS])
            .map_err(err)?;
        tx.commit().map_err(err)
    }
}

impl Reader<'_> {
    /// The files that usually change with `path` (most confident first), and how many there are.
    pub fn cochanged(
        &self,
        path: &str,
        limit: usize,
    ) -> Result<(Vec<CoChangeRow>, usize), QueryError> {
        let err = |source| QueryError::Sqlite { path: self.path.clone(), source };
        let mut stmt = self
            .tx
            .prepare(
                "SELECT d.id, e.line, e.weight FROM stored_edge e \
                 JOIN node s ON s.nid = e.src JOIN node d ON d.nid = e.dst \
                 WHERE e.kind = ?1 AND s.id = ?2 ORDER BY e.weight DESC, e.line DESC, d.id",
            )
            .map_err(err)?;
        let rows = stmt
            .query_map(params![EdgeKind::CoChanged.as_str(), ids::file(path)], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, f64>(2)?))
            })
            .map_err(err)?;
        let mut out = Vec::new();
        let mut total = 0;
        for row in rows {
            let (id, support, confidence) = row.map_err(err)?;
            total += 1;
            if out.len() < limit {
                out.push(CoChangeRow {
                    src: path.to_string(),
                    dst: ids::file_path(&id).unwrap_or(&id).to_string(),
                    support: u32::try_from(support).unwrap_or(0),
                    confidence,
                });
            }
        }
        Ok((out, total))
    }
}

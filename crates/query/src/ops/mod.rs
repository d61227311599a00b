//! The graph operations that answer questions about code (symbol context, impact, changed-code
//! impact, trace, expand, DAG grep), shared by the CLI and the MCP server, and the lookup that
//! turns a user's target text into one node ([`lookup`], with near matches from [`near`]).
//!
//! Each operation is a method on [`Reader`], so it reads one revision inside one read
//! transaction, and each result carries that `revision`, a `stale` slot that the caller (who can
//! see the file system) fills, and `notes`: honest statements of what the answer may be missing
//! (unresolved call sites, budget cuts, kinds of nodes codegraph does not detect yet).
//!
//! Traversals work on node row numbers (`nid`) and fetch neighbours with one indexed query per
//! expanded node (`edge` is keyed by `src`, `edge_by_dst` serves the other direction); node rows
//! are read once per request and cached in [`Graph`].

pub mod changed;
pub mod context;
pub mod dag_grep;
pub mod endpoints;
pub mod expand;
pub mod impact;
pub mod lookup;
pub mod near;
pub mod render;
pub mod trace;

use crate::error::QueryError;
use crate::read::{EdgeRow, NODE_COLUMNS, NodeRow, Reader, node_from_row};
use codegraph_schema::{EdgeKind, NodeKind};
use rusqlite::OptionalExtension;
use std::collections::HashMap;

/// Which way edges are followed from a node: along their stored direction (`Out`: the node is
/// the source) or against it (`In`: the node is the target). Stored edges never change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Out,
    In,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Out => "out",
            Direction::In => "in",
        }
    }

    pub fn parse(text: &str) -> Option<Direction> {
        match text {
            "out" => Some(Direction::Out),
            "in" => Some(Direction::In),
            _ => None,
        }
    }
}

/// One edge as followed from a node: the stored edge and the row number of the node at the
/// other end.
#[derive(Clone, Debug)]
pub(crate) struct Hop {
    pub other: i64,
    pub edge: EdgeRow,
}

/// The directory part of a root-relative path (`""` for the root).
pub fn dir_of(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// `kind IN ('A', 'B')` for edge kinds (their spellings are fixed identifiers, never input).
fn kind_filter(kinds: &[EdgeKind]) -> String {
    if kinds.is_empty() {
        return "1".to_string();
    }
    let list: Vec<String> = kinds.iter().map(|k| format!("'{}'", k.as_str())).collect();
    format!("e.kind IN ({})", list.join(", "))
}

/// A per-request view of the snapshot: node rows cached by row number, neighbour queries.
/// Flows and clusters (derived tables, no row numbers) get negative row numbers for the
/// request, so walks can step through ENTRY_POINT_OF / STEP_IN_PROCESS / MEMBER_OF.
pub(crate) struct Graph<'a, 'r> {
    pub reader: &'a Reader<'r>,
    nodes: HashMap<i64, NodeRow>,
    derived: std::cell::RefCell<Derived>,
}

/// Flows and clusters seen by one request: ID -> negative row number, and their rows.
#[derive(Default)]
struct Derived {
    nids: HashMap<String, i64>,
    rows: HashMap<i64, NodeRow>,
}

impl<'a, 'r> Graph<'a, 'r> {
    pub fn new(reader: &'a Reader<'r>) -> Self {
        Graph { reader, nodes: HashMap::new(), derived: Default::default() }
    }

    /// The row number of a node ID (a negative one for a flow or a cluster).
    pub fn nid(&self, id: &str) -> Result<Option<i64>, QueryError> {
        let stored = self
            .reader
            .tx
            .prepare_cached("SELECT nid FROM node WHERE id = ?1")
            .and_then(|mut s| s.query_row([id], |r| r.get(0)).optional())
            .map_err(self.reader.err())?;
        if stored.is_some() {
            return Ok(stored);
        }
        if let Some(&nid) = self.derived.borrow().nids.get(id) {
            return Ok(Some(nid));
        }
        let Some(row) = self.reader.derived_node(id)? else { return Ok(None) };
        let mut d = self.derived.borrow_mut();
        let nid = -(d.nids.len() as i64) - 1;
        d.nids.insert(id.to_string(), nid);
        d.rows.insert(nid, row);
        Ok(Some(nid))
    }

    /// The node row of a row number (cached).
    pub fn node(&mut self, nid: i64) -> Result<&NodeRow, QueryError> {
        if nid < 0 && !self.nodes.contains_key(&nid) {
            let row = self.derived.borrow().rows.get(&nid).cloned();
            let row = row.ok_or_else(|| QueryError::UnknownId {
                id: format!("derived node {nid}"),
                suggestions: Vec::new(),
            })?;
            self.nodes.insert(nid, row);
        }
        if !self.nodes.contains_key(&nid) {
            let row = self
                .reader
                .tx
                .prepare_cached(&format!("SELECT {NODE_COLUMNS} FROM node WHERE nid = ?1"))
                .and_then(|mut s| s.query_row([nid], node_from_row))
                .map_err(self.reader.err())?;
            self.nodes.insert(nid, row);
        }
        Ok(&self.nodes[&nid])
    }

    /// Edges of `kinds` (all kinds when empty) at `nid` in `dir`, strongest first, then by the
    /// other end's ID, kind and line; at most `cap`.
    pub fn hops(
        &self,
        nid: i64,
        dir: Direction,
        kinds: &[EdgeKind],
        cap: usize,
    ) -> Result<Vec<Hop>, QueryError> {
        let mut hops = if nid < 0 { Vec::new() } else { self.stored_hops(nid, dir, kinds, cap)? };
        // Derived edges: at a flow or cluster any of them (or those asked); at another node
        // only when asked by kind (a default walk stays on the code graph).
        let derived: Vec<EdgeKind> = crate::derived::DERIVED_EDGE_KINDS
            .iter()
            .copied()
            .filter(|k| kinds.contains(k) || (nid < 0 && kinds.is_empty()))
            .collect();
        if !derived.is_empty() && hops.len() < cap {
            let id = self.derived.borrow().rows.get(&nid).map(|row| row.id.clone());
            let id = match id {
                Some(id) => id,
                None => self
                    .reader
                    .tx
                    .prepare_cached("SELECT id FROM node WHERE nid = ?1")
                    .and_then(|mut s| s.query_row([nid], |r| r.get::<_, String>(0)))
                    .map_err(self.reader.err())?,
            };
            for edge in self.reader.derived_edges(&id, dir == Direction::Out, &derived)? {
                let other_id = if dir == Direction::Out { &edge.dst } else { &edge.src };
                let Some(other) = self.nid(other_id)? else { continue };
                hops.push(Hop { other, edge });
                if hops.len() >= cap {
                    break;
                }
            }
        }
        Ok(hops)
    }

    /// The stored (and implied) edges of [`Graph::hops`].
    fn stored_hops(
        &self,
        nid: i64,
        dir: Direction,
        kinds: &[EdgeKind],
        cap: usize,
    ) -> Result<Vec<Hop>, QueryError> {
        let source = codegraph_schema::ddl::edge_source(kinds);
        let [src_id, dst_id] = source.id_columns();
        let (this, other, other_id) = match dir {
            Direction::Out => ("src", "dst", dst_id),
            Direction::In => ("dst", "src", src_id),
        };
        let sql = format!(
            "SELECT {src_id}, {dst_id}, e.kind, e.weight, e.reason, e.line, e.{other} FROM {from} \
             WHERE e.{this} = ?1 AND {filter} \
             ORDER BY e.weight DESC, {other_id}, e.kind, e.line LIMIT ?2",
            from = source.from_clause(),
            filter = kind_filter(kinds),
        );
        let cap = i64::try_from(cap).unwrap_or(i64::MAX);
        let mut stmt = self.reader.tx.prepare_cached(&sql).map_err(self.reader.err())?;
        let rows = stmt
            .query_map(rusqlite::params![nid, cap], |r| {
                Ok(Hop {
                    edge: EdgeRow {
                        src: r.get(0)?,
                        dst: r.get(1)?,
                        kind: crate::read::vocab(r, 2, EdgeKind::parse)?,
                        weight: r.get(3)?,
                        reason: r.get(4)?,
                        line: r.get(5)?,
                    },
                    other: r.get(6)?,
                })
            })
            .map_err(self.reader.err())?;
        rows.collect::<Result<_, _>>().map_err(self.reader.err())
    }

    /// The row numbers of the symbols declared in the file at `path` (not the file itself).
    pub fn symbols_of_file(&self, path: &str) -> Result<Vec<i64>, QueryError> {
        let sql = format!(
            "SELECT nid FROM node WHERE file = ?1 AND kind NOT IN ('{}', '{}') ORDER BY nid",
            NodeKind::File.as_str(),
            NodeKind::Package.as_str()
        );
        self.reader.rows(&sql, [path], |r| r.get(0))
    }

    /// Unresolved call sites that name `name` as their callee (`name` or `x.name`): calls that
    /// may reach a symbol of that name but that resolution could not tie to it.
    pub fn unresolved_naming(&self, name: &str) -> Result<u64, QueryError> {
        if name.is_empty() {
            return Ok(0);
        }
        self.reader
            .tx
            .prepare_cached(
                "SELECT COUNT(*) FROM unresolved \
                 WHERE callee = ?1 OR substr(callee, -length(?1) - 1) = '.' || ?1",
            )
            .and_then(|mut s| s.query_row([name], |r| r.get::<_, i64>(0)))
            .map(|n| n.max(0) as u64)
            .map_err(self.reader.err())
    }

    /// Unresolved call sites inside `caller` (a symbol or file ID).
    pub fn unresolved_inside(&self, caller: &str) -> Result<u64, QueryError> {
        self.reader
            .tx
            .prepare_cached("SELECT COUNT(*) FROM unresolved WHERE caller = ?1")
            .and_then(|mut s| s.query_row([caller], |r| r.get::<_, i64>(0)))
            .map(|n| n.max(0) as u64)
            .map_err(self.reader.err())
    }
}

/// Parses edge kind spellings; an unknown one is [`QueryError::UnknownEdgeKind`].
pub fn parse_edge_kinds(names: &[String]) -> Result<Vec<EdgeKind>, QueryError> {
    names
        .iter()
        .map(|n| {
            EdgeKind::parse(&n.to_ascii_uppercase())
                .ok_or_else(|| QueryError::UnknownEdgeKind { kind: n.clone() })
        })
        .collect()
}

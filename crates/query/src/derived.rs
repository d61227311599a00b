//! Stored whole-graph derivations: execution flows (processes) and clusters.
//!
//! They are computed from one revision's whole graph (by `codegraph-derive`, driven by the
//! server), off the edit path, so they can lag the current revision. They are therefore kept
//! beside the graph rather than in it: their own tables, replaced as a whole in one
//! transaction, stamped with the revision they were computed from (`derivation`), and referring
//! to nodes by ID (a flow that lags never points at a reused row). Every read returns the stamp
//! with the rows, so an answer can say how current its flows are.
//!
//! In the model they are `process` and `cluster` nodes with ENTRY_POINT_OF, STEP_IN_PROCESS
//! (with the step number) and MEMBER_OF edges; [`Reader::for_each_derived_edge`] gives them in
//! that shape for exports.

use crate::error::QueryError;
use crate::read::{EdgeRow, NodeRow, Reader};
use crate::store::Store;
use codegraph_schema::{EdgeKind, NodeCategory, NodeKind, ids};
use rusqlite::{OptionalExtension, params};

/// The name of the flows-and-clusters row in `derivation`.
const FLOWS_CLUSTERS: &str = "flows_clusters";

/// One flow to store: its steps are node IDs in walk order, the entry point first.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcessRow {
    pub id: String,
    pub label: String,
    pub score: f64,
    pub steps: Vec<String>,
}

/// One cluster to store, with its members' node IDs.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterRow {
    pub id: String,
    pub label: String,
    pub cohesion: f64,
    pub members: Vec<String>,
}

/// Everything one derivation run produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DerivedRows {
    /// The revision whose graph was read.
    pub revision: i64,
    pub compute_ms: u64,
    pub processes: Vec<ProcessRow>,
    pub clusters: Vec<ClusterRow>,
}

/// Which revision the stored flows and clusters come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivedStamp {
    pub computed_at_revision: i64,
    pub computed_at_ms: i64,
    pub compute_ms: i64,
    pub processes: u64,
    pub clusters: u64,
}

/// A flow as seen from one of its steps.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowRef {
    pub id: String,
    pub label: String,
    pub score: f64,
    /// 1-based position of the step asked about.
    pub step: u32,
    /// Number of steps in the flow.
    pub steps: u32,
    /// Node ID of the entry point.
    pub entry: String,
}

/// A whole flow.
#[derive(Clone, Debug, PartialEq)]
pub struct Flow {
    pub id: String,
    pub label: String,
    pub score: f64,
    /// Node IDs, entry first.
    pub steps: Vec<String>,
}

/// A cluster without its members.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterRef {
    pub id: String,
    pub label: String,
    pub cohesion: f64,
    pub size: u32,
}

impl Store {
    /// Replaces the stored flows and clusters with `rows`, in one transaction. Readers see the
    /// old set or the new one, never a mix.
    pub fn write_derived(&mut self, rows: &DerivedRows) -> Result<(), QueryError> {
        let path = self.path.clone();
        let err = |source| QueryError::Sqlite { path: path.clone(), source };
        let tx = self.begin_immediate()?;
        tx.execute_batch(
            "DELETE FROM process; DELETE FROM process_step; DELETE FROM cluster; \
             DELETE FROM cluster_member;",
        )
        .map_err(err)?;
        {
            let mut proc = tx
                .prepare(
                    "INSERT OR REPLACE INTO process (id, label, score, entry, steps) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(err)?;
            let mut step = tx
                .prepare(
                    "INSERT OR REPLACE INTO process_step (process, step, node) VALUES (?1, ?2, ?3)",
                )
                .map_err(err)?;
            for p in &rows.processes {
                let Some(entry) = p.steps.first() else { continue };
                proc.execute(params![p.id, p.label, p.score, entry, p.steps.len() as i64])
                    .map_err(err)?;
                for (i, node) in p.steps.iter().enumerate() {
                    step.execute(params![p.id, i as i64 + 1, node]).map_err(err)?;
                }
            }
            let mut cluster = tx
                .prepare(
                    "INSERT OR REPLACE INTO cluster (id, label, cohesion, size) \
                     VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(err)?;
            let mut member = tx
                .prepare("INSERT OR REPLACE INTO cluster_member (node, cluster) VALUES (?1, ?2)")
                .map_err(err)?;
            for c in &rows.clusters {
                cluster
                    .execute(params![c.id, c.label, c.cohesion, c.members.len() as i64])
                    .map_err(err)?;
                for node in &c.members {
                    member.execute(params![node, c.id]).map_err(err)?;
                }
            }
        }
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        tx.execute(
            "INSERT OR REPLACE INTO derivation (name, revision, computed_at_ms, compute_ms) \
             VALUES (?1, ?2, ?3, ?4)",
            params![FLOWS_CLUSTERS, rows.revision, now_ms, rows.compute_ms as i64],
        )
        .map_err(err)?;
        tx.commit().map_err(err)
    }
}

impl Reader<'_> {
    /// Which revision the stored flows and clusters were computed from; `None` before the
    /// first computation.
    pub fn derived_stamp(&self) -> Result<Option<DerivedStamp>, QueryError> {
        let row = self
            .tx
            .query_row(
                "SELECT revision, computed_at_ms, compute_ms FROM derivation WHERE name = ?1",
                [FLOWS_CLUSTERS],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?)),
            )
            .optional()
            .map_err(self.err())?;
        let Some((revision, at, ms)) = row else { return Ok(None) };
        let count = |table: &str| -> Result<u64, QueryError> {
            self.tx
                .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get::<_, i64>(0))
                .map(|n| n.max(0) as u64)
                .map_err(self.err())
        };
        Ok(Some(DerivedStamp {
            computed_at_revision: revision,
            computed_at_ms: at,
            compute_ms: ms,
            processes: count("process")?,
            clusters: count("cluster")?,
        }))
    }

    /// The flows `node` is a step of, best score first.
    pub fn flows_of(&self, node: &str) -> Result<Vec<FlowRef>, QueryError> {
        self.rows(
            "SELECT p.id, p.label, p.score, s.step, p.steps, p.entry FROM process_step s \
             JOIN process p ON p.id = s.process WHERE s.node = ?1 \
             ORDER BY p.score DESC, p.id, s.step",
            [node],
            flow_ref,
        )
    }

    /// The flows that start at `node`, best score first.
    pub fn flows_from(&self, node: &str) -> Result<Vec<Flow>, QueryError> {
        let ids: Vec<String> = self.rows(
            "SELECT id FROM process WHERE entry = ?1 ORDER BY score DESC, id",
            [node],
            |r| r.get(0),
        )?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            out.extend(self.flow(&id)?);
        }
        Ok(out)
    }

    /// One flow with every step, or `None`.
    pub fn flow(&self, id: &str) -> Result<Option<Flow>, QueryError> {
        let head = self
            .tx
            .query_row("SELECT id, label, score FROM process WHERE id = ?1", [id], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, f64>(2)?))
            })
            .optional()
            .map_err(self.err())?;
        let Some((id, label, score)) = head else { return Ok(None) };
        let steps = self.rows(
            "SELECT node FROM process_step WHERE process = ?1 ORDER BY step",
            [&id],
            |r| r.get(0),
        )?;
        Ok(Some(Flow { id, label, score, steps }))
    }

    /// Every flow (steps as a count), best score first; `limit` 0 = all.
    pub fn flows(&self, limit: usize) -> Result<Vec<FlowRef>, QueryError> {
        let limit = if limit == 0 { -1 } else { limit as i64 };
        self.rows(
            "SELECT id, label, score, 1, steps, entry FROM process ORDER BY score DESC, id \
             LIMIT ?1",
            [limit],
            flow_ref,
        )
    }

    /// The cluster `node` belongs to, if any.
    pub fn cluster_of(&self, node: &str) -> Result<Option<ClusterRef>, QueryError> {
        self.tx
            .query_row(
                "SELECT c.id, c.label, c.cohesion, c.size FROM cluster_member m \
                 JOIN cluster c ON c.id = m.cluster WHERE m.node = ?1",
                [node],
                cluster_ref,
            )
            .optional()
            .map_err(self.err())
    }

    /// One cluster, or `None`.
    pub fn cluster(&self, id: &str) -> Result<Option<ClusterRef>, QueryError> {
        self.tx
            .query_row(
                "SELECT id, label, cohesion, size FROM cluster WHERE id = ?1",
                [id],
                cluster_ref,
            )
            .optional()
            .map_err(self.err())
    }

    /// Every cluster, largest first; `limit` 0 = all.
    pub fn clusters(&self, limit: usize) -> Result<Vec<ClusterRef>, QueryError> {
        let limit = if limit == 0 { -1 } else { limit as i64 };
        self.rows(
            "SELECT id, label, cohesion, size FROM cluster ORDER BY size DESC, id LIMIT ?1",
            [limit],
            cluster_ref,
        )
    }

    /// The members of a cluster, by node ID.
    pub fn cluster_members(&self, id: &str) -> Result<Vec<String>, QueryError> {
        self.rows("SELECT node FROM cluster_member WHERE cluster = ?1 ORDER BY node", [id], |r| {
            r.get(0)
        })
    }

    /// Calls `f` for every derived edge as (kind, src, dst, step): ENTRY_POINT_OF (entry ->
    /// process), STEP_IN_PROCESS (step -> process, with its 1-based number) and MEMBER_OF
    /// (member -> cluster), in that order, each sorted.
    pub fn for_each_derived_edge(
        &self,
        mut f: impl FnMut(EdgeKind, String, String, u32),
    ) -> Result<(), QueryError> {
        self.each_row(
            "SELECT entry, id FROM process ORDER BY entry, id",
            [],
            |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)),
            |(src, dst)| f(EdgeKind::EntryPointOf, src, dst, 0),
        )?;
        self.each_row(
            "SELECT node, process, step FROM process_step ORDER BY process, step",
            [],
            |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, u32>(2)?)),
            |(src, dst, step)| f(EdgeKind::StepInProcess, src, dst, step),
        )?;
        self.each_row(
            "SELECT node, cluster FROM cluster_member ORDER BY node",
            [],
            |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)),
            |(src, dst)| f(EdgeKind::MemberOf, src, dst, 0),
        )
    }
}

impl Reader<'_> {
    /// A flow (`proc:...`) or a cluster (`cluster:...`) as a node row of the model (kind
    /// `process` / `cluster`, its label as name, a one-line signature); `None` for other IDs
    /// and unknown ones.
    pub fn derived_node(&self, id: &str) -> Result<Option<NodeRow>, QueryError> {
        let kind = if ids::is(id, NodeCategory::Process) {
            NodeKind::Process
        } else if ids::is(id, NodeCategory::Cluster) {
            NodeKind::Cluster
        } else {
            return Ok(None);
        };
        let (select, table) = derived_select(kind);
        let sql = format!("SELECT {select} FROM {table} WHERE id = ?1");
        let rows: Vec<(NodeRow, f64)> = self.rows(&sql, [id], |r| derived_row(kind, r))?;
        Ok(rows.into_iter().next().map(|(n, _)| n))
    }

    /// The derived edges at node `id` in `dir` of the given kinds, as stored edges would be
    /// (ENTRY_POINT_OF entry -> process, STEP_IN_PROCESS step -> process with the step number
    /// as its line, MEMBER_OF member -> cluster; weight 1.0, reason structural).
    pub fn derived_edges(
        &self,
        id: &str,
        out: bool,
        kinds: &[EdgeKind],
    ) -> Result<Vec<EdgeRow>, QueryError> {
        let mut edges = Vec::new();
        let edge = |kind: EdgeKind, src: String, dst: String, line: u32| EdgeRow {
            src,
            dst,
            kind,
            weight: 1.0,
            reason: codegraph_schema::Reason::Structural.as_str().to_string(),
            line,
        };
        for &k in kinds {
            let sql = match (k, out) {
                (EdgeKind::EntryPointOf, true) => {
                    "SELECT entry, id, 0 FROM process WHERE entry = ?1 ORDER BY id"
                }
                (EdgeKind::EntryPointOf, false) => "SELECT entry, id, 0 FROM process WHERE id = ?1",
                (EdgeKind::StepInProcess, true) => {
                    "SELECT node, process, step FROM process_step WHERE node = ?1 ORDER BY process, step"
                }
                (EdgeKind::StepInProcess, false) => {
                    "SELECT node, process, step FROM process_step WHERE process = ?1 ORDER BY step"
                }
                (EdgeKind::MemberOf, true) => {
                    "SELECT node, cluster, 0 FROM cluster_member WHERE node = ?1"
                }
                (EdgeKind::MemberOf, false) => {
                    "SELECT node, cluster, 0 FROM cluster_member WHERE cluster = ?1 ORDER BY node"
                }
                _ => continue,
            };
            let rows: Vec<(String, String, u32)> =
                self.rows(sql, [id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            edges.extend(rows.into_iter().map(|(src, dst, line)| edge(k, src, dst, line)));
        }
        Ok(edges)
    }
}

/// What a flow or cluster row gives a node row (ID, label, a rank, a one-line signature;
/// read by [`derived_row`]) and the table it comes from. Flows rank by score, clusters by
/// cohesion.
pub(crate) fn derived_select(kind: NodeKind) -> (&'static str, &'static str) {
    match kind {
        NodeKind::Process => {
            ("id, label, score, 'flow of ' || steps || ' steps from ' || entry", "process")
        }
        _ => (
            "id, label, cohesion, 'cluster of ' || size || ' members, cohesion ' || printf('%.2f', cohesion)",
            "cluster",
        ),
    }
}

/// A flow or a cluster (a row of [`derived_select`]) as a node row of the model (kind
/// `process` / `cluster`, its label as name, the one-line signature), with its rank.
pub(crate) fn derived_row(
    kind: NodeKind,
    r: &rusqlite::Row<'_>,
) -> rusqlite::Result<(NodeRow, f64)> {
    let label: String = r.get(1)?;
    let node = NodeRow {
        id: r.get(0)?,
        kind,
        name: label.clone(),
        qualified_name: label,
        file: None,
        language: None,
        start_line: None,
        end_line: None,
        signature: Some(r.get(3)?),
        doc: None,
        exported: false,
        test: false,
        parent: None,
        size: None,
        lines: None,
        hash: None,
        props: None,
    };
    Ok((node, r.get(2)?))
}

/// The edge kinds whose edges live in the derived tables, not in `stored_edge`.
pub const DERIVED_EDGE_KINDS: &[EdgeKind] =
    &[EdgeKind::EntryPointOf, EdgeKind::StepInProcess, EdgeKind::MemberOf];

fn flow_ref(r: &rusqlite::Row<'_>) -> rusqlite::Result<FlowRef> {
    Ok(FlowRef {
        id: r.get(0)?,
        label: r.get(1)?,
        score: r.get(2)?,
        step: r.get(3)?,
        steps: r.get(4)?,
        entry: r.get(5)?,
    })
}

fn cluster_ref(r: &rusqlite::Row<'_>) -> rusqlite::Result<ClusterRef> {
    Ok(ClusterRef { id: r.get(0)?, label: r.get(1)?, cohesion: r.get(2)?, size: r.get(3)? })
}

/// A flow an impact answer reaches: `via` (a target at depth 0, or a reached node) is one of
/// its steps.
#[derive(Clone, Debug, PartialEq)]
pub struct ImpactFlow {
    pub flow: FlowRef,
    pub via: String,
    pub depth: u32,
}

/// Most flows an impact answer lists.
pub const MAX_IMPACT_FLOWS: usize = 20;
/// Most nodes of an impact answer whose flows are looked up (targets and the nearest levels
/// first).
const MAX_FLOW_LOOKUPS: usize = 2000;

impl Reader<'_> {
    /// The note an answer carries about its flows and clusters: none computed yet, or computed
    /// at an older revision than the one read. `None` when they are current.
    pub fn flows_note(&self, stamp: Option<&DerivedStamp>) -> Option<String> {
        match stamp {
            None => Some(NOT_COMPUTED.to_string()),
            Some(s) if s.computed_at_revision != self.revision() => Some(format!(
                "flows and clusters were computed at revision {}, not at this revision {}: they may be out of date",
                s.computed_at_revision,
                self.revision()
            )),
            Some(_) => None,
        }
    }

    /// The flows `nodes` (ID, depth; nearest first) are steps of, each flow once with the
    /// nearest node that reaches it, by depth then score; at most [`MAX_IMPACT_FLOWS`].
    /// Returns the flows and how many were found in all.
    pub fn flows_through<'n>(
        &self,
        nodes: impl IntoIterator<Item = (&'n str, u32)>,
    ) -> Result<(Vec<ImpactFlow>, usize), QueryError> {
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut out: Vec<ImpactFlow> = Vec::new();
        for (node, depth) in nodes.into_iter().take(MAX_FLOW_LOOKUPS) {
            for flow in self.flows_of(node)? {
                if seen.insert(flow.id.clone()) {
                    out.push(ImpactFlow { flow, via: node.to_string(), depth });
                }
            }
        }
        out.sort_by(|a, b| {
            a.depth
                .cmp(&b.depth)
                .then_with(|| b.flow.score.total_cmp(&a.flow.score))
                .then_with(|| a.flow.id.cmp(&b.flow.id))
        });
        let total = out.len();
        out.truncate(MAX_IMPACT_FLOWS);
        Ok((out, total))
    }
}

/// The note of an answer read before any flows were computed.
pub const NOT_COMPUTED: &str =
    "execution flows and clusters are not computed for this index yet: none are listed";

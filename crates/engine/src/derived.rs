//! Execution flows (processes) and clusters of one published revision, computed off the edit
//! hot path and stored beside the graph, stamped with the revision they were computed from.
//!
//! This module is the glue between the SQLite snapshot (`codegraph-query`) and the pure
//! derivations (`codegraph-derive`): it reads every node and edge of one revision, runs both,
//! and stores the result. Who runs it: the MCP server's deriver thread after a root has been
//! quiet for a moment, and the CLI's flow-aware commands on first use after a change
//! ([`ensure_current`]). Answers read the stored rows through the query layer.

use anyhow::{Context, Result};
use codegraph_derive::{ClusterConfig, EdgeIn, GraphInput, NodeIn, ProcessConfig};
use codegraph_query::{ClusterRow, DerivedRows, ProcessRow, Reader, Store};
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

/// Reads the whole revision and derives its flows and clusters.
pub fn compute(reader: &Reader<'_>) -> Result<DerivedRows> {
    let start = Instant::now();
    let mut input = GraphInput::default();
    let mut index: HashMap<String, usize> = HashMap::new();
    // The names languages run as program entries whether or not they are exported (Go: main).
    let entry_names: Vec<&str> =
        codegraph_parse::Language::ALL.iter().filter_map(|l| l.spec().program_entry).collect();
    reader.for_each_node(|n| {
        index.insert(n.id.clone(), input.nodes.len());
        let is_test = n.test;
        // The name first (one string compare for most nodes), then the node's language (as
        // stored: a language may claim a file by its text, not its name).
        let program_entry = n.kind == codegraph_schema::NodeKind::Function
            && entry_names.contains(&n.name.as_str())
            && n.language
                .as_deref()
                .and_then(codegraph_parse::Language::from_name)
                .and_then(|l| l.spec().program_entry)
                == Some(n.name.as_str());
        input.nodes.push(NodeIn {
            id: n.id,
            kind: n.kind,
            name: n.name,
            file: n.file,
            exported: n.exported,
            is_test,
            program_entry,
            start_line: n.start_line.unwrap_or(0),
            end_line: n.end_line.unwrap_or(0),
        });
    })?;
    reader.for_each_edge_unordered(|e| {
        // Co-change is history, not structure: flows and clusters are of the code.
        if e.kind == codegraph_schema::EdgeKind::CoChanged {
            return;
        }
        if let (Some(&src), Some(&dst)) = (index.get(&e.src), index.get(&e.dst)) {
            input.edges.push(EdgeIn { src, dst, kind: e.kind, weight: e.weight });
        }
    })?;
    let clusters = codegraph_derive::clusters(&input, &ClusterConfig::default())
        .context("clustering the graph")?;
    let processes = codegraph_derive::processes(&input, &ProcessConfig::default());
    let id = |i: usize| input.nodes[i].id.clone();
    Ok(DerivedRows {
        revision: reader.revision(),
        compute_ms: start.elapsed().as_millis() as u64,
        processes: processes
            .into_iter()
            .map(|p| ProcessRow {
                id: p.id,
                label: p.label,
                score: p.score,
                steps: p.steps.iter().map(|&s| id(s)).collect(),
            })
            .collect(),
        clusters: clusters
            .into_iter()
            .map(|c| ClusterRow {
                id: c.id,
                label: c.label,
                cohesion: c.cohesion,
                members: c.members.iter().map(|&m| id(m)).collect(),
            })
            .collect(),
    })
}

/// Computes and stores the flows and clusters of the current revision of the index at `db`
/// unless the stored ones already are of it. Returns the revision they now come from, and
/// whether this call computed them.
pub fn ensure_current(db: &Path) -> Result<(i64, bool)> {
    ensure_current_with(db, |_| {})
}

/// [`ensure_current`], calling `starting(revision)` first when it has to compute (so a
/// caller can say why it is waiting).
pub fn ensure_current_with(db: &Path, starting: impl FnOnce(i64)) -> Result<(i64, bool)> {
    let rows = {
        let mut store = Store::open_read_only(db)?;
        let reader = store.reader()?;
        let have = reader.derived_stamp()?.map(|s| s.computed_at_revision);
        if have == Some(reader.revision()) {
            return Ok((reader.revision(), false));
        }
        starting(reader.revision());
        compute(&reader)?
    };
    store_rows(db, &rows)?;
    Ok((rows.revision, true))
}

/// Stores `rows`, unless a newer derivation was stored meanwhile (another process, a later
/// revision).
pub fn store_rows(db: &Path, rows: &DerivedRows) -> Result<()> {
    let mut store = Store::open(db).context("opening the index to store flows and clusters")?;
    let newer = {
        let reader = store.reader()?;
        reader.derived_stamp()?.is_some_and(|s| s.computed_at_revision > rows.revision)
    };
    if !newer {
        store.write_derived(rows)?;
    }
    Ok(())
}

//! Execution flows (processes) and clusters of one published revision, computed off the edit
//! hot path: the MCP server's deriver thread recomputes them after a root has been quiet for a
//! moment, and answers use the newest result, stamped with the revision it was computed at
//! (an answer whose flows are older than its revision says so).
//!
//! This module is the glue between the SQLite snapshot (`codegraph-query`) and the pure
//! derivations (`codegraph-derive`): it reads every node and edge of one revision, runs both,
//! and indexes the results by node ID for the tools.

use anyhow::{Context, Result};
use codegraph_derive::{ClusterConfig, EdgeIn, GraphInput, NodeIn, ProcessConfig};
use codegraph_query::Reader;
use codegraph_query::ops::is_test_path;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::Instant;

/// One flow: its ID, label, score and steps (node IDs, entry first).
#[derive(Debug, Clone)]
pub struct Flow {
    pub id: String,
    pub label: String,
    pub score: f64,
    pub steps: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Group {
    pub id: String,
    pub label: String,
    pub cohesion: f64,
    pub size: usize,
}

/// The flows and clusters of one revision.
#[derive(Debug, Default)]
pub struct Derived {
    pub revision: i64,
    pub flows: Vec<Flow>,
    pub clusters: Vec<Group>,
    /// Node ID -> (flow index, step index) for every step it is.
    steps_of: HashMap<String, Vec<(usize, usize)>>,
    /// Node ID -> cluster index.
    cluster_of: HashMap<String, usize>,
    pub compute_ms: u64,
}

impl Derived {
    /// Reads the whole revision and derives its flows and clusters.
    pub fn compute(reader: &Reader<'_>) -> Result<Derived> {
        let start = Instant::now();
        let mut input = GraphInput::default();
        let mut index: HashMap<String, usize> = HashMap::new();
        reader.for_each_node(|n| {
            index.insert(n.id.clone(), input.nodes.len());
            let is_test = n.file.as_deref().is_some_and(is_test_path);
            input.nodes.push(NodeIn {
                id: n.id,
                kind: n.kind,
                name: n.name,
                file: n.file,
                exported: n.exported,
                is_test,
                start_line: n.start_line.unwrap_or(0),
                end_line: n.end_line.unwrap_or(0),
            });
        })?;
        reader.for_each_edge(|e| {
            if let (Some(&src), Some(&dst)) = (index.get(&e.src), index.get(&e.dst)) {
                input.edges.push(EdgeIn { src, dst, kind: e.kind, weight: e.weight });
            }
        })?;
        let clusters = codegraph_derive::clusters(&input, &ClusterConfig::default())
            .context("clustering the graph")?;
        let processes = codegraph_derive::processes(&input, &ProcessConfig::default());
        let mut d = Derived { revision: reader.revision(), ..Derived::default() };
        for (ci, c) in clusters.iter().enumerate() {
            for &m in &c.members {
                d.cluster_of.insert(input.nodes[m].id.clone(), ci);
            }
            d.clusters.push(Group {
                id: c.id.clone(),
                label: c.label.clone(),
                cohesion: c.cohesion,
                size: c.members.len(),
            });
        }
        for (pi, p) in processes.iter().enumerate() {
            let steps: Vec<String> = p.steps.iter().map(|&s| input.nodes[s].id.clone()).collect();
            for (si, s) in steps.iter().enumerate() {
                d.steps_of.entry(s.clone()).or_default().push((pi, si));
            }
            d.flows.push(Flow { id: p.id.clone(), label: p.label.clone(), score: p.score, steps });
        }
        d.compute_ms = start.elapsed().as_millis() as u64;
        Ok(d)
    }

    /// The flows `id` is a step of (entry first), as `{id, label, step, steps, entry}`.
    pub fn flows_of(&self, id: &str) -> Vec<Value> {
        self.steps_of
            .get(id)
            .map(|v| {
                v.iter()
                    .map(|&(pi, si)| {
                        let f = &self.flows[pi];
                        json!({
                            "id": f.id,
                            "label": f.label,
                            "score": (f.score * 100.0).round() / 100.0,
                            "step": si + 1,
                            "steps": f.steps.len(),
                            "entry": f.steps.first(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The flows that start at `id`, with every step.
    pub fn flows_from(&self, id: &str) -> Vec<Value> {
        self.steps_of
            .get(id)
            .map(|v| {
                v.iter()
                    .filter(|&&(_, si)| si == 0)
                    .map(|&(pi, _)| {
                        let f = &self.flows[pi];
                        json!({"id": f.id, "label": f.label, "score": (f.score * 100.0).round() / 100.0, "steps": f.steps})
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn cluster_of(&self, id: &str) -> Option<Value> {
        self.cluster_of.get(id).map(|&ci| {
            let c = &self.clusters[ci];
            json!({"id": c.id, "label": c.label, "cohesion": (c.cohesion * 1000.0).round() / 1000.0, "size": c.size})
        })
    }

    /// What an answer read at `revision` says about these flows.
    pub fn stamp(&self, revision: i64) -> Value {
        json!({
            "computed_at_revision": self.revision,
            "current": self.revision == revision,
            "flows": self.flows.len(),
            "clusters": self.clusters.len(),
        })
    }
}

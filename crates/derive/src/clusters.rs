//! Functional clusters: groups of symbols that mostly talk to each other, found with the Leiden
//! community detection algorithm, so that an agent can name the area of the code a symbol
//! belongs to and see how self-contained that area is.
//!
//! The rules:
//! - **Graph.** Nodes are non-test symbols (every `NodeKind` of the symbol category but
//!   `parameter`, a called callback that is part of its function, not a member of an area;
//!   files, packages, routes, tools, processes and clusters are left out, and so is test code,
//!   which would glue together the areas it exercises). Edges are CALLS, IMPORTS, EXTENDS and
//!   IMPLEMENTS between two such symbols, made undirected; parallel edges (either direction,
//!   any of the four kinds) are merged by summing their weights; self-loops are dropped.
//!   Symbols without such an edge are not clustered.
//! - **Algorithm.** Leiden from [`leiden_rs`]: Newman-Girvan modularity at
//!   [`ClusterConfig::resolution`] (1.0), a fixed seed, nodes numbered in ID order, sequential
//!   local moving (the crate's `rayon` feature is off), and at most
//!   [`ClusterConfig::max_cluster_size`] (1000) symbols per cluster. It is warm-started: a
//!   first pass of the same crate with the refinement phase skipped (Louvain) gives the
//!   initial partition, then full Leiden (local moving, refinement, aggregation) runs from it.
//!   The crate's refinement costs O(nodes) per community it refines, so from the singleton
//!   start (tens of thousands of communities after the first local-moving pass) it is
//!   quadratic: 22 s of a 25 s run on a synthetic 300k-node graph; from the warm start it
//!   refines a few hundred communities (about 1 s in all). Should Leiden find nothing to move
//!   from the warm start, the crate returns it unrefined, so every community is finally split
//!   into its connected parts (a no-op on a refined partition): a cluster is always connected.
//! - **Singletons** (a symbol Leiden leaves alone) are dropped, not grouped: a one-symbol
//!   "area" says nothing the symbol itself does not, and a catch-all group would be a cluster of
//!   unrelated code. Such symbols simply have no cluster.
//! - **Label.** `folder: Name1, Name2`: the folder holding most members' files (ties to the
//!   smaller path; the root folder, or no member file at all, gives no folder part, so the
//!   label is just the names), then the [`LABEL_NAMES`] distinct names with the highest
//!   weighted degree inside the cluster (ties by name, then ID), taken from the members in that
//!   folder when there is one: otherwise the helpers every area calls (`Errorf`, `Lock`) would
//!   name most clusters.
//! - **ID.** `cluster:` + the label's slug (runs of characters other than ASCII letters,
//!   digits, `_`, `.`, `/`, `$` become `-`); clusters with the same slug are numbered in the
//!   ID order of their first member, and the n-th (n >= 2) gets `#n`, like duplicate symbol IDs.
//! - **Cohesion.** internal weight / (internal + boundary weight), over the merged edges above:
//!   internal edges have both ends in the cluster, boundary edges one end.
//! - **Order.** Largest cluster first, ties by the ID of the first member; members in ID order.

use std::collections::BTreeMap;
use std::fmt;

use codegraph_schema::{EdgeKind, NodeKind};
use leiden_rs::{GraphDataBuilder, Leiden, LeidenConfig, QualityType};

use crate::canon::Canon;
use crate::input::GraphInput;

/// How many symbol names a cluster label carries.
pub const LABEL_NAMES: usize = 2;

/// Tuning of [`clusters()`].
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterConfig {
    /// Modularity resolution (gamma): higher gives more, smaller clusters. Default 1.0.
    pub resolution: f64,
    /// Most symbols one cluster may hold (0 = no cap). Default 1000: an agent reads a cluster
    /// as one functional area, and past about a thousand symbols it no longer names one.
    pub max_cluster_size: usize,
    /// Seed of Leiden's random node order. Fixed by default so that runs agree.
    pub seed: u64,
    /// Most Leiden iterations (local moving, refinement, aggregation). Default 50; it usually
    /// converges in far fewer.
    pub max_iterations: usize,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig { resolution: 1.0, max_cluster_size: 1000, seed: 0x5eed, max_iterations: 50 }
    }
}

/// One functional cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct Cluster {
    /// Stable ID: `cluster:net/http-Server-Handler` (`#n` for the n-th with the same slug).
    pub id: String,
    /// `net/http: Server, Handler`.
    pub label: String,
    /// Indexes into [`GraphInput::nodes`], in node-ID order.
    pub members: Vec<usize>,
    /// Internal weight / (internal + boundary weight), in `[0, 1]`.
    pub cohesion: f64,
}

/// Leiden refused the configuration (a negative or non-finite resolution, zero iterations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterError(pub String);

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "community detection failed: {}", self.0)
    }
}

impl std::error::Error for ClusterError {}

fn clustered_edge(kind: EdgeKind) -> bool {
    matches!(
        kind,
        EdgeKind::Calls
            | EdgeKind::Imports
            | EdgeKind::Extends
            | EdgeKind::Embeds
            | EdgeKind::Implements
    )
}

/// Leiden communities of the symbol graph; see the module doc for the rules.
pub fn clusters(input: &GraphInput, config: &ClusterConfig) -> Result<Vec<Cluster>, ClusterError> {
    let canon = Canon::new(input);
    let eligible: Vec<bool> = (0..canon.len())
        .map(|r| {
            canon.is_symbol(r) && !canon.node(r).is_test && canon.kind(r) != NodeKind::Parameter
        })
        .collect();

    // Undirected pairs in rank space, merged by summing in a fixed order.
    let mut pairs: Vec<(usize, usize, f64)> = canon
        .edges
        .iter()
        .filter(|e| clustered_edge(e.kind) && e.src != e.dst && eligible[e.src] && eligible[e.dst])
        .map(|e| (e.src.min(e.dst), e.src.max(e.dst), e.weight))
        .collect();
    pairs.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then_with(|| a.2.total_cmp(&b.2)));
    let mut merged: Vec<(usize, usize, f64)> = Vec::with_capacity(pairs.len());
    for (a, b, w) in pairs {
        match merged.last_mut() {
            Some(last) if last.0 == a && last.1 == b => last.2 += w,
            _ => merged.push((a, b, w)),
        }
    }
    if merged.is_empty() {
        return Ok(Vec::new());
    }

    // Local numbering: the symbols that have an edge, in rank (ID) order.
    let mut touched = vec![false; canon.len()];
    for &(a, b, _) in &merged {
        touched[a] = true;
        touched[b] = true;
    }
    let mut local = vec![usize::MAX; canon.len()];
    let mut ranks: Vec<usize> = Vec::new();
    for r in (0..canon.len()).filter(|&r| touched[r]) {
        local[r] = ranks.len();
        ranks.push(r);
    }
    let edges: Vec<(usize, usize, f64)> =
        merged.iter().map(|&(a, b, w)| (local[a], local[b], w)).collect();

    let community = connected_parts(&edges, &leiden(ranks.len(), &edges, config)?);

    // Members per community (ascending local index = ID order).
    let n_comm = community.iter().map(|&c| c + 1).max().unwrap_or(0);
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); n_comm];
    for (l, &c) in community.iter().enumerate() {
        groups[c].push(l);
    }

    let mut internal = vec![0.0f64; n_comm];
    let mut boundary = vec![0.0f64; n_comm];
    let mut inner_degree = vec![0.0f64; ranks.len()];
    for &(la, lb, w) in &edges {
        let (ca, cb) = (community[la], community[lb]);
        if ca == cb {
            internal[ca] += w;
            inner_degree[la] += w;
            inner_degree[lb] += w;
        } else {
            boundary[ca] += w;
            boundary[cb] += w;
        }
    }

    struct Draft {
        first: usize,
        slug: String,
        label: String,
        members: Vec<usize>,
        cohesion: f64,
    }
    let mut drafts: Vec<Draft> = Vec::new();
    for (c, group) in groups.iter().enumerate() {
        if group.len() < 2 {
            continue;
        }
        let label = label(&canon, &ranks, group, &inner_degree);
        let total = internal[c] + boundary[c];
        drafts.push(Draft {
            first: ranks[group[0]],
            slug: slug(&label),
            label,
            members: group.iter().map(|&l| canon.index(ranks[l])).collect(),
            cohesion: if total > 0.0 { internal[c] / total } else { 0.0 },
        });
    }

    // IDs: numbered per slug in first-member order.
    drafts.sort_by_key(|d| d.first);
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut ids = Vec::with_capacity(drafts.len());
    for d in &drafts {
        let n = seen.entry(d.slug.as_str()).or_insert(0);
        *n += 1;
        ids.push(codegraph_schema::ids::cluster(&d.slug, *n as u32));
    }
    let mut result: Vec<(usize, Cluster)> = drafts
        .into_iter()
        .zip(ids)
        .map(|(d, id)| {
            (d.first, Cluster { id, label: d.label, members: d.members, cohesion: d.cohesion })
        })
        .collect();
    result.sort_by(|a, b| b.1.members.len().cmp(&a.1.members.len()).then(a.0.cmp(&b.0)));
    Ok(result.into_iter().map(|(_, c)| c).collect())
}

/// Leiden's community of each local node: a Louvain pass, then Leiden warm-started from it
/// (see the module doc for why).
fn leiden(
    n: usize,
    edges: &[(usize, usize, f64)],
    config: &ClusterConfig,
) -> Result<Vec<usize>, ClusterError> {
    let error = |e: leiden_rs::LeidenError| ClusterError(e.to_string());
    let mut builder = GraphDataBuilder::new(n);
    for &(a, b, w) in edges {
        builder.add_edge(a, b, w).map_err(error)?;
    }
    let graph = builder.build().map_err(error)?;
    let run = |skip_refinement: bool| {
        Leiden::new(
            LeidenConfig::builder()
                .quality(QualityType::Modularity)
                .resolution(config.resolution)
                .seed(config.seed)
                .max_comm_size(config.max_cluster_size)
                .max_iterations(config.max_iterations)
                .skip_refinement(skip_refinement)
                .build(),
        )
    };
    let warm = run(true).run(&graph).map_err(error)?;
    let out = run(false).run_with_initial_partition(&graph, warm.partition).map_err(error)?;
    Ok((0..n).map(|l| out.partition.community_of(l)).collect())
}

/// Splits every community into its connected parts (over edges inside the community) and
/// numbers the parts densely in order of their first node.
fn connected_parts(edges: &[(usize, usize, f64)], community: &[usize]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..community.len()).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for &(a, b, _) in edges {
        if community[a] == community[b] {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            // The smaller index is the root, so a part's root is its first node.
            if ra != rb {
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut number = vec![usize::MAX; community.len()];
    let mut next = 0;
    (0..community.len())
        .map(|x| {
            let root = find(&mut parent, x);
            if number[root] == usize::MAX {
                number[root] = next;
                next += 1;
            }
            number[root]
        })
        .collect()
}

/// `folder: Name1, Name2` (see the module doc).
fn label(canon: &Canon<'_>, ranks: &[usize], group: &[usize], inner_degree: &[f64]) -> String {
    let mut folders: BTreeMap<&str, usize> = BTreeMap::new();
    for &l in group {
        if let Some(file) = canon.node(ranks[l]).file.as_deref() {
            *folders.entry(folder_of(file)).or_insert(0) += 1;
        }
    }
    // BTreeMap iterates in path order, so the first maximum is the smallest path.
    let mut folder: Option<(&str, usize)> = None;
    for (f, n) in folders {
        if folder.is_none_or(|(_, best)| n > best) {
            folder = Some((f, n));
        }
    }

    let folder = folder.map(|(f, _)| f);
    let in_folder = |l: usize| match folder {
        Some(f) => canon.node(ranks[l]).file.as_deref().is_some_and(|file| folder_of(file) == f),
        None => true,
    };
    let mut by_degree: Vec<usize> = group.iter().copied().filter(|&l| in_folder(l)).collect();
    by_degree.sort_by(|&a, &b| {
        inner_degree[b]
            .total_cmp(&inner_degree[a])
            .then_with(|| canon.node(ranks[a]).name.cmp(&canon.node(ranks[b]).name))
            .then(a.cmp(&b))
    });
    let mut names: Vec<&str> = Vec::with_capacity(LABEL_NAMES);
    for l in by_degree {
        let name = canon.node(ranks[l]).name.as_str();
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
            if names.len() == LABEL_NAMES {
                break;
            }
        }
    }
    let names = names.join(", ");
    match folder {
        Some(f) if !f.is_empty() && !names.is_empty() => format!("{f}: {names}"),
        Some(f) if !f.is_empty() => f.to_string(),
        _ => names,
    }
}

/// The folder of a root-relative file path (`""` for a file at the root).
fn folder_of(file: &str) -> &str {
    file.rfind('/').map_or("", |i| &file[..i])
}

/// Runs of characters other than ASCII letters, digits, `_`, `.`, `/`, `$` become one `-`.
fn slug(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    for ch in label.chars() {
        if ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.' | '/' | '$') {
            out.push(ch);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() { "cluster".to_string() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_and_folders() {
        assert_eq!(slug("net/http: Server, Handler"), "net/http-Server-Handler");
        assert_eq!(slug("  ::  "), "cluster");
        assert_eq!(slug("a: $b, c"), "a-$b-c");
        assert_eq!(folder_of("net/http/server.go"), "net/http");
        assert_eq!(folder_of("main.go"), "");
    }

    #[test]
    fn communities_split_into_connected_parts() {
        // Community 0 is {0, 1, 2} with only 0-1 connected; community 1 is {3, 4}, connected.
        let community = [0, 0, 0, 1, 1];
        let edges = [(0, 1, 1.0), (1, 3, 1.0), (3, 4, 1.0)];
        assert_eq!(connected_parts(&edges, &community), [0, 0, 1, 2, 2]);
    }
}

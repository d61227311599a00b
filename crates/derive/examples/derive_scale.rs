//! Wall time of the whole-graph derivations at the size of the Go standard library's index
//! (about 300k nodes, 1M edges), on a synthetic but seeded graph shaped like code: packages of
//! files and symbols, calls mostly within a package, some to a few "imported" packages, a few
//! anywhere; routes and tools with handlers; test files.
//!
//! `cargo run --release -p codegraph-derive --example derive_scale [NODES [EDGES]]`; the
//! environment variables `RESOLUTION` and `MAX_CLUSTER_SIZE` override the cluster defaults.

use std::time::Instant;

use codegraph_derive::{
    ClusterConfig, EdgeIn, GraphInput, NodeIn, ProcessConfig, clusters, processes,
};
use codegraph_schema::{EdgeKind, NodeKind};

/// splitmix64: a seeded generator, so the example needs no random-number crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const PACKAGE_SIZE: usize = 100;
const FILES_PER_PACKAGE: usize = 8;

fn synthetic(nodes: usize, edges: usize, seed: u64) -> GraphInput {
    let mut rng = Rng(seed);
    let packages = (nodes / PACKAGE_SIZE).max(1);
    let mut input = GraphInput::default();
    let symbol_kinds = [
        NodeKind::Function,
        NodeKind::Method,
        NodeKind::Method,
        NodeKind::Struct,
        NodeKind::Interface,
    ];
    for i in 0..nodes {
        let pkg = (i / PACKAGE_SIZE).min(packages - 1);
        let slot = i % PACKAGE_SIZE;
        let dir = format!("pkg{:02}/sub{pkg}", pkg % 40);
        let file_no = slot % FILES_PER_PACKAGE;
        let test = file_no == FILES_PER_PACKAGE - 1;
        let file = format!("{dir}/f{file_no}{}.go", if test { "_test" } else { "" });
        let (kind, name) = match slot {
            0..FILES_PER_PACKAGE => (NodeKind::File, file.clone()),
            8 => (NodeKind::Route, format!("GET /api/{pkg}")),
            9 => (NodeKind::Tool, format!("tool_{pkg}")),
            10 if pkg.is_multiple_of(50) => (NodeKind::Function, "main".to_string()),
            _ => {
                let kind = symbol_kinds[rng.below(symbol_kinds.len())];
                let name = match rng.below(10) {
                    0 => format!("Get{i}"),
                    1 => format!("is{i}"),
                    _ => format!("{}{i}", if rng.chance(40) { "Fn" } else { "fn" }),
                };
                (kind, name)
            }
        };
        let start = 1 + rng.below(500) as u32;
        let span = if rng.chance(20) { rng.below(3) } else { 3 + rng.below(60) } as u32;
        input.nodes.push(NodeIn {
            id: format!("{}:go:{file}:{name}#{i}", kind.category().id_prefix()),
            kind,
            exported: name.starts_with(|c: char| c.is_uppercase()),
            name,
            file: Some(file),
            is_test: test,
            program_entry: false,
            start_line: start,
            end_line: start + span,
        });
    }
    let weights = [1.0, 0.95, 0.95, 0.9, 0.85, 0.8, 0.3];
    // A symbol of package `pkg` (slots 10.. are symbols).
    let symbol_in = |rng: &mut Rng, pkg: usize| {
        let i = pkg * PACKAGE_SIZE + 10 + rng.below(PACKAGE_SIZE - 10);
        i.min(nodes - 1)
    };
    let mut push = |src: usize, dst: usize, kind: EdgeKind, weight: f64| {
        input.edges.push(EdgeIn { src, dst, kind, weight });
    };
    for _ in 0..edges {
        let pkg = rng.below(packages);
        let src = symbol_in(&mut rng, pkg);
        let roll = rng.below(100);
        if roll < 3 {
            // Structure: file -> symbol (ignored by both derivations).
            push(pkg * PACKAGE_SIZE + rng.below(FILES_PER_PACKAGE), src, EdgeKind::Defines, 1.0);
            continue;
        }
        if roll < 4 {
            let (ep, kind) = if rng.chance(50) {
                (8, EdgeKind::HandlesRoute)
            } else {
                (9, EdgeKind::HandlesTool)
            };
            push((pkg * PACKAGE_SIZE + ep).min(nodes - 1), src, kind, 1.0);
            continue;
        }
        // Where the target lives: same package, one of 5 "imported" packages, anywhere.
        let target_pkg = match rng.below(100) {
            0..70 => pkg,
            70..95 => (pkg + 1 + (pkg * 7 + rng.below(5)) % 97) % packages,
            _ => rng.below(packages),
        };
        let dst = symbol_in(&mut rng, target_pkg);
        let kind = match roll {
            4..10 => EdgeKind::Imports,
            10..13 => EdgeKind::Extends,
            13..18 => EdgeKind::Implements,
            _ => EdgeKind::Calls,
        };
        push(src, dst, kind, weights[rng.below(weights.len())]);
    }
    input
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn arg(n: usize, default: usize) -> usize {
    std::env::args().nth(n).and_then(|a| a.parse().ok()).unwrap_or(default)
}

fn main() {
    let (nodes, edges) = (arg(1, 300_000), arg(2, 1_000_000));
    let t = Instant::now();
    let input = synthetic(nodes, edges, 42);
    println!(
        "synthetic graph: {} nodes, {} edges, built in {:.2?}",
        input.nodes.len(),
        input.edges.len(),
        t.elapsed()
    );

    let t = Instant::now();
    let defaults = ClusterConfig::default();
    let config = ClusterConfig {
        resolution: env_or("RESOLUTION", defaults.resolution),
        max_cluster_size: env_or("MAX_CLUSTER_SIZE", defaults.max_cluster_size),
        ..defaults
    };
    let result = clusters(&input, &config);
    let took = t.elapsed();
    match result {
        Ok(cs) => {
            let mut sizes: Vec<usize> = cs.iter().map(|c| c.members.len()).collect();
            sizes.sort_unstable();
            let clustered: usize = sizes.iter().sum();
            let median = sizes.get(sizes.len() / 2).copied().unwrap_or(0);
            let mean_cohesion = cs.iter().map(|c| c.cohesion).sum::<f64>() / cs.len().max(1) as f64;
            println!(
                "clusters:  {took:.2?}  ({} clusters, {clustered} symbols clustered, sizes median {median} max {}, mean cohesion {mean_cohesion:.3})",
                cs.len(),
                sizes.last().copied().unwrap_or(0),
            );
            for c in cs.iter().take(3) {
                println!("  {} ({} members, cohesion {:.3})", c.id, c.members.len(), c.cohesion);
            }
        }
        Err(e) => println!("clusters:  {took:.2?}  failed: {e}"),
    }

    let t = Instant::now();
    let ps = processes(&input, &ProcessConfig::default());
    let took = t.elapsed();
    let steps: usize = ps.iter().map(|p| p.steps.len()).sum();
    println!("processes: {took:.2?}  ({} processes, {steps} steps)", ps.len());
    for p in ps.iter().take(3) {
        println!("  {} score {:.2}: {} ({} steps)", p.id, p.score, p.label, p.steps.len());
    }
}

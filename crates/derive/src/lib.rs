//! Whole-graph derivations of codegraph: functional clusters and execution flows.
//!
//! Both need the whole resolved graph at once (a community or a call chain crosses files and
//! packages), so they cannot be per-file salsa queries; they run off the edit hot path, over a
//! plain snapshot of nodes and edges, and produce plain results that the caller turns into
//! `cluster` / `process` nodes and MEMBER_OF / ENTRY_POINT_OF / STEP_IN_PROCESS edges.
//!
//! - [`clusters()`]: Leiden communities (modularity, seeded) over symbol-to-symbol CALLS,
//!   IMPORTS, EXTENDS and IMPLEMENTS edges, each labelled by its dominant folder and most
//!   connected symbols, with a cohesion score.
//! - [`processes()`]: scored entry points (route and tool handlers, `main`, exported functions
//!   nobody calls) and a bounded, weight-greedy walk along confident CALLS edges from each.
//!
//! Both are deterministic: the input is first put in one canonical order (nodes by ID, edges
//! by endpoints), so the same graph gives the same output whatever order its rows came in, and
//! no hash-map iteration order reaches the output. Bad input never panics: edges whose indexes
//! are out of range, whose kind is not in the vocabulary or whose weight is not a finite
//! non-negative number are skipped, and an empty graph gives empty results.
//!
//! **Architecture invariant:** knows nothing of SQLite, salsa, files, git or MCP: plain
//! [`GraphInput`] in, plain structs out, no IO. Kinds are read through `codegraph-schema`'s
//! vocabulary, never spelled here.

mod canon;
pub mod clusters;
mod input;
pub mod processes;

pub use clusters::{Cluster, ClusterConfig, ClusterError, clusters};
pub use input::{EdgeIn, GraphInput, NodeIn};
pub use processes::{Process, ProcessConfig, processes};

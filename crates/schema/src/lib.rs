//! The single vocabulary of codegraph and the storage schema generated from it.
//!
//! Every other crate names node kinds, edge kinds, edge reasons and diagnostic codes through the
//! enums here, and the SQLite DDL is generated from the table definitions here, deterministically.
//! Nothing else in the workspace may spell a kind as a string literal or write DDL by hand: that
//! is how the CLI, MCP layer, store and tests stay in agreement.
//!
//! It is also the model every layer shares: the graph's rows ([`model`]), the grammar of node
//! IDs ([`ids`]), the typed properties of routes and tools ([`props`]) and route path matching
//! ([`routes`]), so that the read model and the front ends need nothing from the resolver.
//!
//! Architecture invariant: no dependencies (serde only behind the `serde` feature, which the
//! front ends turn on to write kinds in JSON), no IO.

pub mod ddl;
pub mod ids;
pub mod model;
pub mod props;
pub mod query_views;
pub mod routes;
pub mod vocab;

pub use model::{Edge, Id, Node, UnresolvedSite};
pub use props::EndpointProps;
pub use vocab::{DiagnosticCode, EdgeKind, NodeCategory, NodeKind, Reason};

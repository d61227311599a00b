//! The single vocabulary of codegraph and the storage schema generated from it.
//!
//! Every other crate names node kinds, edge kinds, edge reasons and diagnostic codes through the
//! enums here, and the SQLite DDL is generated from the table definitions here, deterministically.
//! Nothing else in the workspace may spell a kind as a string literal or write DDL by hand: that
//! is how the CLI, MCP layer, store and tests stay in agreement.
//!
//! Architecture invariant: this crate has no dependencies and does no IO.

pub mod ddl;
pub mod paths;
pub mod vocab;

pub use paths::is_test_path;
pub use vocab::{DiagnosticCode, EdgeKind, NodeCategory, NodeKind, Reason};

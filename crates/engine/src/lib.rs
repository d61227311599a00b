//! The incremental engine of one code root, as a library: scanning the tree, git state,
//! building and restoring an index, applying edits and publishing revisions, following a
//! root's files, freshness, seeding a worktree from its sibling, the owner file, and grep over
//! the indexed files annotated with the graph. The
//! `codegraph` binary (`crates/server`) holds the transports (CLI, MCP) on top of it; tests
//! and benches can drive the engine directly.

pub mod cache;
pub mod cochange;
pub mod derived;
pub mod diff;
pub mod engine;
pub mod fresh;
pub mod git;
pub mod grep;
pub mod guard;
pub mod index;
pub mod name_columns;
pub mod owner;
pub mod paths;
pub mod remote;
pub mod rename;
pub mod scan;
pub mod scip;
pub mod seed;
pub mod shared;
pub mod tree_events;
pub mod watch;

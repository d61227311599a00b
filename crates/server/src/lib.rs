//! The codegraph front ends as a library: the transports on top of the engine
//! (`codegraph-engine`): command-line parsing, the human / JSON rendering of each command's
//! result, the `watch` command, the MCP server and the web view's HTTP side. The `codegraph` binary (`main.rs`) is a thin
//! `main` over [`cli::run`]; the library form lets the fuzz targets (`fuzz/`) drive the MCP
//! server in process.
//!
//! Architecture invariant: only this crate touches the terminal (beyond the engine's optional
//! progress bar) and the network; the engine does the file-system, git and index work.

mod answer;
pub mod cli;
mod events;
mod graph_query;
pub mod mcp;
mod ops_cli;
mod page;
pub mod shared_store;
mod watch_cmd;
pub mod web;

//! The `codegraph` binary: command-line parsing, logging setup, and the human / JSON rendering
//! of each command's result. The work itself lives in the library crates and in the sibling
//! modules here (scanning, git, indexing).
//!
//! Architecture invariant: only this crate does process-level IO (file system walks, git, the
//! terminal, the watcher, the MCP transports), and only this crate knows JSON.

mod answer;
mod cli;
mod derived;
mod diff;
mod engine;
mod fresh;
mod git;
mod index;
mod mcp;
mod ops_cli;
mod paths;
mod scan;
mod watch;

use std::process::ExitCode;

/// mimalloc returns freed memory to the OS and fragments less than the system allocator, which
/// keeps a long-running watch daemon's RSS flat while edits replace texts, trees and memos.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let filter = tracing_subscriber::EnvFilter::try_from_env("CODEGRAPH_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

//! The `codegraph` binary: the transports on top of the engine (`codegraph-engine`):
//! command-line parsing, logging setup, the human / JSON rendering of each command's result,
//! the `watch` command and the MCP server.
//!
//! Architecture invariant: only this crate touches the terminal (beyond the engine's optional
//! progress bar) and the network; the engine does the file-system, git and index work.

mod answer;
mod cli;
mod events;
mod mcp;
mod ops_cli;
mod page;
mod watch_cmd;

use std::process::ExitCode;

/// mimalloc returns freed memory to the OS and fragments less than the system allocator, which
/// keeps a long-running watch daemon's RSS flat while edits replace texts, trees and memos.
/// (Build with `--no-default-features` for the system allocator, e.g. to profile the heap.)
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // mimalloc asks for transparent huge pages; when it later purges freed memory and reuses it,
    // the kernel zeroes whole 2 MiB pages again. On a cold index of the Go standard library that
    // was 3.5 of 34 CPU-seconds in `clear_page` (perf), and 2-3 s of wall time on 2 cores, for
    // no gain. The flag is per process and inherited by children; failure changes nothing.
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
    let asked = std::env::var("CODEGRAPH_LOG").ok().filter(|s| !s.trim().is_empty());
    let asked = asked.unwrap_or_else(|| "warn".to_string());
    let mut filter = tracing_subscriber::EnvFilter::try_new(&asked)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    // rmcp logs every request at info: keep it quiet unless asked for by name.
    if !asked.contains("rmcp")
        && let Ok(d) = "rmcp=warn".parse()
    {
        filter = filter.add_directive(d);
    }
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // A damaged page met by a read: the next writer checks the whole index and
            // rebuilds it (`codegraph index` after this message does).
            if let Some(path) = err
                .chain()
                .find_map(|c| c.downcast_ref::<codegraph_query::QueryError>()?.damaged_path())
            {
                codegraph_engine::guard::mark_suspect(path);
            }
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

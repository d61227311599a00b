//! The `codegraph` binary: logging setup and the process exit status around
//! [`codegraph_server::cli::run`] (the front ends are the `codegraph_server` library).

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
    let _log = init_logging();
    let result = codegraph_server::cli::run();
    if let Some(dropped) = _log.dropped() {
        eprintln!("codegraph: {dropped} log line(s) dropped: standard error was not drained");
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // `codegraph export | head -1`: the reader has what it wanted; stop quietly.
        Err(err) if closed_stdout(&err) => ExitCode::SUCCESS,
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

/// Whether `err` is a write to a pipe whose reader has gone (EPIPE; Rust ignores SIGPIPE, so
/// writes fail with it instead of killing the process).
fn closed_stdout(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<serde_json::Error>()
                .is_some_and(|e| e.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
    })
}

/// Logging setup, kept alive for the life of `main` (dropping it flushes the queued lines).
struct Logging {
    _guard: Option<tracing_appender::non_blocking::WorkerGuard>,
    dropped: Option<tracing_appender::non_blocking::ErrorCounter>,
}

impl Logging {
    fn dropped(&self) -> Option<usize> {
        self.dropped.as_ref().map(|c| c.dropped_lines()).filter(|&n| n > 0)
    }
}

/// `CODEGRAPH_LOG` (an `EnvFilter` directive; default `warn`) to standard error. `info` is
/// one line per revision: salsa's query spans and rmcp's per-request lines are kept at `warn`
/// unless the directive names them or asks for `trace` everywhere. Colour only on a terminal
/// and without `NO_COLOR`. Lines go through a queue drained by a thread, and are dropped (and
/// counted) when it is full: a client that does not read our standard error can never block
/// the server.
fn init_logging() -> Logging {
    use std::io::IsTerminal;
    let asked = std::env::var("CODEGRAPH_LOG").ok().filter(|s| !s.trim().is_empty());
    let asked = asked.unwrap_or_else(|| "warn".to_string());
    let mut filter = tracing_subscriber::EnvFilter::try_new(&asked)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    if asked.trim() != "trace" {
        for noisy in ["salsa", "rmcp"] {
            if !asked.contains(noisy)
                && let Ok(d) = format!("{noisy}=warn").parse()
            {
                filter = filter.add_directive(d);
            }
        }
    }
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(true)
        .buffered_lines_limit(10_000)
        .finish(std::io::stderr());
    let dropped = writer.error_counter();
    let installed = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour)
        .with_writer(writer)
        .try_init()
        .is_ok();
    Logging { _guard: installed.then_some(guard), dropped: installed.then_some(dropped) }
}
